"""Presentation helpers for the web page: markdown to HTML, highlighting, words for codes.

Nothing here decides anything about the person's data; it only turns what the service
returned into HTML-safe text. Every function returns `markupsafe.Markup` (already escaped)
or plain strings that the templates escape.

- `markdown_html(body, mark=(start, end))`: the note body rendered with markdown-it-py
  (CommonMark, raw HTML disabled), `[[wikilinks]]` turned into links to `/notes/open`, and
  the character span `mark` of the body wrapped in `<mark class="cite" id="cite">` (one per
  source line, so a span across paragraphs stays well-formed; inside a fenced code block
  the fence lines are left alone, so the block stays a block). `asset(src)`: the address an
  image the note references from the vault is served at (`![](pic.png)` and Obsidian's
  `![[pic.png]]`); web addresses are left as they are.
- `highlight(text, query)`: `text` escaped, with each query word (case-insensitive, at a
  word start) wrapped in `<mark>`.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

from markupsafe import Markup, escape

from cairn.search.text import query_terms

# Private-use code points mark the cited span in the markdown source; markdown-it keeps
# them as plain text and they are replaced by <mark> tags after rendering.
_OPEN, _CLOSE = "\ue000", "\ue001"
_LINE_PREFIX = re.compile(r"^(?:\s*(?:#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+|\[[ xX]\]\s+))*")
_WIKILINK = re.compile(r"\[\[([^\[\]|#\n]*)(#[^\[\]|\n]*)?(?:\|([^\[\]\n]*))?\]\]")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_IMAGE_SUFFIX = re.compile(r"\.(?:png|jpe?g|gif|webp|svg|avif|bmp)$", re.I)

VERDICT_WORDS = {
    "pass": "answers your question",
    "revise": "quoted from your notes",
    "abstain": "your notes don't say",
}


EVENT_WORDS = {"add": "remembered", "reinforce": "said again (more certain)",
               "supersede": "replaced an older memory", "superseded": "replaced by a newer one",
               "forget": "forgotten"}


def event_words(action: str) -> str:
    """A memory log action ("add", "reinforce", "supersede", "superseded", "forget") in words."""
    return EVENT_WORDS.get(action, action)


def verdict_words(verdict: str, checks: dict | None = None) -> str:
    """The verdict ("pass", "revise", "abstain") in words for a person: "answers your question"
    only when every check held (answer/checks.label), else "quoted from your notes"."""
    from cairn.answer.checks import label
    return label(verdict, checks) if verdict in VERDICT_WORDS else verdict


# The typed decision a reply names for a waiting call (assistant/results.describe: "... waits for
# your approval: /approve ID or /deny ID."): the page has Approve / Deny buttons instead. The same
# pattern is in static/chat.js (TYPED_DECISION) for replies the page streams.
_TYPED_DECISION = re.compile(r": /approve (\S+) or /deny \1\.")


def web_reply(text: str) -> str:
    """An assistant reply as the web page shows it: the typed "/approve ID or /deny ID" of a
    waiting call read as "(Approve or Deny below)"; other text as it is."""
    return _TYPED_DECISION.sub(" (Approve or Deny below).", text or "")


def web_words(text: str) -> str:
    """A service message as a person at the web page reads it: each backquoted `cairn ...`
    command named by the page's place for it ("`cairn ingest PATH`" -> "the Add page"), else
    as a command for the computer that runs Cairn (cairn.interfaces.door_words)."""
    from cairn.interfaces.door_words import WEB, for_door
    return for_door(text, WEB)


def no_bidi(text: str) -> str:
    """A title or snippet without Unicode's bidirectional embeddings, overrides and isolates
    (U+202A-U+202E, U+2066-U+2069; cairn.controls.without_bidi), which would show it in an order
    other than the stored one. Display only: not for an editor's text box."""
    from cairn.controls import without_bidi
    return without_bidi(text) if isinstance(text, str) else text


def _md():
    from markdown_it import MarkdownIt
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable("table")
    md.enable("strikethrough")
    md.inline.ruler.before("link", "wikilink", _wikilink_rule)
    md.inline.ruler.before("image", "wikiembed", _embed_rule)
    return md


