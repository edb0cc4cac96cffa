"""Turn the bytes of a text file into clean text, whatever its encoding.

Order of attempts (the OS locale is never consulted):

1. byte-order mark: UTF-8 (stripped), UTF-32 LE/BE, UTF-16 LE/BE;
2. data with NUL bytes: the NUL pattern of BOM-less UTF-16/UTF-32 (every 2nd/4th byte NUL for
   mostly-ASCII text); a few stray NULs (< 0.5%) in otherwise normal text are dropped; anything
   else with NULs is refused as binary;
3. strict UTF-8;
4. charset detection (charset-normalizer), preferring cp1252 when it is among the equally good
   candidates (short Western texts are otherwise often labelled cp1250/cp775/mac_*);
5. cp1252, then latin-1.

The text returned never contains U+0000, has no leading BOM, and uses "\\n" newlines only.
"""

from __future__ import annotations

import codecs
import re

from .errors import UndecodableText, UnencodableText

_BOMS: list[tuple[bytes, str]] = [
    # UTF-32 first: its LE BOM starts with the UTF-16 LE BOM.
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
]

# C0 controls that never appear in real text (tab, LF, VT, FF, CR and ESC are allowed).
_BAD_CONTROLS = re.compile(r"[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f]")
_NEWLINES = re.compile(r"\r\n?")

_SAMPLE = 64 * 1024  # bytes examined by the heuristics


def normalize_newlines(text: str) -> str:
    """CRLF and lone CR -> LF."""
    if "\r" not in text:
        return text
    return _NEWLINES.sub("\n", text)


def bom_encoding(data: bytes) -> tuple[str, int] | None:
    """(codec, BOM length) if `data` starts with a byte-order mark."""
    for bom, enc in _BOMS:
        if data.startswith(bom):
            return enc, len(bom)
    return None


def utf16_nul_pattern(data: bytes) -> str | None:
    """Guess BOM-less UTF-16/32 from where the NUL bytes sit ("utf-16-le", ...), else None.

    Mostly-ASCII UTF-16LE text has a NUL in (almost) every odd position and none in even ones;
    UTF-16BE the reverse; UTF-32 has three NULs out of every four bytes.
    """
    sample = data[:_SAMPLE]
    n = len(sample)
    if n < 4:
        return None
    quads = [sample[i::4].count(0) for i in range(4)]
    per_pos = n / 4
    if n >= 8 and quads[1] > 0.9 * per_pos and quads[2] > 0.9 * per_pos and quads[3] > 0.9 * per_pos and quads[0] < 0.1 * per_pos:
        return "utf-32-le"
    if n >= 8 and quads[0] > 0.9 * per_pos and quads[1] > 0.9 * per_pos and quads[2] > 0.9 * per_pos and quads[3] < 0.1 * per_pos:
        return "utf-32-be"
    even = quads[0] + quads[2]
    odd = quads[1] + quads[3]
    half = n / 2
    if odd >= 0.6 * half and even <= 0.05 * half:
        return "utf-16-le"
    if even >= 0.6 * half and odd <= 0.05 * half:
        return "utf-16-be"
    return None


def few_nuls(data: bytes) -> bool:
    """True when NUL bytes are rare stray bytes (under 0.5% of the sample), not a binary format."""
    sample = data[:_SAMPLE]
    return sample.count(0) * 200 < len(sample) and data.count(0) * 200 < len(data)


def _clean(text: str, encoding: str) -> tuple[str, str]:
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\x00" in text:
        raise UndecodableText(f"decoded as {encoding} but contains NUL characters (binary data?)")
    return normalize_newlines(text), encoding


def _control_ratio(text: str) -> float:
    sample = text[:_SAMPLE]
    if not sample:
        return 0.0
    return len(_BAD_CONTROLS.findall(sample)) / len(sample)


def _codec_name(name: str) -> str:
    try:
        return codecs.lookup(name).name
    except LookupError:
        return name


def _detect_legacy(data: bytes) -> tuple[str, str] | None:
    """Best legacy (non-UTF) decoding via charset-normalizer, or None."""
    try:
        from charset_normalizer import from_bytes
    except ImportError:  # pragma: no cover - dependency is declared
        return None
    try:
        results = list(from_bytes(data))
    except Exception:  # detector bugs must not stop parsing
        return None
    if not results:
        return None
    best = min(results, key=lambda r: r.chaos)
    tied = [r for r in results if r.chaos <= best.chaos + 0.02]
    names = {_codec_name(r.encoding): r for r in tied}
    choice = None
    if "cp1252" in names:
        choice = names["cp1252"]
    elif best.coherence >= 0.2:
        choice = best
    else:
        try:
            return data.decode("cp1252"), "cp1252"
        except UnicodeDecodeError:
            choice = best
    enc = _codec_name(choice.encoding)
    if enc.startswith("utf"):
        return None  # strict UTF decoding already failed; don't trust a lenient guess
    try:
        return data.decode(enc), enc
    except (UnicodeDecodeError, LookupError):
        return None


