"""The built-in parsers, registered through the `register_parsers` hook like any plugin's.

Each entry is `parse(data: bytes, name: str, **options) -> ParsedDocument` for one kind that
`detect.detect_kind` returns; a format's library is imported on the first file of that
format. options (from parse_file): ocr, asr, max_ocr_pages, dendron.
"""

from __future__ import annotations

from importlib import import_module

from cairn.hookspecs import hookimpl

# kind -> (module of cairn.parse, function(data, name) -> ParsedDocument)
_BYTES_PARSERS: dict[str, tuple[str, str]] = {
    "docx": ("docx", "parse_docx"),
    "pptx": ("office", "parse_pptx"),
    "xlsx": ("office", "parse_xlsx"),
    "epub": ("ebook", "parse_epub"),
    "rtf": ("rtf", "parse_rtf"),
    "eml": ("mail", "parse_eml"),
    "msg": ("mail", "parse_msg"),
    "feed": ("feed", "parse_feed"),
    "html": ("html", "parse_html"),
}


def _bytes_parser(module: str, function: str):
    def parse(data: bytes, name: str, **options):
        return getattr(import_module(f"cairn.parse.{module}"), function)(data, name)
    parse.__name__ = parse.__qualname__ = function
    parse.__doc__ = f"cairn.parse.{module}.{function}(data, name), imported on first use."
    return parse


def parse_pdf(data: bytes, name: str, *, ocr: bool = True, max_ocr_pages: int | None = None, **options):
    """PDF: text layer, OCR for pages without one (up to max_ocr_pages)."""
    from cairn.parse.pdf import MAX_OCR_PAGES, parse_pdf as parse
    return parse(data, name, ocr=ocr, max_ocr_pages=max_ocr_pages or MAX_OCR_PAGES)


def parse_image(data: bytes, name: str, *, ocr: bool = True, **options):
    """PNG/JPEG/TIFF/WebP: OCR'd text (or metadata only without OCR)."""
    from cairn.parse.image import parse_image as parse
    return parse(data, name, ocr=ocr)


def parse_audio(data: bytes, name: str, *, asr: bool = True, **options):
    """Audio: a transcript (faster-whisper) or metadata only."""
    from cairn.parse import _audio_format
    from cairn.parse.audio import parse_audio as parse
    from cairn.parse.detect import HEAD_BYTES
    return parse(data, name, asr=asr, fmt=_audio_format(data[:HEAD_BYTES]))


def _decoded(data: bytes):
    from cairn.parse.errors import EmptyDocument
    from cairn.parse.text import decode_bytes
    if data.isspace():  # whitespace-only in any 8-bit encoding (UTF-16 handled below)
        raise EmptyDocument("empty file (only whitespace)")
    return decode_bytes(data)


def parse_markdown(data: bytes, name: str, *, dendron: bool | None = None, **options):
    """Markdown: frontmatter, headings, wikilinks (cairn.parse.markdown)."""
    from cairn.parse import parse_markdown_text
    text, encoding = _decoded(data)
    doc = parse_markdown_text(text, name, dendron=dendron)
    doc.encoding = encoding
    return doc


def parse_plain(data: bytes, name: str, **options):
    """Plain text (and .org): the text itself."""
    from cairn.parse import parse_text
    text, encoding = _decoded(data)
    doc = parse_text(text, name)
    doc.encoding = encoding
    return doc


def parse_ipynb(data: bytes, name: str, **options):
    """Jupyter notebook: markdown and code cells; JSON that merely starts like a notebook is
    indexed as text."""
    from cairn.parse import parse_text
    from cairn.parse.notebook import NotANotebook, parse_notebook
    text, encoding = _decoded(data)
    try:
        doc = parse_notebook(text, name)
    except NotANotebook:
        doc = parse_text(text, name)
    doc.encoding = encoding
    return doc


@hookimpl
def register_parsers(register):
    for kind, (module, function) in _BYTES_PARSERS.items():
        register(kind, _bytes_parser(module, function))
    register("pdf", parse_pdf)
    register("image", parse_image)
    register("audio", parse_audio)
    register("ipynb", parse_ipynb)
    register("markdown", parse_markdown)
    register("text", parse_plain)
