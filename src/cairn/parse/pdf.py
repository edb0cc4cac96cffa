"""PDF files: the text layer of each page via pypdf, and OCR for scanned pages.

body = the text of the pages that have any, joined with "\\n\\n"; `pages` holds one PageSpan per
such page (body[start:end] is exactly that page's text). A page without a text layer is a scan:
with `ocr=True` the images embedded in it (pypdf `page.images`, in page order) are read with
RapidOCR (cairn.parse.ocr) and their text becomes the page's text; its number goes to
meta["ocr_pages"]. A page that still has no text gets no span (so no empty chunk can be made
from it), a warning ("page N: no text found (OCR)", "page N: no text layer and no images to
OCR", or with OCR off "page N: no extractable text (image-only page; OCR is off)"), and its
number in meta["pages_without_text"]. OCR reads at most `max_ocr_pages` such pages (it takes
seconds a page): later ones are left out (listed in meta["pages_without_text"] and
meta["pages_not_ocred"]) with one warning "OCR stopped after 50 of 500 scanned pages; raise
[ingest] max_ocr_pages". A PDF with no text at all raises EmptyDocument; an encrypted PDF
that opens with no password is read, one that needs a password raises ParseError.
"""

from __future__ import annotations

import datetime as dt
import io
import logging
import re
from pathlib import PurePath
from typing import Any

from ..model import PageSpan, ParsedDocument
from .errors import EmptyDocument, ParseError, describe
from ._shared import clean_lines, clean_text, utc_iso

_PDF_DATE = re.compile(r"^D?:?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?\s*([Zz+\-])?\s*(\d{2})?'?\s*(\d{2})?'?")
_TITLE_PREFIX = re.compile(r"^Microsoft (?:Word|PowerPoint|Excel) - ", re.IGNORECASE)
# placeholder values some producers write into the info dictionary (reportlab, Word...)
MAX_OCR_PAGES = 50  # default cap on OCR'd pages per PDF (config `[ingest] max_ocr_pages`)
_JUNK_VALUES = {"(anonymous)", "(unspecified)", "anonymous", "unspecified", "untitled", "unknown", "none", "-"}


def pdf_date(value: Any) -> str | None:
    """A PDF date string ("D:20240105123000+01'00'") -> "YYYY-MM-DDTHH:MM:SSZ", else None."""
    if not isinstance(value, str):
        return None
    m = _PDF_DATE.match(value.strip())
    if not m:
        return None
    y, mo, d, h, mi, s, sign, oh, om = m.groups()
    try:
        moment = dt.datetime(int(y), int(mo or 1), int(d or 1), int(h or 0), int(mi or 0), int(s or 0))
        offset = dt.timedelta(0)
        if sign in ("+", "-") and oh:
            offset = dt.timedelta(hours=int(oh), minutes=int(om or 0))
            if sign == "-":
                offset = -offset
        moment = moment.replace(tzinfo=dt.timezone(offset)).astimezone(dt.timezone.utc)
    except (ValueError, OverflowError):
        return None
    return utc_iso(moment)


def _clean_page(text: str) -> str:
    return clean_lines(text).strip("\n")


# what pypdf raises on a malformed page (as on a malformed file, parse_pdf) besides its own PdfReadError
_MALFORMED = (ValueError, KeyError, TypeError, AttributeError, IndexError, ZeroDivisionError, RecursionError)


def _tables(page: Any, raw: str, number: int, warnings: list[str]) -> str:
    """`raw` (the page's plain text) with its ruled tables as pipe tables (parse/pdf_tables.py), read from the page's
    layout text only when four consecutive lines are short enough to be a table's cells (at most six words). The
    layout text is a refinement: when pypdf cannot read it (a malformed page: PdfReadError or one of _MALFORMED),
    `raw` stands and "page N: its layout could not be read for tables (...); its plain text is kept" goes to
    `warnings` (and the log)."""
    from pypdf.errors import PdfReadError

    from .pdf_tables import TABLES, tabulate

    short = [0 < len(x.split()) <= 6 for x in raw.split("\n")]
    if not TABLES or not any(all(short[i:i + 4]) for i in range(len(short) - 3)):
        return raw
    try:
        layout = page.extract_text(extraction_mode="layout") or ""
    except (PdfReadError, *_MALFORMED) as exc:
        problem = f"page {number}: its layout could not be read for tables ({describe(exc)}); its plain text is kept"
        logging.getLogger(__name__).warning(problem)
        warnings.append(problem)
        return raw
    return tabulate(raw, layout)


def _ocr_page(page: Any) -> tuple[str, int]:
    """(OCR text of the images on a pypdf page, number of images found)."""
    from .ocr import ocr_image

    texts = []
    images = list(page.images)
    for img in images:
        text = ocr_image(img.image)
        if text:
            texts.append(text)
    return "\n\n".join(texts), len(images)


