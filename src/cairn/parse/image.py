"""Images (PNG, JPEG, TIFF, WebP): OCR text plus format, size and EXIF metadata, via Pillow.

body = the OCR text (see cairn.parse.ocr); a multi-frame TIFF gives one page per frame, with a
PageSpan for each frame that has text. meta: format ("PNG"), width/height (pixels), file_size
(bytes), frames, and from EXIF: camera ("Make Model"), taken (DateTimeOriginal, ISO 8601; also
the document's `created`), software. An image where OCR finds nothing is still a document (its
note keeps the image and the metadata) with the warning "no text found (OCR)"; with OCR turned
off the warning is "OCR is off ([ingest] ocr = false); image text not indexed".
Corrupt or truncated images raise ParseError naming the format.
"""

from __future__ import annotations

import io
from pathlib import PurePath
from typing import Any

from ..model import PageSpan, ParsedDocument
from ._shared import clean_text
from .errors import ParseError, describe

IMAGE_FORMATS = {"PNG": "png", "JPEG": "jpg", "TIFF": "tif", "WEBP": "webp"}
MAX_FRAMES = 200  # OCR at most this many frames of a multi-page TIFF

_EXIF_IFD = 0x8769
_DATE_ORIGINAL, _DATE_DIGITIZED, _OFFSET_ORIGINAL = 36867, 36868, 36881
_DATETIME, _MAKE, _MODEL, _SOFTWARE = 306, 271, 272, 305


def exif_date(value: Any, offset: Any = None) -> str | None:
    """EXIF "YYYY:MM:DD HH:MM:SS" (+ optional OffsetTime "+02:00") -> ISO 8601, else None."""
    if not isinstance(value, str):
        return None
    value = value.strip().rstrip("\x00")
    if len(value) < 19 or value[4] != ":" or value[7] != ":":
        return None
    iso = f"{value[0:4]}-{value[5:7]}-{value[8:10]}T{value[11:19]}"
    if not (iso[:4].isdigit() and iso[5:7].isdigit() and iso[8:10].isdigit()) or iso.startswith("0000"):
        return None
    if isinstance(offset, str) and len(offset.strip()) == 6 and offset.strip()[0] in "+-":
        iso += offset.strip()
    return iso


def image_metadata(img: Any, size: int) -> dict[str, Any]:
    """Format, pixel size, file size and EXIF fields of an opened Pillow image."""
    meta: dict[str, Any] = {"format": img.format or "", "width": img.width, "height": img.height,
                            "file_size": size}
    n = getattr(img, "n_frames", 1) or 1
    if n > 1:
        meta["frames"] = n
    try:
        exif = img.getexif()
    except Exception:
        return meta
    if not exif:
        return meta
    try:
        sub = exif.get_ifd(_EXIF_IFD)
    except Exception:
        sub = {}

    def text(v: Any) -> str:
        if isinstance(v, bytes):
            v = v.decode("utf-8", errors="replace")
        return clean_text(v) if v is not None else ""

    make, model = text(exif.get(_MAKE)), text(exif.get(_MODEL))
    camera = model if model.lower().startswith(make.lower()) else f"{make} {model}".strip()
    if camera:
        meta["camera"] = camera
    if text(exif.get(_SOFTWARE)):
        meta["software"] = text(exif.get(_SOFTWARE))
    taken = (exif_date(text(sub.get(_DATE_ORIGINAL)), text(sub.get(_OFFSET_ORIGINAL)))
             or exif_date(text(sub.get(_DATE_DIGITIZED))) or exif_date(text(exif.get(_DATETIME))))
    if taken:
        meta["taken"] = taken
    return meta


def parse_image(data: bytes, name: str, *, ocr: bool = True) -> ParsedDocument:
    """Parse image bytes of the file called `name`; OCR only when `ocr` is True.

    Raises ParseError for corrupt/truncated images or images too large for Pillow's
    decompression-bomb limit.
    """
    from PIL import Image, ImageOps, ImageSequence

    try:
        img = Image.open(io.BytesIO(data))
        fmt = img.format or "image"
        img.load()
    except Image.DecompressionBombError as exc:
        raise ParseError(f"image too large to decode safely: {exc}") from None
    except Exception as exc:  # UnidentifiedImageError, OSError("truncated"), SyntaxError...
        raise ParseError(f"corrupt or unreadable image: {describe(exc)}") from None
    label = f"{fmt} image"
    meta = image_metadata(img, len(data))
    warnings: list[str] = []
    parts: list[str] = []
    spans: list[PageSpan] = []
    if ocr:
        from .ocr import ocr_image

        frames = getattr(img, "n_frames", 1) or 1
        pos = 0
        try:
            for i, frame in enumerate(ImageSequence.Iterator(img)):
                if i >= MAX_FRAMES:
                    warnings.append(f"only the first {MAX_FRAMES} of {frames} frames were read (OCR)")
                    break
                text = ocr_image(ImageOps.exif_transpose(frame.copy()))
                if not text:
                    if frames > 1:
                        warnings.append(f"page {i + 1}: no text found (OCR)")
                    continue
                if parts:
                    pos += 2
                spans.append(PageSpan(page=i + 1, start=pos, end=pos + len(text)))
                parts.append(text)
                pos += len(text)
        except ParseError:
            raise
        except Exception as exc:  # a frame that fails to decode
            raise ParseError(f"corrupt or unreadable {label}: {describe(exc)}") from None
        if not parts:
            warnings.append("no text found (OCR)")
        meta["ocr"] = "rapidocr"
    else:
        warnings.append("OCR is off ([ingest] ocr = false); image text not indexed")
    body = "\n\n".join(parts)
    return ParsedDocument(
        kind="image",
        title=PurePath(name).stem or name,
        body=body,
        pages=spans if len(spans) > 1 or (spans and spans[0].page != 1) else [],
        meta=meta,
        created=meta.get("taken"),
        warnings=warnings,
    )