def decode_bytes(data: bytes) -> tuple[str, str]:
    """Decode file bytes to (text, encoding name). Raises UndecodableText for binary data."""
    bom = bom_encoding(data)
    if bom:
        enc, _ = bom
        payload = data[len(codecs.BOM_UTF8):] if enc == "utf-8-sig" else data[bom[1]:]
        if enc.startswith(("utf-16", "utf-32")):
            unit = 4 if enc.startswith("utf-32") else 2
            payload = payload[: len(payload) - len(payload) % unit]  # drop a truncated last unit
        try:
            text = payload.decode("utf-8" if enc == "utf-8-sig" else enc)
        except UnicodeDecodeError as exc:
            if enc != "utf-8-sig":
                raise UndecodableText(f"has a {enc} byte-order mark but is not valid {enc}: {exc.reason}") from None
            # A UTF-8 BOM in front of legacy bytes: fall through to detection without the BOM.
            data = payload
        else:
            return _clean(text, enc)

    if b"\x00" in data:
        enc = utf16_nul_pattern(data)
        if enc is None:
            if not few_nuls(data):
                raise UndecodableText("binary data (NUL bytes), not text")
            data = data.replace(b"\x00", b"")  # a few stray NULs in otherwise normal text
            return decode_bytes(data)
        unit = 4 if enc.startswith("utf-32") else 2
        payload = data[: len(data) - len(data) % unit]
        try:
            text = payload.decode(enc)
        except UnicodeDecodeError:
            raise UndecodableText(f"looks like BOM-less {enc} (NUL byte pattern) but does not decode") from None
        if "\x00" in text or _control_ratio(text) > 0.01:
            raise UndecodableText("binary data (NUL bytes), not text")
        return _clean(text, enc)

    try:
        return _clean(data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError:
        pass

    found = _detect_legacy(data)
    if found is None:
        try:
            found = (data.decode("cp1252"), "cp1252")
        except UnicodeDecodeError:
            found = (data.decode("latin-1"), "latin-1")
    text, enc = found
    if _control_ratio(text) > 0.05:
        raise UndecodableText("binary data (control characters), not text")
    return _clean(text, enc)


def note_text(data: bytes) -> str:
    """The text of a vault note file from its bytes, as `note show`, `note update`, `mark`,
    `rename`, `diff` and export read it, with "\n" newlines: valid UTF-8 without NULs is
    decoded as it is (a UTF-8 byte-order mark stays, so a rewrite keeps it); any other file
    (UTF-16 from Windows Notepad, cp1252, latin-1) is decoded as the index reads it
    (`decode_bytes`), so its characters are never turned into U+FFFD and NULs; bytes that no
    decoding fits (binary data) fall back to UTF-8 with U+FFFD for each bad byte. Never raises."""
    if b"\x00" not in data:
        try:
            return normalize_newlines(data.decode("utf-8"))
        except UnicodeDecodeError:
            pass
    try:
        return decode_bytes(data)[0]
    except UndecodableText:
        return normalize_newlines(data.decode("utf-8", errors="replace"))


def note_encoding(data: bytes) -> tuple[str, bytes]:
    """(codec, leading bytes) to write a note file back in the encoding `data` (its bytes) is
    in: ("utf-8", b"") for UTF-8 (a UTF-8 byte-order mark is part of the text `note_text`
    returns, so it is kept); else the codec the index decodes it with (`decode_bytes`: "utf-16-le",
    "cp1252", ...) and its byte-order mark, when it has one. Raises UndecodableText for
    bytes that no decoding fits (binary data)."""
    if b"\x00" not in data:
        try:
            data.decode("utf-8")
            return "utf-8", b""
        except UnicodeDecodeError:
            pass
    enc = decode_bytes(data)[1]
    bom = bom_encoding(data)
    lead = data[:bom[1]] if bom and bom[0] in (enc, "utf-8-sig") else b""
    return ("utf-8" if enc == "utf-8-sig" else enc), lead


def encode_like(text: str, original: bytes, name: str) -> bytes:
    """`text` (read from the note file `name`, whose bytes were `original`, newlines as that
    file has them) as the bytes to write it back with, in the file's own encoding
    (`note_encoding`): a UTF-16 note from Windows Notepad stays UTF-16 with its byte-order
    mark, a cp1252 note stays cp1252, so the parts of the file not changed keep their bytes.
    Raises UnencodableText (InvalidInput) naming the note, its encoding and the characters it
    cannot hold (a cp1252 note given an emoji), UndecodableText when `original` is binary
    data; the caller writes nothing then."""
    codec, lead = note_encoding(original)
    try:
        return lead + text.encode(codec)
    except UnicodeEncodeError:
        bad = sorted({c for c in text if not _encodes(c, codec)})
        shown = ", ".join(f"{c!r} (U+{ord(c):04X})" for c in bad[:5]) + (" ..." if len(bad) > 5 else "")
        raise UnencodableText(f"{name}: the file is saved as {codec}, which cannot hold {shown}; nothing was "
                              "written (save the note as UTF-8 in your editor first, or leave those characters "
                              "out)") from None


def _encodes(char: str, codec: str) -> bool:
    try:
        char.encode(codec)
        return True
    except UnicodeEncodeError:
        return False


def note_text_to_rewrite(data: bytes) -> str:
    """`note_text` for a note file Cairn is about to write back (note update, mark, rename,
    enrich): the same text, but bytes that no decoding fits raise UndecodableText instead of
    reading as U+FFFD, whose write-back would destroy them (a note file that became binary
    data outside Cairn)."""
    if b"\x00" not in data:
        try:
            return normalize_newlines(data.decode("utf-8"))
        except UnicodeDecodeError:
            pass
    return decode_bytes(data)[0]