def _embed_rule(state, silent: bool) -> bool:
    """markdown-it inline rule: Obsidian's image embed `![[pic.png|alt]]` -> an image."""
    if not state.src.startswith("![[", state.pos):
        return False
    m = _WIKILINK.match(state.src, state.pos + 1)
    if not m or not _IMAGE_SUFFIX.search(m.group(1).strip()):
        return False
    if not silent:
        from markdown_it.token import Token
        tok = state.push("image", "img", 0)
        tok.attrs = {"src": m.group(1).strip(), "alt": ""}
        tok.children = [Token("text", "", 0, content=(m.group(3) or m.group(1)).strip())]
        tok.content = tok.children[0].content
    state.pos = m.end()
    return True


def _wikilink_rule(state, silent: bool) -> bool:
    """markdown-it inline rule: `[[target#anchor|label]]` -> a link to /notes/open?ref=target,
    or, for a target in `state.env["unresolved"]`, a span marked as a missing note."""
    if not state.src.startswith("[[", state.pos):
        return False
    m = _WIKILINK.match(state.src, state.pos)
    if not m:
        return False
    if not silent:
        target, anchor, label = m.group(1).strip(), m.group(2) or "", m.group(3)
        href = f"/notes/open?ref={quote(target)}" if target else anchor
        missing = target and target in state.env.get("unresolved", ())
        tok = state.push("link_open", "a", 1)
        tok.attrs = {"href": href, "class": "wikilink"}
        if missing:  # no such note yet: not a link
            tok.tag, tok.attrs = "span", {"class": "unresolved", "title": "No note has this name yet"}
        text = state.push("text", "", 0)
        text.content = (label or (target + anchor) or anchor.lstrip("#")).strip()
        close = state.push("link_close", "a", -1)
        close.tag = tok.tag
    state.pos = m.end()
    return True


_MD = None


def _wrap_span(body: str, start: int, end: int) -> str:
    """`body` with sentinels around [start, end), per line and after block markers."""
    start, end = max(0, start), min(len(body), end)
    if end <= start:
        return body
    out = [body[:start]]
    seg = body[start:end]
    lines = seg.split("\n")
    fenced = False  # inside a fenced code block where the span starts?
    for before in body[:start].split("\n")[:-1]:
        fenced ^= bool(_FENCE.match(before))
    for i, line in enumerate(lines):
        # a line that starts the source line may carry block syntax (#, >, -, 1.): keep it outside
        at_line_start = i > 0 or start == 0 or body[start - 1] == "\n"
        if at_line_start and _FENCE.match(line):  # a fence line stays as written: the block stays a block
            fenced = not fenced
            out.append(line + ("\n" if i < len(lines) - 1 else ""))
            continue
        pre = _LINE_PREFIX.match(line).group(0) if at_line_start and not fenced else ""
        rest = line[len(pre):]
        core = rest.rstrip()
        out.append(pre + (_OPEN + core + _CLOSE if core.strip() else core) + rest[len(core):])
        if i < len(lines) - 1:
            out.append("\n")
    out.append(body[end:])
    return "".join(out)


def unresolved_targets(links: dict) -> set[str]:
    """The literal targets of a note's unresolved outgoing links (Cairn.links output)."""
    return {lv.target for lv in links.get("outgoing", []) if lv.kind == "unresolved"}


def markdown_html(body: str, mark: tuple[int, int] | None = None, *, title: str | None = None,
                  unresolved: set[str] | frozenset[str] = frozenset(), asset=None) -> Markup:
    """Render a note body (markdown) to safe HTML; `mark`: a character span to highlight;
    `title`: a first `# heading` equal to it is left out (the page shows the title already);
    `unresolved`: wikilink targets shown as missing notes instead of links; `asset(src) ->
    url`: where a local image is served (None: image sources are left as written)."""
    global _MD
    if _MD is None:
        _MD = _md()
    body = body.replace(_OPEN, "").replace(_CLOSE, "")
    if mark:
        body = _wrap_span(body, *mark)
    env = {"unresolved": unresolved}
    tokens = _MD.parse(body, env)
    if asset is not None:
        for tok in tokens:
            for child in tok.children or ():
                src = child.attrGet("src") if child.type == "image" else None
                if src and not re.match(r"^(?:[a-z][a-z0-9+.-]*:|//)", src, re.I):
                    child.attrSet("src", asset(src.replace(_OPEN, "").replace(_CLOSE, "")))
                    child.attrSet("loading", "lazy")
    html = _MD.renderer.render(tokens, _MD.options, env)
    if title:
        first = f"<h1>{escape(title)}</h1>\n"
        if html.startswith(first):
            html = html[len(first):]
    first = [True]

    def open_tag(_m) -> str:
        tag = '<mark class="cite" id="cite" tabindex="-1">' if first[0] else '<mark class="cite">'
        first[0] = False
        return tag

    html = re.sub(_OPEN, open_tag, html).replace(_CLOSE, "</mark>")
    return Markup(html)