def parse_pdf(data: bytes, name: str, *, ocr: bool = True, max_ocr_pages: int = MAX_OCR_PAGES) -> ParsedDocument:
    """Parse PDF bytes of the file called `name`; OCR pages without text when `ocr`, the
    first `max_ocr_pages` of them at most."""
    try:
        from pypdf import PdfReader
        from pypdf.errors import DependencyError, FileNotDecryptedError, PdfReadError
    except ImportError as exc:  # pragma: no cover - dependency is declared
        raise ParseError(f"PDF support is not installed ({exc})") from None

    # pypdf logs every recoverable oddity at WARNING; keep them out of the user's console.
    logging.getLogger("pypdf").setLevel(logging.ERROR)

    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
    except (PdfReadError, *_MALFORMED) as exc:
        raise ParseError(f"corrupt or unreadable PDF: {describe(exc)}") from None

    if reader.is_encrypted:
        try:
            ok = reader.decrypt("")
        except DependencyError:
            raise ParseError("encrypted PDF: decrypting it needs the 'cryptography' package") from None
        except Exception as exc:
            raise ParseError(f"encrypted PDF could not be opened: {exc}") from None
        if not ok:
            raise ParseError("encrypted PDF: a password is needed to read it")

    try:
        n_pages = len(reader.pages)
    except FileNotDecryptedError:
        raise ParseError("encrypted PDF: a password is needed to read it") from None
    except Exception as exc:
        raise ParseError(f"corrupt or unreadable PDF (page tree): {describe(exc)}") from None
    if n_pages == 0:
        raise EmptyDocument("PDF has no pages")

    warnings: list[str] = []
    parts: list[str] = []
    spans: list[PageSpan] = []
    empty_pages: list[int] = []
    ocr_pages: list[int] = []
    not_ocred: list[int] = []  # scanned pages past the OCR cap
    ocr_tried = 0
    pos = 0
    for i in range(n_pages):
        number = i + 1
        try:
            raw = reader.pages[i].extract_text() or ""
        except Exception as exc:  # one bad page must not lose the others
            warnings.append(f"page {number}: text extraction failed ({describe(exc)})")
            empty_pages.append(number)
            continue
        text = _clean_page(_tables(reader.pages[i], raw, number, warnings))
        if not text.strip():
            if not ocr:
                warnings.append(f"page {number}: no extractable text (image-only page; OCR is off)")
                empty_pages.append(number)
                continue
            if ocr_tried >= max_ocr_pages:
                not_ocred.append(number)
                empty_pages.append(number)
                continue
            ocr_tried += 1
            try:
                scanned, n_images = _ocr_page(reader.pages[i])
            except ParseError as exc:
                warnings.append(f"page {number}: {exc}")
                empty_pages.append(number)
                continue
            except Exception as exc:  # an undecodable image must not lose the other pages
                warnings.append(f"page {number}: page image could not be read for OCR ({describe(exc)})")
                empty_pages.append(number)
                continue
            text = _clean_page(scanned)
            if not text.strip():
                warnings.append(f"page {number}: no text found (OCR)" if n_images
                                else f"page {number}: no text layer and no images to OCR")
                empty_pages.append(number)
                continue
            ocr_pages.append(number)
        if parts:
            pos += 2  # the "\n\n" separator
        spans.append(PageSpan(page=number, start=pos, end=pos + len(text)))
        parts.append(text)
        pos += len(text)

    stopped = ""
    if not_ocred:
        stopped = (f"OCR stopped after {ocr_tried} of {ocr_tried + len(not_ocred)} scanned pages; "
                   "raise [ingest] max_ocr_pages")
        warnings.append(stopped)
    if not parts:
        if stopped:
            raise EmptyDocument(f"no text in {n_pages} pages: no text found (OCR) in the pages read; {stopped}")
        if not ocr:
            raise EmptyDocument(f"no extractable text in {n_pages} pages "
                                "(image-only PDF; OCR is off: set [ingest] ocr = true)")
        raise EmptyDocument(f"no text in {n_pages} pages: no text layer and no text found (OCR)")
    body = "\n\n".join(parts)

    meta: dict[str, Any] = {"pages": n_pages}
    if empty_pages:
        meta["pages_without_text"] = empty_pages
    if ocr_pages:
        meta["ocr_pages"] = ocr_pages
    if not_ocred:
        meta["pages_not_ocred"] = not_ocred
    info = None
    try:
        info = reader.metadata
    except Exception:
        info = None
    title = ""
    created = updated = None
    if info:
        def get(key: str) -> Any:
            try:
                value = info.get(key)
            except Exception:
                return None
            return clean_text(value) if value is not None else None

        for key, out in (("/Title", "title"), ("/Author", "author"), ("/Subject", "subject"),
                         ("/Keywords", "keywords"), ("/Creator", "creator"), ("/Producer", "producer")):
            value = get(key)
            if value and value.lower() not in _JUNK_VALUES:
                meta[out] = value
        created = pdf_date(get("/CreationDate"))
        updated = pdf_date(get("/ModDate"))
        title = meta.get("title", "")
        if title:
            title = _TITLE_PREFIX.sub("", title).strip()
    if not title:
        title = PurePath(name).stem or name

    return ParsedDocument(
        kind="pdf",
        title=title,
        body=body,
        pages=spans,
        meta=meta,
        created=created,
        updated=updated,
        warnings=warnings,
    )
