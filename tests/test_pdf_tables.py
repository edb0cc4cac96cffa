"""parse/pdf_tables.py (session 25, typed25): a PDF's ruled table, written one cell a line by pypdf's plain text, is
rebuilt from the page's layout text as a pipe table (a two-column table as "Key: value" lines), so a value keeps its
row and column. Fixtures generated here (reportlab)."""

from __future__ import annotations

import pytest

from cairn.parse import pdf_tables
from cairn.parse.pdf import parse_pdf

LAYOUT = """Season ticket renewal

      Ticket                        Valid from       Valid to         Price
      Current annual season         14 April 2029    13 April 2030    £3,412.00
      Monthly season                                                  £341.10

Renew by 6 April 2030 so your new ticket reaches you in time."""
PLAIN = """Season ticket renewal
Ticket
Valid from
Valid to
Price
Current annual season
14 April 2029
13 April 2030
£3,412.00
Monthly season
£341.10
Renew by 6 April 2030 so your new ticket reaches you in time."""


def test_layout_tables_keep_each_cell_in_its_column():
    (rows,) = pdf_tables.layout_tables(LAYOUT)
    assert rows == [["Ticket", "Valid from", "Valid to", "Price"],
                    ["Current annual season", "14 April 2029", "13 April 2030", "£3,412.00"],
                    ["Monthly season", "", "", "£341.10"]]


def test_tabulate_replaces_the_cell_lines_by_a_pipe_table():
    out = pdf_tables.tabulate(PLAIN, LAYOUT)
    assert "| Current annual season | 14 April 2029 | 13 April 2030 | £3,412.00 |" in out
    assert "\nMonthly season: £341.10\n" in out and "| --- | --- | --- | --- |" in out  # a closing label and value
    assert out.startswith("Season ticket renewal\n") and out.endswith("reaches you in time.")


def test_a_table_the_plain_text_does_not_hold_in_order_is_left_as_it_was():
    assert pdf_tables.tabulate(PLAIN.replace("13 April 2030", "13 Apr 2030"), LAYOUT) == \
        PLAIN.replace("13 April 2030", "13 Apr 2030")
    assert pdf_tables.tabulate(PLAIN, "") == PLAIN


def test_a_two_column_table_is_a_form_and_off_is_the_plain_text(monkeypatch):
    layout = "   Item        Detail\n   Return      9 June 2029, 10:00\n   Mileage     Unlimited\n"
    plain = "Item\nDetail\nReturn\n9 June 2029, 10:00\nMileage\nUnlimited"
    assert pdf_tables.tabulate(plain, layout) == "Item: Detail\nReturn: 9 June 2029, 10:00\nMileage: Unlimited"
    monkeypatch.setattr(pdf_tables, "TABLES", False)
    assert pdf_tables.tabulate(plain, layout) == plain


def test_the_summary_rows_closing_a_table_are_written_key_value():
    layout = ("   Item        Qty    Price\n   Skip        1      £265.00\n   Permit      1      £45.00\n"
              "   Total              £310.00\n")
    plain = "Item\nQty\nPrice\nSkip\n1\n£265.00\nPermit\n1\n£45.00\nTotal\n£310.00"
    assert pdf_tables.tabulate(plain, layout).endswith("| Permit | 1 | £45.00 |\nTotal: £310.00")


def test_a_one_character_cell_is_a_cell():
    (rows,) = pdf_tables.layout_tables("   Item            Qty     Amount\n   Consultation    1       £48.00\n")
    assert rows[1] == ["Consultation", "1", "£48.00"]


def test_prose_with_single_spaces_is_no_table():
    assert pdf_tables.layout_tables("A line of prose here.\nAnother line of prose.\n") == []


def _ticket_pdf(path):
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Table, TableStyle
    style = getSampleStyleSheet()["Normal"]
    table = Table([["Ticket", "Valid from", "Valid to", "Price"],
                   ["Current annual season", "14 April 2029", "13 April 2030", "£3,412.00"],
                   ["Renewal annual season", "14 April 2030", "13 April 2031", "£3,548.00"]])
    table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.black)]))
    SimpleDocTemplate(str(path), pagesize=A4).build([Paragraph("Season ticket renewal", style), table])


def test_a_ruled_pdf_table_is_parsed_as_a_pipe_table(tmp_path):
    _ticket_pdf(tmp_path / "ticket.pdf")
    body = parse_pdf((tmp_path / "ticket.pdf").read_bytes(), "ticket.pdf").body
    assert "| Renewal annual season | 14 April 2030 | 13 April 2031 | £3,548.00 |" in body
