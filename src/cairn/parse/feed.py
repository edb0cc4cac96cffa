"""RSS 2.0 / RSS 1.0 (RDF) / Atom feeds: the feed and its entries as markdown, via lxml.

body = the feed description (if any), then one section per entry: "## <entry title>", a line
with its link, author and date, then its text (content:encoded, else description/summary/
content; HTML converted to visible text with cairn.parse.html). Title = the feed's title
(else the file stem); `created` = the feed's lastBuildDate/updated. Markup that does not
parse as XML raises ParseError.
"""

from __future__ import annotations

import re
from pathlib import PurePath
from typing import Any

from ..model import ParsedDocument
from .errors import EmptyDocument, ParseError
from .html import html_to_text
from .mail import mail_date
from .markdown import to_iso

_FEED_START = re.compile(r"\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--.*?-->\s*)*<(?:rss[\s>]|feed[\s>]|rdf:RDF[\s>])",
                         re.DOTALL)


def looks_like_feed(text: str) -> bool:
    """True when the text starts (after an XML declaration) with <rss>, <feed> or <rdf:RDF>."""
    return bool(_FEED_START.match(text[:4096]))


def _local(tag: Any) -> str:
    return tag.rsplit("}", 1)[-1].split(":")[-1] if isinstance(tag, str) else ""


def _child_text(el: Any, *names: str) -> str:
    """Text of the first child named one of `names` (local names, in order of preference).
    For "link": an RSS <link>text</link> first, else an Atom rel="alternate" href."""
    for name in names:
        hrefs = []
        for child in el:
            if _local(child.tag) != name:
                continue
            text = "".join(child.itertext()).strip()
            if text:
                return text
            if name == "link" and child.get("href") and child.get("rel", "alternate") == "alternate":
                hrefs.append(child.get("href").strip())
        if hrefs:
            return hrefs[0]
    return ""


def _date(value: str) -> str | None:
    if not value:
        return None
    iso = mail_date(value)  # RFC 822 (RSS)
    if iso:
        return iso
    try:
        return to_iso(value)  # ISO 8601 (Atom)
    except (ValueError, OverflowError):
        return None


def _text(value: str) -> str:
    if "<" in value and ">" in value:
        try:
            return html_to_text(value)
        except Exception:
            return re.sub(r"<[^>]+>", " ", value)
    return value.strip()


def parse_feed(data: bytes, name: str) -> ParsedDocument:
    """Parse RSS/Atom XML bytes of the file called `name`. Raises ParseError / EmptyDocument."""
    from lxml import etree

    try:
        parser = etree.XMLParser(resolve_entities=False, no_network=True, recover=False, huge_tree=False)
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise ParseError(f"corrupt RSS/Atom feed (not well-formed XML): {exc}") from None
    top = _local(root.tag)
    channel = root
    if top == "rss":
        channel = next((c for c in root if _local(c.tag) == "channel"), root)
    entries = [el for el in (channel if top != "RDF" else root) if _local(el.tag) in ("item", "entry")]
    if top == "RDF":
        channel = next((c for c in root if _local(c.tag) == "channel"), root)
    title = _child_text(channel, "title")
    parts: list[str] = []
    desc = _text(_child_text(channel, "description", "subtitle"))
    if desc:
        parts.append(desc)
    for entry in entries:
        head = _child_text(entry, "title") or "(untitled entry)"
        info = [v for v in (_child_text(entry, "link"), _child_text(entry, "creator", "author"),
                            _child_text(entry, "pubDate", "published", "updated", "date")) if v]
        body = _text(_child_text(entry, "encoded", "content", "description", "summary"))
        block = f"## {' '.join(head.split())}"
        if info:
            block += "\n\n" + " · ".join(" ".join(v.split()) for v in info)
        if body:
            block += "\n\n" + body
        parts.append(block)
    if not parts:
        raise EmptyDocument("feed has no entries")
    meta: dict[str, Any] = {"entries": len(entries)}
    link = _child_text(channel, "link")
    if link:
        meta["url"] = link
    return ParsedDocument(kind="feed", title=" ".join(title.split()) or PurePath(name).stem,
                         body="\n\n".join(parts).replace("\x00", ""), meta=meta,
                         created=_date(_child_text(channel, "lastBuildDate", "updated", "pubDate")))
