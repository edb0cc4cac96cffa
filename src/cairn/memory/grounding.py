"""Grounding check: is an extracted fact supported by the words of its source messages?

Small local models write fluent but invented facts (when the extraction model was chosen,
only 16 of 40 names extracted by SmolLM2-135M occurred in the text). A fact is kept only if

1. every name in it (a capitalised word, or the subject; a sentence's first word only if it
   is not a common word)
   occurs in the source messages or is one of their speakers, and
2. at least `min_overlap` (default 2/3) of its content words (3+ letters, not stop words)
   occur in the source messages, comparing words by their first five letters so that
   "painted"/"painting" and "researching"/"research" match, and at least one does.

Pronoun-to-name rewriting by the rule extractor keeps facts grounded by construction; the
check matters for LLM output.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_WORD = re.compile(r"[A-Za-z][A-Za-z'\-]*|\d+")
STOPWORDS = frozenset("""
a about above after again against all also am an and any are aren't as at be because been before
being below between both but by can can't cannot could couldn't did didn't do does doesn't doing
don't down during each few for from further had hadn't has hasn't have haven't having he he'd
he'll he's her here here's hers herself him himself his how how's i i'd i'll i'm i've if in into
is isn't it it's its itself let's me more most mustn't my myself no nor not of off on once only
or other ought our ours ourselves out over own same shan't she she'd she'll she's should
shouldn't so some such than that that's the their theirs them themselves then there there's
these they they'd they'll they're they've this those through to too under until up very was
wasn't we we'd we'll we're we've were weren't what what's when when's where where's which while
who who's whom why why's with won't would wouldn't you you'd you'll you're you've your yours
yourself yourselves really just like get got getting go going gonna wanna lot lots thing things
something anything much many also still even well yeah yes wow oh hey hi thanks thank one ones
user speaker person people themself
""".split())


_SENTENCE_STARTERS = frozenset("""yesterday today tomorrow last next every sometimes recently finally
lately later now then once maybe perhaps apparently anyway besides also although though since
while after before during""".split())


def words(text: str) -> list[str]:
    """Lower-cased word tokens of `text` (letters, apostrophes, hyphens; or digit runs)."""
    return [w.lower().strip("'-") for w in _WORD.findall(text)]


def _key(word: str) -> str:
    word = word.lower()
    if word.endswith("'s"):
        word = word[:-2]
    return word[:5]


def content_words(text: str) -> list[str]:
    """Words of 3+ letters that are not stop words (order kept, duplicates removed)."""
    out: list[str] = []
    for w in words(text):
        if w.endswith("'s"):
            w = w[:-2]
        if len(w) >= 3 and w not in STOPWORDS and w not in out:
            out.append(w)
    return out


def names_in(text: str) -> list[str]:
    """Capitalised words, except "I" and a sentence's first word when that is a common word
    ("The", "She", "Yesterday"...): "Caroline painted a lake" -> ["Caroline"]."""
    out: list[str] = []
    for sent in re.split(r"(?<=[.!?])\s+", text.strip()):
        toks = _WORD.findall(sent)
        for i, tok in enumerate(toks):
            base = tok[:-2] if tok.endswith("'s") else tok
            if not base[:1].isupper() or base in ("I", "I'm", "I've", "I'll", "I'd"):
                continue
            if i == 0 and (base.lower() in STOPWORDS or base.lower() in _SENTENCE_STARTERS):
                continue
            if base not in out:
                out.append(base)
    return out


@dataclass
class Grounding:
    """Verdict for one fact: `ok`, the names and content words not found (`missing_*`),
    and the overlap fraction of content words."""

    ok: bool
    overlap: float
    missing_names: list[str] = field(default_factory=list)
    missing_words: list[str] = field(default_factory=list)

    def reason(self) -> str:
        parts = []
        if self.missing_names:
            parts.append("names not in source: " + ", ".join(self.missing_names))
        if self.missing_words or self.overlap == 0:
            parts.append(f"content-word overlap {self.overlap:.2f}"
                         + (" (missing " + ", ".join(self.missing_words[:5]) + ")" if self.missing_words else ""))
        return "; ".join(parts) or "grounded"


def check(fact: str, subject: str, sources: list[str], speakers: list[str],
          min_overlap: float = 2 / 3) -> Grounding:
    """Check `fact` (about `subject`) against the texts of its source messages `sources`
    and the names of their `speakers`. Returns a Grounding (see module docstring)."""
    source_text = " ".join(sources)
    speaker_keys = {_key(w) for s in speakers for w in words(s)}
    vocab = {_key(w) for w in words(source_text)} | speaker_keys
    lowered_source = (source_text + " " + " ".join(speakers)).lower()
    missing_names = []
    for name in ([subject] if subject else []) + names_in(fact):
        if name.lower() not in lowered_source and not all(_key(w) in vocab for w in words(name)):
            missing_names.append(name)
    cws = [w for w in content_words(fact) if _key(w) not in speaker_keys]
    found = [w for w in cws if _key(w) in vocab]
    overlap = len(found) / len(cws) if cws else 0.0
    missing_words = [w for w in cws if _key(w) not in vocab]
    ok = not missing_names and bool(found) and overlap >= min_overlap
    return Grounding(ok, overlap, missing_names, missing_words)
