"""A small pure-Python BERT (uncased) WordPiece tokenizer for short plain-ASCII texts.

Why: loading the `tokenizers` library and parsing the model's tokenizer.json costs ~45-60 ms
of CPU (import ~20 ms, `Tokenizer.from_file` ~25-40 ms) that every cold `cairn search`
paid to tokenize one query; reading the vocabulary as a list of lines costs ~3-10 ms
(measured on the shared 2-core machine). It implements exactly what the model's
tokenizer.json configures (BertNormalizer lowercase, BertPreTokenizer, WordPiece with
`##` continuation, max 100 characters per word, [CLS] ... [SEP]) for the texts it accepts,
and `encode` returns None for any other text so the caller uses `tokenizers`:
non-ASCII characters (accents, CJK, Unicode case rules), a `[` (the special tokens
[CLS], [MASK]... are matched in the raw text), or more word pieces than fit. Tests check
that it gives the same ids as `tokenizers` on thousands of texts.
"""

from __future__ import annotations

import json
from pathlib import Path

# BertPreTokenizer: whitespace splits, and every ASCII punctuation character is a word of its own.
_PUNCT = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
# BertNormalizer(clean_text): \t \n \r become spaces; other control characters are dropped.
_DROP = {c: None for c in [*range(0, 9), 11, 12, *range(14, 32), 127]}
_SPACE = {9: 32, 10: 32, 13: 32}
MAX_WORD_CHARS = 100  # the model's WordPiece max_input_chars_per_word: a longer word is [UNK]
VOCAB_FILE = "vocab.txt"


class WordPiece:
    """`WordPiece(vocab)`: vocab maps token -> id (must hold [CLS], [SEP], [UNK]).
    `encode(text, max_length)` -> list of ids with [CLS]/[SEP], or None (see the module)."""

    def __init__(self, vocab: dict[str, int]) -> None:
        self.vocab = vocab
        self.cls, self.sep, self.unk = vocab["[CLS]"], vocab["[SEP]"], vocab["[UNK]"]

    @classmethod
    def from_model_dir(cls, model_dir: Path) -> "WordPiece | None":
        """From `vocab.txt` (one token per line, line number = id) beside the model, written
        from tokenizer.json the first time (None when neither can be read, or the
        tokenizer is not an uncased BERT WordPiece one: the caller then uses `tokenizers`)."""
        path = Path(model_dir) / VOCAB_FILE
        try:
            words = path.read_text(encoding="utf-8").split("\n")
        except OSError:
            words = _write_vocab(Path(model_dir))
            if words is None:
                return None
        vocab = dict(zip(words, range(len(words))))
        vocab.pop("", None)
        try:
            return cls(vocab)
        except KeyError:
            return None

    def encode(self, text: str, max_length: int = 256) -> list[int] | None:
        """Ids of [CLS] + word pieces + [SEP], or None when the text is not plain ASCII,
        contains `[`, or has more than max_length - 2 word pieces (no truncation here)."""
        if not text.isascii() or "[" in text:
            return None
        text = text.translate(_DROP).translate(_SPACE).lower()
        ids = [self.cls]
        limit = max_length - 1
        for chunk in text.split():
            word = []
            for ch in chunk:
                if ch in _PUNCT:
                    if word:
                        self._piece("".join(word), ids)
                        word = []
                    ids.append(self.vocab.get(ch, self.unk))
                else:
                    word.append(ch)
            if word:
                self._piece("".join(word), ids)
            if len(ids) > limit:
                return None
        ids.append(self.sep)
        return ids

    def _piece(self, word: str, out: list[int]) -> None:
        """Greedy longest-match-first WordPiece of one word, appended to out ([UNK] when
        any part has no piece, or the word is longer than MAX_WORD_CHARS)."""
        if len(word) > MAX_WORD_CHARS:
            out.append(self.unk)
            return
        pieces: list[int] = []
        start, n = 0, len(word)
        vocab = self.vocab
        while start < n:
            end = n
            found = None
            while start < end:
                sub = word[start:end] if start == 0 else "##" + word[start:end]
                found = vocab.get(sub)
                if found is not None:
                    break
                end -= 1
            if found is None:
                out.append(self.unk)
                return
            pieces.append(found)
            start = end
        out.extend(pieces)


def _write_vocab(model_dir: Path) -> list[str] | None:
    """The vocabulary of tokenizer.json in id order, saved as vocab.txt (atomically; skipped
    when the folder is not writable). None when tokenizer.json is not what this module
    implements: an uncased BERT WordPiece tokenizer with a [CLS] $A [SEP] template."""
    try:
        spec = json.loads((model_dir / "tokenizer.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    model, norm = spec.get("model") or {}, spec.get("normalizer") or {}
    pre = spec.get("pre_tokenizer") or {}
    single = [next(iter(part.values())) for part in (spec.get("post_processor") or {}).get("single") or []]
    if ([(p.get("id"), p.get("type_id")) for p in single] != [("[CLS]", 0), ("A", 0), ("[SEP]", 0)]
            or model.get("type") != "WordPiece" or model.get("continuing_subword_prefix") != "##"
            or model.get("max_input_chars_per_word") != MAX_WORD_CHARS or norm.get("strip_accents") not in (None, True)
            or norm.get("type") != "BertNormalizer" or not norm.get("lowercase") or not norm.get("clean_text")
            or pre.get("type") != "BertPreTokenizer"):
        return None
    vocab = model.get("vocab") or {}
    words = [""] * len(vocab)
    for word, i in vocab.items():
        if not (0 <= i < len(words)) or "\n" in word:
            return None
        words[i] = word
    tmp = model_dir / f".{VOCAB_FILE}.tmp"
    try:
        tmp.write_text("\n".join(words), encoding="utf-8")
        tmp.replace(model_dir / VOCAB_FILE)
    except OSError:
        pass
    return words


_VOCABS: dict[str, dict[str, int]] = {}  # model folder -> {word piece: id}


def vocabulary(model_dir: Path | str) -> dict[str, int]:
    """The word-piece vocabulary ({piece: id}) of the model in `model_dir`, read once per
    folder and process (WordPiece.from_model_dir); {} when there is none (an unreadable
    folder, another kind of tokenizer). BERT's vocabulary lists whole words roughly by their
    frequency in its training text, so an id also ranks how common a word is."""
    key = str(model_dir)
    if key not in _VOCABS:
        try:
            wp = WordPiece.from_model_dir(Path(model_dir))
            _VOCABS[key] = dict(wp.vocab) if wp else {}
        except Exception:  # noqa: BLE001 - an unreadable folder: no vocabulary
            _VOCABS[key] = {}
    return _VOCABS[key]

