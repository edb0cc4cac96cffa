"""HTML pages: main text (markdown-ish) without navigation chrome or hidden text.

Steps: decode (BOM, UTF-8, declared `<meta charset>`, then detection); parse with lxml; drop
elements hidden from readers (`hidden` attribute, inline `display:none`, `visibility:hidden`,
`font-size:0`, `opacity:0`, `<template>`) so text a visitor never sees cannot reach the index
(prompt-injection hygiene; a warning says how many elements with text were dropped; CSS in
stylesheets and classes is not evaluated); drop `<nav>`, `<aside>`, navigation/banner roles
and page-level `<footer>`; then trafilatura extracts the main content as markdown, with
title/author/date from the page metadata. When trafilatura finds nothing, a plain text
extraction of the cleaned page is used instead (with a warning).
"""

from __future__ import annotations

import re
from pathlib import PurePath
from typing import Any

from ..model import ParsedDocument
from .errors import EmptyDocument, ParseError, describe
from .markdown import to_iso
from .text import bom_encoding, decode_bytes, normalize_newlines

_META_CHARSET = re.compile(
    rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE
)
_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)
_HIDDEN_STYLE = re.compile(
    r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse)|font-size\s*:\s*0(?:\.0*)?(?:px|pt|em|rem|%)?\s*(?:!important)?\s*(?:;|$)|opacity\s*:\s*0(?:\.0*)?\s*(?:!important)?\s*(?:;|$))",
    re.IGNORECASE,
)
_CHROME_ROLES = {"navigation", "banner", "contentinfo", "search", "complementary"}
_BLOCK_TAGS = {
    "address", "article", "aside", "blockquote", "br", "dd", "details", "div", "dl", "dt",
    "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6",
    "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table",
    "tbody", "td", "tfoot", "th", "thead", "tr", "ul", "title",
}
_SKIP_TAGS = {"script", "style", "noscript", "template", "head", "svg", "iframe", "object", "canvas"}


def decode_html(data: bytes) -> tuple[str, str]:
    """HTML bytes -> (text, encoding), honouring a BOM, UTF-8, then a declared charset."""
    if bom_encoding(data):
        return decode_bytes(data)
    try:
        return normalize_newlines(data.decode("utf-8")).replace("\x00", ""), "utf-8"
    except UnicodeDecodeError:
        pass
    m = _META_CHARSET.search(data[:8192])
    if m:
        import codecs

        try:
            enc = codecs.lookup(m.group(1).decode("ascii")).name
        except (LookupError, UnicodeDecodeError):
            enc = None
        if enc and not enc.startswith("utf-16"):
            if enc == "latin-1" or enc == "iso8859-1":
                enc = "cp1252"  # what browsers do for a latin-1 label
            text = data.decode(enc, errors="replace")
            return normalize_newlines(text).replace("\x00", ""), enc
    return decode_bytes(data)


def _is_hidden(el: Any) -> bool:
    if el.get("hidden") is not None:
        return True
    style = el.get("style")
    if style and _HIDDEN_STYLE.search(style):
        return True
    return el.tag == "template"


def _has_text(el: Any) -> bool:
    try:
        return bool("".join(el.itertext()).strip())
    except Exception:
        return False


def _drop(el: Any) -> None:
    """Remove `el` but keep the text that follows it (its tail)."""
    try:
        el.drop_tree()
    except Exception:
        parent = el.getparent()
        if parent is not None:
            parent.remove(el)


def clean_tree(root: Any) -> tuple[int, int]:
    """Drop hidden elements and navigation chrome in place. Returns (hidden with text, chrome)."""
    hidden_with_text = 0
    to_drop = []
    for el in root.iter():
        if not isinstance(el.tag, str) or el is root or el.tag in ("html", "body", "head"):
            continue
        if _is_hidden(el):
            to_drop.append(el)
    # drop outermost first; inner ones go with them
    dropped: set[int] = set()
    for el in to_drop:
        if any(id(a) in dropped for a in el.iterancestors()):
            continue
        if _has_text(el):
            hidden_with_text += 1
        dropped.add(id(el))
        _drop(el)

    chrome = []
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        role = (el.get("role") or "").strip().lower()
        if el.tag in ("nav", "aside") or role in _CHROME_ROLES:
            chrome.append(el)
        elif el.tag in ("footer", "header") and not any(a.tag in ("article", "main") for a in el.iterancestors()):
            # page-level header/footer; a header holding the page's <h1> is kept
            if el.tag == "header" and el.find(".//h1") is not None:
                continue
            chrome.append(el)
    n_chrome = 0
    gone: set[int] = set()
    for el in chrome:
        if any(id(a) in gone for a in el.iterancestors()):
            continue
        gone.add(id(el))
        _drop(el)
        n_chrome += 1
    return hidden_with_text, n_chrome


