"""What a note mentions: names with their kind and the method that found them.

Sources, in order of trust: frontmatter fields naming people, places or projects
(FRONTMATTER_KEYS), wikilink targets, tags (kind "topic"), a short markdown title (the note
is about that entity: method "title"; not one with path characters, "a/b"), chat speakers, and spaCy named entities
(cairn/ner.py; labels mapped by NER_KINDS) over the first NER_CHARS characters of a
document or note (title and opening: spaCy reads ~4-5k words per CPU second here, so
reading whole documents would more than double ingest time) and over each chat message
whole (its own unit), then names by their written form (cairn/ner_written.py: capitalised
runs, group and project phrases, person evidence) over the whole document, which cost a
regular expression's pass, and technologies and tools by their cues (cairn/graph/tech.py:
"Python 3.11", "the Ruff linter", "written in Rust"; kind "technology"). Every name comes from the note's
own text or metadata (grounded). A single closed-class word ("He", "be";
ner_written.closed_class) found in prose (spaCy, written form) is never a name; a tag, link,
frontmatter value or tool cue naming one ("#go", "Go 1.22") is the person's own word. Mentions are capped at MAX_PER_NOTE entities per note,
most mentioned first; co-occurrence uses at most MAX_PER_UNIT entities of one unit.
"""

from __future__ import annotations

import functools
import json
import re
from collections import Counter
from dataclasses import dataclass, field

from cairn.ner_written import closed_class

MAX_PER_NOTE = 40
MAX_PER_UNIT = 12
NER_CHARS = 500
# spaCy reads only the sentences that may hold a name (name_bearing); False: every sentence
NAME_GATE = True
FRONTMATTER_KEYS = {"people": "person", "person": "person", "attendees": "person", "participants": "person",
                    "with": "person", "author": "person", "authors": "person", "project": "project",
                    "projects": "project", "place": "place", "places": "place", "location": "place",
                    "org": "org", "organisation": "org", "organization": "org", "company": "org",
                    "team": "org", "event": "event", "entities": "entity", "tools": "technology",
                    "tool": "technology", "tech": "technology", "technology": "technology",
                    "technologies": "technology", "stack": "technology", "software": "technology"}
NER_KINDS = {"PERSON": "person", "ORG": "org", "GPE": "place", "LOC": "place", "FAC": "place",
             "EVENT": "event", "PRODUCT": "project", "WORK_OF_ART": "project", "NORP": "topic",
             "LANGUAGE": "topic", "NAME": "entity"}
# a technology cue in the text (graph/tech.py) outranks spaCy's label: "Postgres 16" is a tool, not an ORG
METHOD_RANK = {"frontmatter": 0, "title": 1, "wikilink": 2, "tag": 3, "speaker": 4, "tech": 4.5, "ner": 5,
               "written": 6}
_TITLE_WORDS = 6
_BAD = re.compile(r"^[\W\d_]+$")
_PATH_CHARS = re.compile(r"[/\\]")  # a title holding one ("a/b", "/../escape") names a path, not a thing
_SENTENCE_END = re.compile(r"((?<=[.!?])\s+|\n+)")  # a sentence's end: . ! ? then space, or a line break
_FIRST_WORD = re.compile(r"[^\W\d_]+")
_CAPS_ABBREV = re.compile(r"[A-Z]{2,5}")
_ASCII_CAPITAL = re.compile(r"[A-Z]")  # in ASCII text, the only letters that are upper case or uncased
_CLOCK = re.compile(r"\b\d{1,2}(?:[:.]\d\d\s*(?:[ap]\.?m\.?)?|\s*[ap]\.?m\.?)", re.IGNORECASE)  # "14:00", "9am", "10.30 pm"


@dataclass
class Found:
    """Names found in one note: unit source_id ('' = whole note) -> {name: count}, the
    kind and method of each name (first, most trusted method wins)."""

    units: dict[str, Counter] = field(default_factory=dict)
    kind: dict[str, str] = field(default_factory=dict)
    method: dict[str, str] = field(default_factory=dict)

    def add(self, unit: str, name: str, kind: str, method: str, n: int = 1) -> None:
        name = " ".join(str(name).split()).strip(" .,;:'\"#[]()")
        if len(name) < 2 or len(name) > 80 or _BAD.match(name):
            return
        if method in ("ner", "written") and " " not in name and closed_class(name):
            return  # "He", "be": a pronoun or an auxiliary, never a name found in prose
        self.units.setdefault(unit, Counter())[name] += n
        if name not in self.method or METHOD_RANK[method] < METHOD_RANK[self.method[name]]:
            self.method[name] = method
            self.kind[name] = kind


