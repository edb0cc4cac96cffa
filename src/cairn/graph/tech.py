"""Technologies and tools a note mentions (EchoGarden G12: entity kind "technology").

A name counts as a technology when the text itself says so, by one of three written cues
(every name comes from the note's own words):
- a version after it: "Python 3.11", "Django 4.2", "Postgres v16" (a name followed by a
  dotted or v-prefixed number);
- a tool noun after it: "the Ruff linter", "SQLite database", "htmx library" (TOOL_NOUNS);
- a verb of use before it: "written in Rust", "built with Svelte", "migrated to Postgres",
  "installed ripgrep", "runs on Kubernetes" (USE_CUES), when the name is tool-shaped (a
  capital, a digit, a dot, "+", "#" or "-" inside: "Rust", "Node.js", "C++", "k3s") or no
  familiar English word after "install(ed)" or before a tool noun (ner_written.familiar:
  "installed ripgrep", "the htmx library"), so
  "written in haste" is not one; nor is a day or month ("runs on Mondays", CALENDAR) or a
  lower-case phrase ("switched to plan B"). A number after "Chapter", "page", ... (NOT_VERSIONED) is not
  a version. Nor is a number after a single familiar English word (ner_written.familiar) written
  in lower case ("should be 1.5 bar", "beans 0.89"), or after a capitalised one when the number
  has two decimals and the text states money ("Bread 1.20" on a receipt with "£24.48", or a
  receipt's own words: "Total 10.49", "VAT"; a price; session 17, review3 M7; probe22). "Python 3.11" in a note without prices is still a version.
Frontmatter lists (`tools`, `stack`, `tech`, ...) are read by cairn.graph.extract.
A name is one to three words; leading articles are dropped.
"""

from __future__ import annotations

import re

TOOL_NOUNS = ("library", "framework", "database", "db", "linter", "compiler", "editor", "ide",
              "runtime", "sdk", "api", "cli", "plugin", "extension", "package", "toolkit", "toolchain",
              "interpreter", "server", "engine", "app", "container", "orchestrator",
              "formatter", "bundler", "debugger", "terminal", "shell")
USE_CUES = ("written in", "coded in", "programmed in", "built with", "built on", "built in", "made with",
            "migrated to", "migrate to", "switched to", "switch to", "upgraded to",
            "upgrade to", "installed", "install", "runs on", "running on", "deployed on", "deployed to",
            "deployed with", "powered by", "implemented in", "rewritten in", "ported to", "using the")
_NAME = r"[A-Za-z][\w.+#-]*[\w+#]|[A-Za-z]"
_VERSION = re.compile(rf"\b((?:{_NAME})(?: (?:{_NAME})){{0,1}}) (v?\d+(?:\.\d+)+)\b")
_NOUN = re.compile(rf"\b((?:{_NAME})(?: (?:{_NAME})){{0,2}}) (?:{'|'.join(TOOL_NOUNS)})s?\b", re.I)
_CUE = re.compile(rf"\b({'|'.join(re.escape(c) for c in USE_CUES)}) ((?:{_NAME})(?: (?:{_NAME})){{0,1}})",
                  re.I)
# words a number follows that are not software ("Chapter 3.2", "page 4.1")
NOT_VERSIONED = {"chapter", "section", "page", "pages", "figure", "fig", "table", "step", "part", "rule",
                 "verse", "article", "item", "appendix", "exhibit", "version", "release", "room", "level",
                 "grade", "unit", "lesson", "paragraph", "clause", "psalm", "gen", "vol", "no", "number"}
CALENDAR = {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "weekday", "weekend",
            "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
            "november", "december", "today", "tomorrow"}
_ARTICLES = {"the", "a", "an", "our", "my", "their", "this", "that", "its", "his", "her", "new", "old"}
_SHAPED = re.compile(r"[A-Z0-9.+#]|.-.")
_MONEY = re.compile(r"[£$€¥]\s?\d|\b\d+(?:\.\d\d)?\s?(?:GBP|EUR|USD)\b|"
                    r"\b(?:(?:sub)?total|receipt|invoice|vat|amount due|balance due)\b", re.I)