def plain_text(root: Any) -> str:
    """Visible text of a (cleaned) tree, one block element per paragraph."""
    parts: list[str] = []

    def walk(el: Any) -> None:
        tag = el.tag if isinstance(el.tag, str) else ""
        if tag in _SKIP_TAGS or not isinstance(el.tag, str):
            if el.tail:
                parts.append(el.tail)
            return
        block = tag in _BLOCK_TAGS
        if block:
            parts.append("\n\n")
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            parts.append("#" * int(tag[1]) + " ")
        elif tag == "li":
            parts.append("- ")
        if el.text:
            parts.append(el.text)
        for child in el:
            walk(child)
        if block:
            parts.append("\n\n")
        if el.tail:
            parts.append(el.tail)

    body = root.find("body")
    walk(body if body is not None else root)
    text = "".join(parts)
    text = re.sub(r"[ \t\r\f\v]+", " ", text)
    text = re.sub(r" *\n *", "\n", text)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip()


def html_to_text(html: str | bytes) -> str:
    """Visible text of an HTML fragment or document (hidden elements and chrome dropped by
    `clean_tree`, then `plain_text`); "" for blank input. lxml errors propagate."""
    import lxml.html

    if not html.strip():
        return ""
    root = lxml.html.document_fromstring(html)
    clean_tree(root)
    return plain_text(root)


def parse_html(data: bytes | str, name: str) -> ParsedDocument:
    """Parse an HTML page (bytes or already decoded text) called `name`."""
    import lxml.html
    from lxml import etree

    if isinstance(data, bytes):
        text, encoding = decode_html(data)
    else:
        text, encoding = normalize_newlines(data).replace("\x00", ""), None
    text = _XML_DECL.sub("", text, count=1)
    if not text.strip():
        raise EmptyDocument("empty file")
    try:
        root = lxml.html.document_fromstring(text)
    except (etree.ParserError, ValueError) as exc:
        raise ParseError(f"unreadable HTML: {exc}") from None

    warnings: list[str] = []
    hidden, _chrome = clean_tree(root)
    if hidden:
        warnings.append(
            f"html: dropped {hidden} hidden element(s) with text (hidden attribute / display:none / "
            "visibility:hidden / zero size or opacity); hidden text is not indexed"
        )
    cleaned = lxml.html.tostring(root, encoding="unicode")

    import trafilatura

    body = None
    try:
        body = trafilatura.extract(
            cleaned,
            output_format="markdown",
            include_tables=True,
            include_comments=False,
            include_links=False,
            include_images=False,
            with_metadata=False,
            deduplicate=False,
        )
    except Exception as exc:  # trafilatura bugs must not stop the import
        warnings.append(f"html: main-content extraction failed ({describe(exc)}); used the page's plain text")
    if not body or not body.strip():
        if not any("extraction failed" in w for w in warnings):
            warnings.append("html: main-content extraction found nothing; used the page's plain text")
        body = plain_text(root)
    body = normalize_newlines(body).replace("\x00", "").strip() + "\n"

    meta: dict[str, Any] = {}
    try:
        md = trafilatura.extract_metadata(cleaned)
    except Exception:
        md = None
    if md is not None:
        for key in ("title", "author", "date", "sitename", "description", "url", "hostname"):
            value = getattr(md, key, None)
            if isinstance(value, str) and value.strip():
                meta[key] = value.strip()
    title = meta.get("title") or ""
    if not title:
        node = root.find(".//title")
        title = (node.text_content().strip() if node is not None else "") or ""
    if not title:
        node = root.find(".//h1")
        title = (node.text_content().strip() if node is not None else "") or ""
    title = re.sub(r"\s+", " ", title) or PurePath(name).stem or name

    if not body.strip():
        raise EmptyDocument("no visible text in the HTML page")

    created = None
    if meta.get("date"):
        try:
            created = to_iso(meta["date"])
        except ValueError:
            created = None

    return ParsedDocument(
        kind="html",
        title=title,
        body=body,
        meta=meta,
        created=created,
        warnings=warnings,
        encoding=encoding,
    )
