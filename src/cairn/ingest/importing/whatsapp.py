"""A WhatsApp chat export ("Export chat" in a chat's menu): the .txt file, the .zip it comes
in, or that .zip unzipped (the first .txt inside, `_chat.txt` on iPhone), as one chat note
whose messages are indexed one by one, each with its speaker and time, so that "who is
driving?" is answered by the line of the person who said it (read as plain text by `cairn
ingest`, the export has no speakers; that parser warns and names this importer).

A message starts a line in one of the two forms the apps write (cairn.parse.whatsapp_lines; a
left-to-right mark, U+200E, may precede any part):

    [12/05/2024, 18:01:23] Ines: Who is driving?        (iPhone; seconds optional)
    12/05/2024, 18:01 - Ines: Who is driving?           (Android; "6:01 pm" also)

A line that starts no message continues the one before (a message of several lines). A line
with a date but no "Name:" is a notice of the app ("Messages and calls are end-to-end
encrypted", "Ana added Ben") and is left out, as are media placeholders ("<Media omitted>",
"image omitted"). The date's order (day/month or month/day, the phone's locale) is read from
the file: a first number above 12 anywhere means day first, a second one above 12 month first;
with neither, day first (most locales). Two-digit years are 20YY. Times are the phone's local
time, kept without a zone.

One export = one conversation, named from the file ("WhatsApp Chat with Climbing crew.txt",
its .zip or its folder -> "Climbing crew"); its stable id is "whatsapp:" + that name, so a later export of the same
chat updates the note. A message's id is its time and a hash of speaker and text (a later
export with more messages keeps the earlier ids). A file in which no line is a message is not
a WhatsApp export: ExportFormatError.
"""

from __future__ import annotations

import hashlib
import io
import re
import zipfile
from pathlib import Path
from typing import IO, Iterator

from cairn.ingest.importing.items import ExportFormatError, Item, Message, Skip, inside, open_zip
from cairn.parse.whatsapp_lines import MARKS, SPOKEN, message_line

_MEDIA = re.compile(r"^(?:<media omitted>|<attached: [^>]*>|(?:image|video|audio|sticker|gif|document) omitted|"
                    r"this message was deleted|you deleted this message)$", re.IGNORECASE)
_TITLE = re.compile(r"^(?:whatsapp chat (?:with|-)\s*)", re.IGNORECASE)


def _text_stream(path: Path) -> IO[bytes]:
    """The export's text: the file, or the first .txt inside a .zip or an unzipped export's
    folder (`_chat.txt` first; a folder's symbolic links are not followed out of it)."""
    if path.is_dir():
        found = sorted((p for p in path.rglob("*.txt") if inside(path, p)),
                       key=lambda p: (p.name != "_chat.txt", len(p.parts), p.name))
        if not found:
            raise ExportFormatError(f"{path}: no .txt chat in this folder")
        return open(found[0], "rb")
    if zipfile.is_zipfile(path) or path.suffix.lower() == ".zip":
        zf = open_zip(path)
        names = sorted((n for n in zf.namelist() if n.lower().endswith(".txt")),
                       key=lambda n: (not n.endswith("_chat.txt"), len(n)))
        if not names:
            raise ExportFormatError(f"{path}: no .txt chat in this zip archive")
        return zf.open(names[0])
    return open(path, "rb")


def _lines(path: Path) -> list[tuple[dict, str]]:
    """(the date/time fields, the rest) of each message line, continuation lines joined on."""
    out: list[tuple[dict, str]] = []
    try:
        with _text_stream(path) as raw:
            for line in io.TextIOWrapper(raw, encoding="utf-8-sig", errors="strict"):
                line = MARKS.sub("", line.rstrip("\r\n"))
                m = message_line(line)
                if m:
                    g = {k: v for k, v in m.groupdict().items() if v is not None}
                    out.append((g, g.pop("rest", "")))
                elif out:
                    out[-1] = (out[-1][0], out[-1][1] + "\n" + line)
    except UnicodeDecodeError as exc:
        raise ExportFormatError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start}); "
                                "is this a WhatsApp export?") from None
    return out


def _day_first(rows: list[tuple[dict, str]]) -> bool:
    """Whether dates are day/month (module docstring): decided by any number above 12."""
    if any(int(g["a"]) > 12 for g, _ in rows):
        return True
    return not any(int(g["b"]) > 12 for g, _ in rows)


def _when(g: dict, day_first: bool) -> str | None:
    """"YYYY-MM-DDTHH:MM:SS" (local, no zone) of one line's fields, None when no such day."""
    a, b, year = int(g["a"]), int(g["b"]), int(g["y"])
    day, month = (a, b) if day_first else (b, a)
    year = 2000 + year if year < 100 else year
    hour, minute, second = int(g["h"]), int(g["m"]), int(g.get("s") or 0)
    ampm = (g.get("ampm") or "").lower().replace(".", "").replace(" ", "")
    if ampm == "pm" and hour < 12:
        hour += 12
    elif ampm == "am" and hour == 12:
        hour = 0
    if not (1 <= month <= 12 and 1 <= day <= 31 and hour < 24 and minute < 60 and second < 60):
        return None
    return f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}"


def chat_name(path: Path) -> str:
    """The conversation's name from the export's file name ("WhatsApp Chat with Ana.txt" -> "Ana")."""
    stem = path.name if path.is_dir() else path.stem if path.suffix.lower() in (".txt", ".zip") else path.name
    return _TITLE.sub("", stem).strip() or stem


def read(path: Path, owner: str | None = None) -> Iterator[Item | Skip]:
    """The export at `path` as one chat Item (module docstring). Raises ExportFormatError
    naming the file when no line of it is a WhatsApp message, or it is not UTF-8."""
    path = Path(path)
    rows = _lines(path)
    day_first = _day_first(rows)
    name = chat_name(path)
    messages: list[Message] = []
    seen: dict[str, int] = {}
    for g, rest in rows:
        m = SPOKEN.match(rest)
        when = _when(g, day_first)
        if not m or when is None:
            continue  # a notice of the app, or no such day
        speaker, text = m.group("speaker").strip(), m.group("text").strip()
        if not speaker or not text or _MEDIA.match(text):
            continue
        digest = hashlib.sha1(f"{speaker}\n{text}".encode()).hexdigest()[:8]
        mid = f"{when}-{digest}"
        seen[mid] = seen.get(mid, 0) + 1
        if seen[mid] > 1:
            mid += f"-{seen[mid]}"
        messages.append(Message(mid, speaker, when, text))
    if not messages:
        raise ExportFormatError(f"{path}: no WhatsApp message in this file (lines such as "
                                "'[12/05/2024, 18:01] Ana: hello' or '12/05/2024, 18:01 - Ana: hello')")
    yield Item(source_id=f"whatsapp:{name}", title=name, type="chat", messages=messages,
               created=messages[0].time, updated=messages[-1].time,
               meta={"conversation": name, "session": f"whatsapp:{name}", "app": "WhatsApp"})