_PRICE = re.compile(r"\d+\.\d\d")
# What each pattern cannot match without (a dotted number; a tool noun after a space; a
# cue phrase): one cheap scan decides whether the pattern's own scan, which tries a name at
# every word, can find anything. The names found are the same (tests/test_entity_tech_merge.py).
_HAS_VERSION = re.compile(r"\d\.\d")
_HAS_NOUN = re.compile(rf" (?:{'|'.join(TOOL_NOUNS)})s?\b", re.I)
_HAS_CUE = re.compile(rf"\b(?:{'|'.join(re.escape(c) for c in USE_CUES)}) [A-Za-z]", re.I)
GATE = True
"""Skip a pattern when its gate finds nothing (False: every pattern scans every text; the
bench's switch: bench/ingest_profile.py --ab tech_gate)."""


def _priced(word: str, number: str, text: str) -> bool:
    """Whether "`word` `number`" reads as a common word and an amount, not a tool and its
    version (module doc): a familiar lower-case word, or a familiar word before a two-decimal
    number in a text that states money."""
    from cairn.ner_written import familiar
    if not familiar(word):
        return False
    return word.islower() or bool(_PRICE.fullmatch(number) and _MONEY.search(text))


def _trim(name: str) -> str:
    words = [w for w in name.split() if w]
    while words and words[0].lower() in _ARTICLES:
        words = words[1:]
    return " ".join(words).strip(".-")


def _ok(name: str, strong: bool, lower_ok: bool = False) -> bool:
    from cairn.ner_written import familiar
    if len(name) < 2 or not re.match(r"[A-Za-z]", name):
        return False
    words = name.split()
    if all(w.lower() in _ARTICLES for w in words):
        return False
    if strong or _SHAPED.search(name):
        return True
    return lower_ok and not any(familiar(w) for w in words)  # "installed ripgrep", not "written in haste"


def technology_names(text: str) -> list[str]:
    """Technology and tool names in `text` by the cues of the module docstring, each once,
    in the order found (versions, then tool nouns, then verbs of use)."""
    out: list[str] = []
    seen: set[str] = set()

    def add(raw: str, strong: bool, lower_ok: bool = False) -> None:
        name = _trim(raw)
        if name.lower() in TOOL_NOUNS or name.lower() in NOT_VERSIONED or not _ok(name, strong, lower_ok):
            return
        if name.lower() not in seen:
            seen.add(name.lower())
            out.append(name)
    gate = GATE
    for m in (_VERSION.finditer(text) if not gate or _HAS_VERSION.search(text) else ()):
        words = m.group(1).split()
        if words[-1].lower() in NOT_VERSIONED or _priced(words[-1], m.group(2), text):
            continue
        two = len(words) > 1 and words[0][0].isupper() and words[-1][0].isupper()  # "Visual Studio 17.8"
        add(m.group(1) if two and words[0].lower() not in _ARTICLES else words[-1], True)
    for m in (_NOUN.finditer(text) if not gate or _HAS_NOUN.search(text) else ()):
        words = m.group(1).split()
        # the name is the capitalised or tool-shaped tail before the noun ("the fast Ruff linter")
        tail = []
        for w in reversed(words):
            if _SHAPED.search(w) or not tail and not w.lower() in _ARTICLES:
                tail.insert(0, w)
            else:
                break
        if tail:
            add(" ".join(tail), bool(_SHAPED.search(" ".join(tail))), True)
    for m in (_CUE.finditer(text) if not gate or _HAS_CUE.search(text) else ()):
        words = m.group(2).split()
        name = words[0] if len(words) < 2 or not _SHAPED.search(words[1]) else m.group(2)
        first = _trim(name).split()[:1]
        if first and (first[0].lower().rstrip("s") in CALENDAR or (first[0].islower() and len(name.split()) > 1)):
            continue  # "runs on Mondays", "switched to plan B": the name must start like a tool's
        add(name, False, m.group(1).lower() in ("install", "installed"))
    return out
