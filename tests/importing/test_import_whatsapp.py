"""`cairn import whatsapp`: a WhatsApp chat export (.txt from an iPhone or an Android phone, or
its .zip) becomes one chat note with a speaker per message, so a question is answered by the
line of the person who said it (probe22: the .txt read as plain text answered "Who is
driving?" with another speaker's line). Chats written here, invented for these tests."""

from __future__ import annotations

import zipfile

import pytest

from conftest import HashEmbedder
from cairn.errors import InvalidInput
from cairn.ingest.importing import whatsapp as W
from cairn.service import Cairn

IPHONE = ("\u200e[12/05/2024, 18:01:07] Tomasz: What time are we leaving for the climbing trip?\n"
          "[12/05/2024, 18:02:10] Me: 7am from my place\n"
          "\u200e[12/05/2024, 18:02:30] Me: \u200eimage omitted\n"
          "[12/05/2024, 18:03:00] Ines: Who is driving?\n"
          "[12/05/2024, 18:05:00] Ines: I'm driving, I have the van.\n"
          "Bring the ropes\nand the first-aid kit.\n"
          "[13/05/2024, 09:00:00] Tomasz added Priya\n")
ANDROID = ("5/13/24, 6:01 PM - Messages and calls are end-to-end encrypted.\n"
           "5/13/24, 6:01 PM - Ana: Who has the spare key?\n"
           "5/13/24, 6:03 PM - Ben: <Media omitted>\n"
           "5/13/24, 12:04 AM - Ben: I have it, it's under the blue pot\n")


def _read(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return list(W.read(path))


def test_iphone_export_speakers_times_and_continued_lines(tmp_path):
    [item] = _read(tmp_path, "WhatsApp Chat with Climbing crew.txt", IPHONE)
    assert item.type == "chat" and item.title == "Climbing crew" and item.source_id == "whatsapp:Climbing crew"
    said = [(m.speaker, m.time, m.text) for m in item.messages]
    assert said == [
        ("Tomasz", "2024-05-12T18:01:07", "What time are we leaving for the climbing trip?"),
        ("Me", "2024-05-12T18:02:10", "7am from my place"),
        ("Ines", "2024-05-12T18:03:00", "Who is driving?"),
        ("Ines", "2024-05-12T18:05:00", "I'm driving, I have the van.\nBring the ropes\nand the first-aid kit."),
    ]  # the media placeholder and the "added" notice are left out
    assert len({m.id for m in item.messages}) == 4


def test_android_export_month_first_and_twelve_hour_clock(tmp_path):
    [item] = _read(tmp_path, "WhatsApp Chat - Flat.txt", ANDROID)
    assert item.title == "Flat"
    assert [(m.speaker, m.time) for m in item.messages] == [("Ana", "2024-05-13T18:01:00"),
                                                           ("Ben", "2024-05-13T00:04:00")]


def test_a_file_with_no_message_is_refused_naming_it(tmp_path):
    with pytest.raises(InvalidInput, match="no WhatsApp message in this file"):
        _read(tmp_path, "notes.txt", "Shopping list\n- milk\n- eggs\n")
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("[12/05/2024, 18:01] Zo\xeb: ol\xe1\n".encode("latin-1"))
    with pytest.raises(InvalidInput, match="not UTF-8"):
        list(W.read(bad))


def test_zip_import_answers_with_the_speaker_and_reimports_unchanged(tmp_path):
    path = tmp_path / "WhatsApp Chat - Climbing crew.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("_chat.txt", IPHONE)
    with Cairn(tmp_path / "home", embedder=HashEmbedder()) as app:
        first = app.import_export("whatsapp", path, extract=False)
        assert len(first.added) == 1
        again = app.import_export("whatsapp", path, extract=False)
        assert not again.added and not again.updated
        ans = app.ask("Who is driving?", llm="none")
        assert not ans.abstained and ans.citations[0]["speaker"] == "Ines", ans.answer
        # the knowledge answer (cairn chat's) names the speaker of a first-person line
        know = app.answer_about("who is driving to the climbing trip?")
        assert know.found and know.text.startswith("Ines: I'm driving"), know.text


def test_an_unzipped_export_folder_is_read_and_an_empty_one_refused(tmp_path):
    folder = tmp_path / "WhatsApp Chat - Climbing crew"
    folder.mkdir()
    (folder / "_chat.txt").write_text(IPHONE, encoding="utf-8")
    [item] = list(W.read(folder))
    assert item.title == "Climbing crew" and len(item.messages) == 4
    (tmp_path / "empty").mkdir()
    with pytest.raises(InvalidInput, match="no .txt chat in this folder"):
        list(W.read(tmp_path / "empty"))


def test_ingest_of_an_export_as_text_names_the_importer(tmp_path):
    """`cairn ingest chat.txt` still reads it as plain text (the person's choice), with a
    warning naming `cairn import whatsapp`; an ordinary text with a date or two gets none."""
    from cairn.parse import parse_text
    assert any("cairn import whatsapp" in w for w in parse_text(IPHONE, "chat.txt").warnings)
    assert any("cairn import whatsapp" in w for w in parse_text(ANDROID, "chat.txt").warnings)
    plain = "Boiler log\n12/05/2024, 18:01 - serviced\n13/05/2024 noted: fine\nAll good.\n"
    assert not parse_text(plain, "log.txt").warnings


def test_the_speaker_is_on_the_opening_line_for_the_importer_and_the_text_parser(tmp_path):
    """One speaker pattern (parse.whatsapp_lines.SPOKEN) for both readers: a message whose text runs on over several
    lines keeps them, a colon in its text is text; a notice of the app whose later line holds a colon ("Rules: …") names
    no speaker (the importer's own pattern read "Ana changed the group description\\nRules" as a speaker)."""
    from cairn.parse.whatsapp_lines import SPOKEN, looks_like_whatsapp
    notice = ("[12/05/2024, 18:00:00] Ana changed the group description\nRules: be kind\n"
              "[12/05/2024, 18:01:00] Ana: Times: 7am\nmeet at the gate\n")
    [item] = _read(tmp_path, "WhatsApp Chat with Crew.txt", notice)
    assert [(m.speaker, m.text) for m in item.messages] == [("Ana", "Times: 7am\nmeet at the gate")]
    assert SPOKEN.match("Ana changed the group description\nRules: be kind") is None
    m = SPOKEN.match("Ana: Times: 7am\nmeet at the gate")
    assert (m.group("speaker"), m.group("text")) == ("Ana", "Times: 7am\nmeet at the gate")
    assert looks_like_whatsapp(IPHONE) and not looks_like_whatsapp(notice.replace("Ana: ", "Ana said "))
