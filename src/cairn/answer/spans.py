"""Spans an extractive answer may quote: sentences cut at record lines, markdown as prose, image captions."""

from __future__ import annotations

import re

from cairn.answer.tables import heading_above
from cairn.lexical import LABEL_VALUE, sentences

_CAPTION_ONLY = re.compile(r"\[image:[^\]]*\]\.?")
_WH_WORD = re.compile(r"^\W*(when|where|who|whom|why|how|what)\b", re.IGNORECASE)
# Lines of a record ("Weight: 13.4 kg") or of a table one cell a line are units of their own: a line break ends the
# sentence when either line is a "Key: value" field, or the line before is shorter than RECORD_LINE characters (a
# wrapped line fills its width) and the next does not go on in lower case. 0: off.
RECORD_LINE = 40


def is_caption(sentence: str) -> bool:
    """True when `sentence` is nothing but an image caption ("[image: a photo of a bowl]")."""
    return bool(_CAPTION_ONLY.fullmatch(sentence.strip()))


def context_of(hit, text: str, start: int) -> str:
    """The note's title (not a chat message's) and the nearest heading above offset `start`
    of `text`, joined by a space ("" when neither)."""
    return " ".join(p for p in (hit.title if hit.speaker is None else "", heading_above(text[:start])) if p)


def _short_spans(text: str) -> list[tuple[int, int]]:
    """The sentence spans of `text` (lexical.sentences), each cut at its record lines."""
    return [span for s, e in sentences(text) for span in _record_lines(text, s, e)]


def _record_lines(text: str, s: int, e: int) -> list[tuple[int, int]]:
    """text[s:e] cut at its record line breaks (RECORD_LINE), each piece stripped."""
    if not RECORD_LINE or "\n" not in text[s:e]:
        return [(s, e)]
    out, start = [], s
    for m in re.finditer("\n", text[s:e]):
        at = s + m.start()
        line, nxt = text[start:at].strip(), text[at + 1:e].split("\n", 1)[0].strip()
        if (len(line) < RECORD_LINE and not nxt[:1].islower()) or LABEL_VALUE.fullmatch(line) or LABEL_VALUE.fullmatch(nxt):
            out.append((start, at))
            start = at + 1
    return [(a + len(text[a:b]) - len(text[a:b].lstrip()), b - len(text[a:b]) + len(text[a:b].rstrip()))
            for a, b in out + [(start, e)] if text[a:b].strip()]  # outer blank space stripped, blank ones dropped


def _clean_markdown(text: str) -> str:
    """Markdown to prose for quoting (lines kept): images and URLs dropped, links and
    wikilinks reduced to their text, emphasis and code ticks removed."""
    t = re.sub(r"!\[[^\]]*\]\([^)]*\)", "", text)
    t = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", t)
    t = re.sub(r"!?\[\[(?:[^\]|]*\|)?([^\]]*)\]\]", r"\1", t)
    t = re.sub(r"https?://\S+", "", t)
    return re.sub(r"(\*\*|__|`)", "", t)


def _clean(sentence: str) -> str:
    """A quoted sentence without emphasis, code ticks, list numbering and line breaks."""
    s = re.sub(r"(\*\*|__|`)", "", re.sub(r"\s*\n\s*", " ", sentence.strip()))
    s = re.sub(r"^\d+[.)]\s+", "", s)
    s = re.sub(r"\[\[([^\]|]*\|)?([^\]]*)\]\]", r"\2", s)
    return s.strip()
