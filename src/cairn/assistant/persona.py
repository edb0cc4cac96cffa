"""The persona (EchoVessel V25): who the assistant speaks as — a name, a tone and a few style
rules, kept in `[persona]` of config.toml and put in every system prompt (`persona_text`), with
one voice per persona for spoken replies (assistant/voice.py: `[voice] voices` "NAME=MODEL").

`distill(app, sources, ...)` reads the material the person points at — notes (title, alias,
path or id) and folders (their .md and .txt files, never through a link that leads out:
paths.escape_reason) — and proposes a tone and style rules:
- offline (the default, `extractive_style`): measured from the text itself — mean sentence
  length (under SHORT words: "keep sentences short"; over LONG: longer sentences are fine),
  contractions per sentence (over CONTRACTED: informal, "use contractions"; none in long
  sentences: formal, "avoid contractions"), exclamations and questions per sentence (over
  EXCLAIM / ASK), emoji, bullet lines, and a greeting (the first word of a short first line)
  or a sign-off line that opens or closes at least two of the texts (quoted exactly); fewer
  than MIN_SENTENCES sentences: nothing is measured;
- with a model (`llm`), the model reads excerpts and answers {"tone", "rules"} (JSON-schema
  constrained, bounded); a failing or malformed answer falls back to the offline reading,
  with the reason.
`save(home, persona)` writes `[persona]` into config.toml (other lines kept; the old file is
put back when the result would not load). Errors: NotFound (a source that names nothing),
InvalidInput (no text in the sources, a config that cannot be written).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

SHORT, LONG = 12.0, 22.0        # words per sentence
CONTRACTED = 0.25               # contractions per sentence
EXCLAIM, ASK = 0.12, 0.15       # share of sentences
MAX_CHARS = 60_000              # source text read at most
MIN_SENTENCES = 3               # fewer: nothing is measured
MAX_RULES = 6
SCHEMA = {"type": "object", "additionalProperties": False, "required": ["tone", "rules"],
          "properties": {"tone": {"type": "string", "maxLength": 80},
                         "rules": {"type": "array", "maxItems": MAX_RULES,
                                   "items": {"type": "string", "maxLength": 160}}}}
_SENT = re.compile(r"[^.!?\n]+[.!?]*")
_CONTRACTION = re.compile(r"\b\w+'(?:m|re|s|ve|ll|d|t)\b", re.I)
_EMOJI = re.compile("[\U0001F300-\U0001FAFF\u2600-\u27BF]")


@dataclass
class Persona:
    """A persona: `name`, `tone`, `rules` (sentences), `sources` it came from, `method`
    ("extractive" | "llm:SPEC") and `reason` (why a model was not used, when it was not)."""

    name: str
    tone: str = ""
    rules: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    method: str = "extractive"
    reason: str | None = None

    def to_json(self) -> dict:
        return {"name": self.name, "tone": self.tone, "rules": self.rules, "sources": self.sources,
                "method": self.method, "reason": self.reason}


def persona_text(settings) -> str:
    """The system prompt's persona lines from `[persona]` ("" when no name, tone or rule is set)."""
    p = settings.persona
    if not (p.name.strip() or p.tone.strip() or p.rules):
        return ""
    lines = [f"You are {p.name.strip()}, the person's assistant." if p.name.strip() else "About your manner:"]
    if p.tone.strip():
        lines.append(f"Your tone: {p.tone.strip()}.".replace("..", "."))
    lines += [f"- {r.strip()}" for r in p.rules if r.strip()]
    lines.append("These shape how you write, never what is true: the rules above still decide what you may do.")
    return "\n".join(lines)


def gather(app, sources: list[str]) -> list[str]:
    """The texts of `sources` (see module docstring), in order, MAX_CHARS in all at most."""
    from cairn.errors import NotFound
    from cairn.paths import escape_reason
    from cairn.errors import InvalidInput
    texts: list[str] = []
    for src in sources:
        folder = Path(src).expanduser()
        if not folder.is_absolute():
            folder = Path(app.settings.home) / folder
        if folder.is_dir():
            for f in sorted(folder.rglob("*")):
                room = MAX_CHARS - sum(map(len, texts))
                if room <= 0:
                    break  # enough text: a huge file (or the rest of the folder) is not read
                if f.suffix.lower() in (".md", ".txt") and f.is_file() and escape_reason(folder, f) is None:
                    try:
                        with open(f, encoding="utf-8", errors="replace") as fh:
                            texts.append(fh.read(room))
                    except OSError as exc:
                        raise InvalidInput(f"persona source {f}: cannot be read ({exc})") from None
            continue
        try:
            texts.append(app.note_show(src)["body"])
        except (NotFound, ValueError) as exc:
            raise NotFound(f"persona source {src!r} is neither a folder nor a note ({exc})") from None
    out, size = [], 0
    for t in texts:
        if size >= MAX_CHARS:
            break
        out.append(t[:MAX_CHARS - size])
        size += len(out[-1])
    return out


