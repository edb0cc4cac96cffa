"""Citation verifier (fail closed).

Input: an answer text with inline citations `[n]` and the numbered evidence it was written from. Each sentence is
checked against the evidence it cites:
- a citation to a number that is not in the evidence is removed;
- a sentence is *supported* by evidence n when, after normalisation, it is a verbatim quote of it, or at least
  `MIN_OVERLAP` of its content terms occur in one evidence sentence (or in the evidence as a whole at a stricter
  `MIN_OVERLAP_CHUNK`) and every number in it occurs in the evidence;
- a sentence with content but no valid citation, or with no supporting citation, is dropped.
Verdict: "pass" (nothing dropped), "revise" (something dropped, something supported left), "abstain" (nothing supported,
or the text could not be parsed into cited sentences).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from cairn.lexical import ABBREV_END, content_terms, normalise, numbers_supported, sentences, term_overlap

MIN_OVERLAP = 0.6
MIN_OVERLAP_CHUNK = 0.8
_CITE_RE = re.compile(r"\s*\[(\d{1,3})\]")


@dataclass
class Evidence:
    """One numbered piece of evidence: the text of a retrieved chunk and where it lives. `offset` is the chunk's start
    offset in its note body (for quote spans)."""

    n: int
    text: str
    offset: int
    hit: object  # cairn.model.Hit


@dataclass
class CheckedSentence:
    """One answer sentence after checking. quote / quote_span: the best-matching sentence of the first evidence that
    supports it and its (start, end) in the note body; spans: the same for every supporting evidence number."""

    text: str
    cites: list[int]
    supported: bool
    reason: str
    quote: str | None = None
    quote_span: tuple[int, int] | None = None
    spans: dict[int, tuple[str | None, tuple[int, int] | None]] = field(default_factory=dict)


@dataclass
class Verification:
    verdict: str  # pass | revise | abstain
    sentences: list[CheckedSentence] = field(default_factory=list)
    dropped_citations: list[int] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def kept(self) -> list[CheckedSentence]:
        return [s for s in self.sentences if s.supported]

    def shown(self) -> dict[int, int]:
        """{evidence n: the n shown}: 1, 2, ... as the answer first cites them (only cited sources are shown: no gaps)."""
        return {n: i + 1 for i, n in enumerate(dict.fromkeys(n for s in self.kept for n in s.cites))}

    def answer_text(self, renumber: bool = False) -> str:
        """The verified answer: supported sentences with their valid citations (renumber: as `shown`)."""
        parts, shown = [], self.shown() if renumber else {}
        for s in self.kept:
            cites = "".join(f"[{shown.get(n, n)}]" for n in s.cites)
            m = re.match(r"^(.*?)([.!?。]+)$", s.text)
            parts.append(f"{m.group(1)} {cites}{m.group(2)}" if m else f"{s.text} {cites}")
        return " ".join(parts).strip()


def split_answer(text: str) -> list[str]:
    """Split an answer into sentences, attaching a citation that follows the full stop ("Foo. [1] Bar.") to the sentence
    before it."""
    text = re.sub(r"\s+", " ", text.strip())
    out: list[str] = []
    for piece in re.split(r"(?<=[.!?。])\s+", text) if text else []:
        if out and ABBREV_END.search(out[-1]):  # "Dr." or an initial ends no sentence (as lexical.sentences)
            out[-1] += " " + piece
            continue
        m = re.match(r"^((?:\[\d{1,3}\]\s*)+)(.*)$", piece)
        if m and out:
            out[-1] = out[-1] + " " + m.group(1).strip()
            piece = m.group(2)
        if piece.strip():
            out.append(piece.strip())
    return out


def _best_support(claim: str, ev: Evidence) -> tuple[float, str | None, tuple[int, int] | None]:
    norm_claim = normalise(claim)
    best = (0.0, None, None)
    for s, e in sentences(ev.text):
        sent = ev.text[s:e]
        if norm_claim and norm_claim in normalise(sent):
            return 1.0, sent, (ev.offset + s, ev.offset + e)
        score = term_overlap(claim, sent)
        if score > best[0]:
            best = (score, sent, (ev.offset + s, ev.offset + e))
    if norm_claim and norm_claim in normalise(ev.text):
        return 1.0, best[1], best[2]
    return best


def verify(answer: str, evidence: list[Evidence]) -> Verification:
    """Check every sentence of `answer` against the evidence it cites (see module doc)."""
    by_n = {e.n: e for e in evidence}
    parts = split_answer(answer)
    result = Verification(verdict="abstain")
    if not parts:
        return Verification(verdict="abstain", problems=["empty answer"])
    for part in parts:
        claim, cites = _CITE_RE.sub("", part).strip(), [int(n) for n in _CITE_RE.findall(part)]
        valid = [n for n in dict.fromkeys(cites) if n in by_n]
        result.dropped_citations.extend(n for n in cites if n not in by_n)
        if not content_terms(claim):
            continue  # connective text ("In short:") carries no claim
        if not valid:
            result.sentences.append(CheckedSentence(claim, [], False, "cites evidence that was not retrieved"
                                                    if cites else "no citation"))
            continue
        spans: dict[int, tuple[str | None, tuple[int, int] | None]] = {}
        for n in valid:
            score, q, sp = _best_support(claim, by_n[n])
            if (score >= MIN_OVERLAP or term_overlap(claim, by_n[n].text) >= MIN_OVERLAP_CHUNK) \
                    and numbers_supported(claim, by_n[n].text):
                spans[n] = (q, sp)
        quote, span = next(iter(spans.values()), (None, None))
        result.sentences.append(CheckedSentence(claim, list(spans), True, "supported", quote, span, spans) if spans
                                else CheckedSentence(claim, valid, False, "not supported by its citations"))
    if not result.sentences:
        return Verification(verdict="abstain", problems=["no sentence makes a claim"])
    kept = result.kept
    if not kept:
        result.problems.append("no sentence is supported by its evidence")
    elif len(kept) == len(result.sentences) and not result.dropped_citations:
        result.verdict = "pass"
    else:
        result.verdict = "revise"
        if dropped := len(result.sentences) - len(kept):
            result.problems.append(f"{dropped} unsupported sentence(s) removed")
        if result.dropped_citations:
            result.problems.append(
                f"citation(s) to evidence not retrieved removed: {sorted(set(result.dropped_citations))}")
    return result


def citations(ver: Verification, evidence: list[Evidence]) -> list[dict[str, Any]]:
    """One citation per cited evidence number, numbered and ordered as shown (`Verification.shown`): the evidence's
    source fields, `start`/`end`/`quote` of the first answer sentence citing it, and `quotes`, a list of {start, end,
    quote} for every answer sentence citing it (in answer order, no repeats)."""
    by_n, shown = {e.n: e for e in evidence}, ver.shown()
    out: dict[int, dict[str, Any]] = {}
    for s in ver.kept:
        for n in s.cites:
            h = by_n[n].hit
            quote, span = s.spans.get(n, (s.quote, s.quote_span))
            start, end = span or (h.start, h.end)
            one = {"start": start, "end": end, "quote": quote or h.snippet}
            if n not in out:
                out[n] = {"n": shown[n], "source_id": h.source_id, "title": h.title, "path": h.path,
                          "source": h.source, "page": h.page, **one, "quotes": [],
                          "chunk_id": h.id, "speaker": h.speaker, "event_time": h.event_time}
            if one not in out[n]["quotes"]:
                out[n]["quotes"].append(one)
    return sorted(out.values(), key=lambda c: c["n"])