def _listish(value) -> list[str]:
    if isinstance(value, str):
        return [p for p in re.split(r"\s*[,;]\s*", value) if p]
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value if isinstance(v, (str, int, float)) and str(v).strip()]
    return []


def _link_name(target: str) -> str:
    return target.replace("\\", "/").rsplit("/", 1)[-1].removesuffix(".md").strip()


def structural(note, links: list[str], chunks) -> Found:
    """Names from metadata, links, tags, title and chat speakers of one note (no NER).
    `note`: a row with title, type, tags (JSON), meta (JSON); `chunks`: rows with text,
    source_id, speaker."""
    found = Found()
    meta = json.loads(note["meta"] or "{}") if isinstance(note["meta"], str) else (note["meta"] or {})
    for key, kind in FRONTMATTER_KEYS.items():
        for name in _listish(meta.get(key)):
            found.add("", re.sub(r"^\[\[|\]\]$", "", name), kind, "frontmatter")
    for target in links:
        found.add("", _link_name(target), "entity", "wikilink")
    tags = json.loads(note["tags"] or "[]") if isinstance(note["tags"], str) else (note["tags"] or [])
    for tag in tags:
        found.add("", str(tag).lstrip("#").replace("-", " ").replace("_", " "), "topic", "tag")
    title = (note["title"] or "").strip()
    if note["type"] in ("markdown", "note") and title and len(title.split()) <= _TITLE_WORDS \
            and not _PATH_CHARS.search(title):
        found.add("", title, "entity", "title")
    if note["type"] == "chat":
        for c in chunks:
            if c["speaker"] and c["source_id"]:
                found.add(c["source_id"], c["speaker"], "person", "speaker")
    return found


def _may_name(sentence: str) -> bool:
    """Whether one sentence can hold a proper name by English orthography: a capital letter
    after its first character, or a first word that is not a closed-class word ("The", "We",
    "In": capitalised only by its place). A sentence with a letter of a script without case
    (Chinese, Arabic, ...) always may."""
    s = sentence.strip()
    if not s:
        return False
    rest = s[1:]
    if _ASCII_CAPITAL.search(rest) if rest.isascii() else \
            any(ch.isupper() or (ch.isalpha() and not ch.islower()) for ch in rest):
        return True
    if not s[0].isupper():
        return s[0].isalpha() and not s[0].islower()
    first = _FIRST_WORD.match(s)
    return not (first and closed_class(first.group(0)))


def name_bearing(text: str) -> str:
    """`text` without the sentences that cannot hold a name (`_may_name`), the others with
    their own separators; what spaCy reads. Its entities are the same but for spaCy's guesses
    on lowercase words ("obese" as a nationality, "adenomas" as a person): on the first
    NER_CHARS characters of 1,000 SciFact abstracts, 16 % fewer characters and 21 % less
    spaCy CPU (bench/README.md, "Session 18 — lead")."""
    if not NAME_GATE:
        return text
    parts = _SENTENCE_END.split(text)
    kept = [parts[i] + (parts[i + 1] if i + 1 < len(parts) else "")
            for i in range(0, len(parts), 2) if _may_name(parts[i])]
    return "".join(kept).strip()


def ner_units(note, chunks) -> list[tuple[str, str]]:
    """(unit, text) pieces to run NER over: each chat message, or the note's first
    NER_CHARS characters. Of a note's opening only the sentences that may hold a name are
    read (`name_bearing`); a chat message is read whole or, when none of its sentences may
    hold one, not at all (a short message's other sentences are the context spaCy labels by:
    "Caroline" read without them turned from PERSON to ORG)."""
    if note["type"] == "chat":
        return [(c["source_id"] or "", c["text"]) for c in chunks if c["text"] and name_bearing(c["text"])]
    text, size = [], 0
    for c in chunks:
        if size >= NER_CHARS:
            break
        text.append(c["text"][:NER_CHARS - size])
        size += len(text[-1])
    piece = name_bearing("\n".join(text)) if text else ""
    return [("", piece)] if piece else []