_MD_NOISE = ((re.compile(r"(?:^|(?<=\s))#{1,6}\s+"), ""), (re.compile(r"\[\[([^\]|]*)\|([^\]]*)\]\]"), r"\2"),
             (re.compile(r"\[\[([^\]]*)\]\]"), r"\1"), (re.compile(r"\*\*|__"), ""))


def plain(snippet: str) -> str:
    """A search snippet without markdown markup (heading marks, [[links]], bold marks) and
    without bidirectional overrides and isolates (`no_bidi`): shown, never edited."""
    for pat, rep in _MD_NOISE:
        snippet = pat.sub(rep, snippet)
    return no_bidi(snippet)


def highlight(text: str, query: str) -> Markup:
    """`text` HTML-escaped, each word of `query` (prefix match at a word start) in <mark>."""
    terms = sorted({t for t in query_terms(query) if len(t) > 1}, key=len, reverse=True)
    if not terms:
        return Markup(escape(text))
    pat = re.compile(r"\b(" + "|".join(re.escape(t) for t in terms) + r")\w*", re.IGNORECASE)
    parts, last = [], 0
    for m in pat.finditer(text):
        parts.append(escape(text[last:m.start()]))
        parts.append(Markup("<mark>") + escape(m.group(0)) + Markup("</mark>"))
        last = m.end()
    parts.append(escape(text[last:]))
    return Markup("").join(parts)


def basename(path: str | None) -> str:
    """The last part of a file path ("/home/u/uploads/ab12/junk.bin" -> "junk.bin"; either
    separator): which file a report line is about, without the upload folder."""
    return re.split(r"[\\/]", str(path or ""))[-1]


def human_bytes(n: int) -> str:
    """1536 -> "1.5 KB" (powers of 1024)."""
    size = float(n)
    for unit in ("bytes", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{int(size)} {unit}" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} TB"


def short_time(ts: str | None) -> str:
    """An ISO timestamp as "2026-03-01 14:05" (UTC as stored); "" for None."""
    if not ts:
        return ""
    ts = str(ts).replace("T", " ")
    return ts[:16]


_CITE = re.compile(r"\[(\d+)\]")


def cite_href(c: dict[str, Any]) -> str:
    """The note page URL that opens a citation's passage highlighted (fragment #cite)."""
    q = f"/notes/open?ref={quote(c.get('path') or '')}&start={int(c.get('start') or 0)}&end={int(c.get('end') or 0)}"
    if c.get("page"):
        q += f"&page={int(c['page'])}"
    return q + "#cite"


def answer_html(text: str, citations: list[dict[str, Any]]) -> Markup:
    """The answer text escaped, each `[n]` turned into a link to citation n's passage."""
    by_n = {int(c["n"]): c for c in citations}
    parts, last = [], 0
    for m in _CITE.finditer(text):
        n = int(m.group(1))
        parts.append(escape(text[last:m.start()]))
        if n in by_n:
            c = by_n[n]
            parts.append(Markup('<a class="citeref" href="{}" aria-label="source {}: {}">[{}]</a>').format(
                cite_href(c), n, c.get("title") or c.get("path"), n))
        else:
            parts.append(escape(m.group(0)))
        last = m.end()
    parts.append(escape(text[last:]))
    return Markup("").join(parts)


def group_hits(hits: list) -> list[dict[str, Any]]:
    """Search hits (best first, several passages per note possible) grouped by note in the
    order of each note's best hit: [{"note_id", "title", "path", "type", "event_time",
    "score", "hits": [Hit, ...]}]."""
    groups: dict[str, dict[str, Any]] = {}
    for h in hits:
        g = groups.get(h.note_id)
        if g is None:
            g = groups[h.note_id] = {"note_id": h.note_id, "title": h.title, "path": h.path,
                                     "type": h.type, "event_time": h.event_time,
                                     "source": h.source, "score": h.score, "hits": []}
        g["hits"].append(h)
    return list(groups.values())