def _edge_line(texts: list[str], last: bool) -> str | None:
    """A short greeting (first line) or sign-off (last line) shared by at least two texts."""
    lines = []
    for t in texts:
        rows = [r.strip() for r in t.strip().splitlines() if r.strip() and not r.startswith("---")]
        if rows:
            line = rows[-1] if last else rows[0]
            if len(line) <= 30:  # a greeting by its first word ("Hey Sam," and "Hey Jo," open with "Hey")
                lines.append(line if last else re.split(r"[\s,!]", line)[0].strip())
    common = Counter(lines).most_common(1)
    return common[0][0] if common and common[0][1] >= 2 else None


def extractive_style(texts: list[str]) -> tuple[str, list[str]]:
    """(tone, rules) measured from `texts` (see the module docstring for the measures)."""
    body = "\n".join(texts)
    sents = [s.strip() for s in _SENT.findall(body) if len(s.split()) >= 2]
    if len(sents) < MIN_SENTENCES:  # too little text to measure a manner
        return "plain and friendly", []
    words = sum(len(s.split()) for s in sents) / len(sents)
    contracted = len(_CONTRACTION.findall(body)) / len(sents)
    exclaim = sum(s.endswith("!") for s in sents) / len(sents)
    asks = sum(s.endswith("?") for s in sents) / len(sents)
    tone, rules = [], []
    if contracted >= CONTRACTED:
        tone.append("informal")
        rules.append("Use contractions (I'm, don't, it's).")
    elif contracted == 0 and words >= SHORT:
        tone.append("formal")
        rules.append("Avoid contractions.")
    if words < SHORT:
        tone.append("brief")
        rules.append(f"Keep sentences short (about {round(words)} words).")
    elif words > LONG:
        rules.append(f"Longer, flowing sentences are fine (about {round(words)} words).")
    if exclaim >= EXCLAIM:
        tone.append("enthusiastic")
        rules.append("An exclamation mark now and then is fine.")
    if asks >= ASK:
        tone.append("curious")
        rules.append("Ask a question back now and then.")
    if _EMOJI.search(body):
        rules.append("Use an emoji occasionally.")
    lines = [ln for ln in body.splitlines() if ln.strip()]
    if lines and sum(ln.lstrip().startswith(("- ", "* ")) for ln in lines) / len(lines) >= 0.2:
        rules.append("Use short bullet lists for several items.")
    for last, verb in ((False, "Open with"), (True, "Sign off with")):
        line = _edge_line(texts, last)
        if line:
            rules.append(f"{verb} \"{line}\".")
    return ", ".join(tone) or "plain and friendly", rules[:MAX_RULES]


def _model_style(llm, texts: list[str]) -> tuple[str, list[str]]:
    sample = "\n\n---\n\n".join(t[:1500] for t in texts)[:6000]
    raw = llm.chat([{"role": "system", "content": "You describe writing styles. Answer with JSON only."},
                    {"role": "user", "content": "Here is writing by the person whose manner the assistant should "
                     f"take on:\n\n{sample}\n\nDescribe its tone in a few words and give up to {MAX_RULES} "
                     "short style rules (how to write like this; not facts about the person)."}],
                   max_tokens=300, json_schema=SCHEMA)
    data = json.loads(raw)
    tone = str(data.get("tone") or "").strip()[:80]
    rules = [str(r).strip()[:160] for r in (data.get("rules") or []) if str(r).strip()][:MAX_RULES]
    if not tone or not rules:
        raise ValueError("the model gave no tone or no rules")
    return tone, rules


def distill(app, sources: list[str], *, name: str | None = None, llm: str | None = None) -> Persona:
    """A Persona distilled from `sources` (see the module docstring); `name` (default the
    current `[persona] name`, else "Cairn"); `llm`: a model spec (None/"none": offline).
    Raises NotFound for a source naming nothing, InvalidInput when they hold no text."""
    from cairn.errors import InvalidInput
    from cairn.llm import get_llm
    texts = [t for t in gather(app, sources) if t.strip()]
    if not texts:
        raise InvalidInput("the persona sources hold no text to learn a manner from")
    who = (name or app.settings.persona.name or "Cairn").strip()
    out = Persona(who, sources=list(sources))
    model = None
    if llm and llm.strip().lower() != "none":
        try:
            model = get_llm(llm)
        except ValueError as exc:
            raise InvalidInput(str(exc)) from None
    if model is not None:
        try:
            out.tone, out.rules = _model_style(model, texts)
            out.method = f"llm:{llm}"
            return out
        except Exception as exc:  # a model failure never leaves the person without a persona
            out.reason = f"the model failed ({exc}); the manner was measured from the text instead"
    out.tone, out.rules = extractive_style(texts)
    return out


def save(home, persona: Persona) -> Path:
    """Write `persona` as `[persona]` of `home`/config.toml (every other line kept); returns
    the path. InvalidInput when it cannot be written or would not load (the old file stays)."""
    from cairn.assistant.choose import replace_config, with_keys
    from cairn.config import ConfigError, load_settings
    from cairn.errors import InvalidInput
    path = Path(home) / "config.toml"
    old = path.read_text(encoding="utf-8") if path.is_file() else ""
    new = with_keys(old, "persona", {"name": persona.name, "tone": persona.tone, "rules": persona.rules,
                                     "sources": persona.sources})
    try:
        replace_config(path, new, "config.toml.persona")
        load_settings(home)
    except (OSError, ConfigError) as exc:
        path.write_text(old, encoding="utf-8")
        raise InvalidInput(f"the persona was not saved: {exc}") from None
    return path
