"""Offline OCR with RapidOCR (PP-OCRv6 det/rec models shipped inside the `rapidocr` wheel).

The engine is created on first use and kept for the life of the process (`ocr_engine`).
`ocr_image(img)` takes a Pillow image and returns its text: the recognised boxes are grouped
into lines (boxes whose vertical centres lie within half a line height of each other, read
left to right), and a vertical gap larger than 0.8 x the median line height starts a new
paragraph (blank line). Boxes under RapidOCR's text_score (0.5) are dropped by the engine.
No network access: model paths resolve to files inside the installed package.
"""

from __future__ import annotations

import functools
import logging
import threading
from typing import Any

from .errors import ParseError, describe

_LOCK = threading.Lock()


@functools.lru_cache(maxsize=1)
def ocr_engine() -> Any:
    """The process-wide RapidOCR engine (loaded once, ~1 s). Raises ParseError if missing."""
    try:
        from rapidocr import RapidOCR
    except ImportError as exc:  # pragma: no cover - dependency is declared
        raise ParseError(f"OCR is not installed ({exc})") from None
    engine = RapidOCR(params={"Global.log_level": "error"})
    logging.getLogger("RapidOCR").setLevel(logging.ERROR)
    return engine


def to_rgb(img: Any) -> Any:
    """A Pillow image as 8-bit RGB; transparent pixels become white (text is usually dark)."""
    from PIL import Image

    if img.mode in ("RGBA", "LA", "PA") or (img.mode == "P" and "transparency" in img.info):
        rgba = img.convert("RGBA")
        white = Image.new("RGB", rgba.size, (255, 255, 255))
        white.paste(rgba, mask=rgba.getchannel("A"))
        return white
    if img.mode in ("I;16", "I;16B", "I;16L", "I"):
        img = img.point(lambda v: v / 256).convert("L")
    return img.convert("RGB")


def lines_from_boxes(boxes: list[Any], texts: list[str]) -> str:
    """Group OCR boxes (4-point quads, pixels) and their texts into lines and paragraphs."""
    items = []
    for box, text in zip(boxes, texts):
        text = (text or "").strip()
        if not text:
            continue
        ys = [float(p[1]) for p in box]
        xs = [float(p[0]) for p in box]
        top, bottom = min(ys), max(ys)
        items.append(((top + bottom) / 2, max(1.0, bottom - top), min(xs), text))
    if not items:
        return ""
    items.sort(key=lambda it: (it[0], it[2]))
    lines: list[list[tuple[float, float, float, str]]] = []
    for it in items:
        if lines:
            line = lines[-1]
            cy = sum(i[0] for i in line) / len(line)
            h = max(i[1] for i in line)
            if abs(it[0] - cy) <= h / 2:
                line.append(it)
                continue
        lines.append([it])
    heights = sorted(max(i[1] for i in ln) for ln in lines)
    median_h = heights[len(heights) // 2]
    out: list[str] = []
    prev_bottom = None
    for ln in lines:
        ln.sort(key=lambda i: i[2])
        top = min(i[0] - i[1] / 2 for i in ln)
        if prev_bottom is not None and top - prev_bottom > 0.8 * median_h:
            out.append("")
        out.append(" ".join(i[3] for i in ln))
        prev_bottom = max(i[0] + i[1] / 2 for i in ln)
    return "\n".join(out).strip()


def ocr_image(img: Any) -> str:
    """Text of a Pillow image ("" when none is found). Raises ParseError if OCR fails."""
    engine = ocr_engine()
    if img.width < 8 or img.height < 8:
        return ""
    rgb = to_rgb(img)
    try:
        with _LOCK:  # one inference at a time per process (onnxruntime uses all cores)
            result = engine(rgb)
    except Exception as exc:
        raise ParseError(f"OCR failed: {describe(exc)}") from None
    boxes, texts = getattr(result, "boxes", None), getattr(result, "txts", None)
    if boxes is None or not texts:
        return ""
    return lines_from_boxes(list(boxes), list(texts))
