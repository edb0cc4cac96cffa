"""Emotional weight of a memory, read from the words it came from, without a model.

    weigh("I finally told my family I'm gay, I was terrified")
    -> Weight(impact=-5, tags=["identity", "vulnerability"])

`impact` is a signed integer in [-10, 10] (EchoVessel's emotional_impact scale: negative for
painful moments, positive for joyful ones, 0 for neutral statements); recall uses its
magnitude, |impact| / 10 (memory/recall.py). `tags` is a subset of TAGS, in this order:

- identity       who the person is: their name, origin, faith, orientation, values, body
- vulnerability  fear, shame, illness, loss, loneliness, a secret
- turning_point  something that changed their life: a move, a new job, a break-up, a birth
- commitment     a promise or resolution ("I promise", "I'm going to start ...")
- correction     the person correcting something said or stored ("actually", "no, it's ...")

The rules: every cue found adds to a valence (positive or negative word lists, with
intensifiers "really", "so", "very", "!" adding weight); the magnitude is 2 per cue plus 2
per tag that is emotionally loaded (vulnerability, turning_point), capped at 10; its sign is
that of the valence (negative when vulnerability is present and valence is even). A plain
fact ("I work at Siemens") weighs 0 with no tags.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

TAGS = ("identity", "vulnerability", "turning_point", "commitment", "correction")

_CUES: dict[str, str] = {
    "identity": r"\bi(?:'m| am) (?:a |an )?(?:gay|lesbian|bi|bisexual|trans|transgender|queer|nonbinary|"
                r"non-binary|christian|muslim|jewish|hindu|buddhist|atheist|immigrant|refugee|adopted|"
                r"autistic|deaf|blind|introvert|extrovert|vegan|vegetarian)\b|"
                r"\bmy (?:name|faith|religion|identity|heritage|culture|pronouns|roots|values)\b|"
                r"\bwho i (?:am|really am)\b|\bi (?:grew up|was born|come from)\b|\bcame out\b|"
                r"\bi (?:identify|believe in)\b|\bmy gender\b",
    "vulnerability": r"\b(?:afraid|scared|terrified|anxious|anxiety|panic|ashamed|shame|embarrass\w*|"
                     r"lonely|alone|depress\w*|cancer|diagnos\w*|sick|illness|hospital|surgery|grief|"
                     r"griev\w*|died|passed away|funeral|miscarr\w*|divorc\w*|abus\w*|trauma\w*|"
                     r"secret|insecure|worthless|struggl\w*|cry|crying|cried|hurt|broke down|"
                     r"never told anyone|hard for me)\b",
    "turning_point": r"\b(?:moved to|moving to|new job|got the job|quit my job|got fired|laid off|"
                     r"retired|graduated|got married|getting married|engaged|proposed|broke up|"
                     r"divorc\w*|pregnant|gave birth|baby was born|adopted|came out|"
                     r"changed my life|life[- ]changing|turning point|for the first time|"
                     r"started (?:my own|a new)|decided to (?:leave|move|quit|start)|sober|"
                     r"passed away|died)\b",
    "commitment": r"\b(?:i promise|i promised|i swear|i(?:'ll| will) make sure|i(?:'m| am) committed|"
                  r"i(?:'ve| have) decided to|i(?:'m| am) going to (?:start|stop|quit)|"
                  r"from now on|no more|i vow|my resolution|i pledged?)\b",
    "correction": r"^(?:no[,.!]|nope|actually|correction|wait[,.]|that's (?:wrong|not right)|not quite)|"
                  r"\b(?:i meant|i didn't mean|i said .{1,40} but|that's not what i|you got (?:it|that) wrong|"
                  r"it's not .{1,40}, it's|not .{1,30}, (?:but|it's)|actually it'?s|to be clear)\b",
}
_RX = {t: re.compile(p, re.IGNORECASE) for t, p in _CUES.items()}
_POS = re.compile(r"\b(?:happy|happiest|glad|joy|joyful|thrilled|excited|proud|grateful|thankful|"
                  r"love|loved|amazing|wonderful|fantastic|delighted|relieved|best day|celebrat\w*|"
                  r"can't wait|blessed|ecstatic|overjoyed)\b", re.IGNORECASE)
_NEG = re.compile(r"\b(?:sad|unhappy|upset|angry|furious|afraid|scared|terrified|worried|anxious|"
                  r"lonely|depress\w*|hurt|awful|terrible|horrible|worst|devastat\w*|heartbroken|"
                  r"miserable|ashamed|guilty|cry|crying|cried|grief|died|passed away|lost|hate|"
                  r"stress\w*|exhausted|frustrat\w*)\b", re.IGNORECASE)
_INTENSE = re.compile(r"\b(?:really|so|very|extremely|incredibly|truly|deeply|completely)\b|!", re.IGNORECASE)


@dataclass
class Weight:
    """`impact` in [-10, 10] (signed), `tags` a subset of TAGS (in TAGS order)."""

    impact: int = 0
    tags: list[str] = field(default_factory=list)


def weigh(*texts: str) -> Weight:
    """The emotional weight of the words in `texts` (a memory and the message it came from):
    see the module docstring for the rules. Empty input weighs 0."""
    text = " ".join(t for t in texts if t).replace("\u2019", "'")
    if not text.strip():
        return Weight()
    tags = [t for t in TAGS if _RX[t].search(text.strip())]
    pos, neg = len(_POS.findall(text)), len(_NEG.findall(text))
    cues = pos + neg
    loaded = sum(1 for t in tags if t in ("vulnerability", "turning_point"))
    if not cues and not loaded and not tags:
        return Weight()
    mag = 2 * cues + 2 * loaded + (1 if tags else 0)
    if cues:
        mag += min(2, len(_INTENSE.findall(text)))
    mag = min(10, mag)
    sign = 1 if pos > neg or (pos == neg and "vulnerability" not in tags) else -1
    return Weight(sign * mag, tags)


def magnitude(impact: float) -> float:
    """|impact| / 10 in [0, 1] (the recall signal; EchoVessel's impact factor)."""
    return min(1.0, abs(float(impact or 0)) / 10.0)