def _zone_of_a_time(name: str, text: str) -> bool:
    """Whether `name` is a time zone's letters written right after a clock time in `text`
    ("14:00 UTC", "9am EST", "10.30 CET"): a designator of the time, not an organisation. Only
    an abbreviation the tz database uses counts (`_zone_abbreviations`): "at 3pm NHS rang" keeps NHS.
    The pattern naming `name` is built only for a zone's letters in a text holding a clock time
    (_CLOCK, compiled once; the zones are read then): one pattern per abbreviation cost more
    than the rest of the entity pass's Python on scientific text, whose abbreviations are many
    ("DNA", "CI"; bench/entity_text_cpu.py)."""
    return bool(_CAPS_ABBREV.fullmatch(name)) and _CLOCK.search(text) is not None \
        and name in _zone_abbreviations() \
        and re.search(_CLOCK.pattern + r"\s*" + re.escape(name) + r"\b", text, re.IGNORECASE) is not None


@functools.cache
def _zone_abbreviations() -> frozenset[str]:
    """The letter abbreviations the tz database gives its zones in mid-January and mid-July
    (49 on this machine's tzdata: UTC, GMT, BST, CET, EST, PDT, JST, ...); read once, ~0.3 s,
    only when a capitalised word follows a clock time."""
    from datetime import datetime
    from zoneinfo import ZoneInfo, available_timezones
    out = {"UTC", "GMT"}
    for key in available_timezones():
        try:
            tz = ZoneInfo(key)
        except Exception:  # a broken tzdata entry: skipped
            continue
        out.update(n for m in (1, 7) if (n := datetime(2026, m, 15, 12, tzinfo=tz).tzname()) and n.isalpha() and n.isupper())
    return frozenset(out)


def add_ner(found: Found, unit: str, ents, text: str = "") -> None:
    """Add spaCy entities (cairn.ner.Entity) found in one unit whose `text` they came from: a
    PERSON the text gives no sign of being one (a familiar single word such as "Cork", a
    label with a digit such as "Q3") counts as a plain entity (ner_written.refine_person)."""
    from cairn.ner_written import refine_person, trim_span
    for ent in ents:
        name = trim_span(ent.text)
        if text and _zone_of_a_time(name, text):
            continue
        kind = NER_KINDS.get(refine_person(name, ent.label, text) if text else ent.label)
        if kind:
            found.add(unit, name, kind, "ner")


def written_units(note, chunks) -> list[tuple[str, str]]:
    """(unit, text) pieces to read names from by their written form: each chat message, or
    the whole note (every chunk, not only its opening)."""
    if note["type"] == "chat":
        return [(c["source_id"] or "", c["text"]) for c in chunks if c["text"]]
    text = "\n".join(c["text"] for c in chunks if c["text"])
    return [("", text)] if text else []


def add_written(found: Found, unit: str, text: str) -> None:
    """Add the names of `text` found by their written form (cairn.ner_written): people, groups
    and projects that no model has seen."""
    from cairn.ner_written import common_noun, written_names
    for ent in written_names(text):
        if ent.label != "PERSON" and common_noun(ent.text, text):
            continue  # "the Traffic on Mill Lane": a common noun capitalised, not a name
        kind = NER_KINDS.get(ent.label)
        if kind:
            found.add(unit, ent.text, kind, "written")


def add_tech(found: Found, unit: str, text: str) -> None:
    """Add the technologies and tools `text` names by its own cues (cairn.graph.tech, kind
    "technology", EchoGarden G12), over the whole text."""
    from cairn.graph.tech import technology_names
    for name in technology_names(text):
        found.add(unit, name, "technology", "tech")


def capped(found: Found) -> Found:
    """Keep the MAX_PER_NOTE names mentioned most (ties: most trusted method)."""
    total: Counter = Counter()
    for counts in found.units.values():
        total.update(counts)
    keep = {n for n, _ in sorted(total.items(), key=lambda kv: (-kv[1], METHOD_RANK[found.method[kv[0]]],
                                                                 kv[0]))[:MAX_PER_NOTE]}
    found.units = {u: Counter({n: c for n, c in cnt.items() if n in keep}) for u, cnt in found.units.items()}
    return found
