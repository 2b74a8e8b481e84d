"""A player's picture: what is kept of an upload.

An upload is never stored as sent. It must be a JPEG, PNG, WebP or GIF
image of at most ``MAX_UPLOAD_BYTES`` and ``MAX_PIXELS`` (checked from the
header, before any pixel is decoded, so a small file that decompresses to
gigabytes, a "decompression bomb", is refused unread); it is then turned
upright by its EXIF orientation, cropped to the middle square, resized to
``PICTURE_SIZE`` pixels and written again as WebP. Writing it again keeps
nothing of the original file but its pixels: no EXIF (camera, place, time),
no ICC or XMP, no comments, nothing appended after the image data.
"""

from __future__ import annotations

from io import BytesIO

from django.core.files.base import ContentFile
from django.utils.translation import gettext as _
from PIL import Image, ImageOps, UnidentifiedImageError

from core.errors import ServiceError

MAX_UPLOAD_BYTES = 5 * 1024 * 1024
# 25 megapixels: every camera's photo, far from what would exhaust memory.
MAX_PIXELS = 25_000_000
PICTURE_SIZE = 256
FORMATS = ("JPEG", "PNG", "WEBP", "GIF")
EXTENSION = "webp"


def _refuse() -> ServiceError:
    return ServiceError(_("The picture must be a JPEG, PNG, WebP or GIF image."))


def _check(upload) -> None:
    """Refuse what is not a picture, too large a file, or too many pixels,
    reading no more than the header and the file's own checks
    (``Image.verify``)."""
    size = getattr(upload, "size", None)
    if size is None or size > MAX_UPLOAD_BYTES:
        raise ServiceError(
            _("The picture may be at most %(mb)d MB.") % {"mb": MAX_UPLOAD_BYTES // (1024 * 1024)}
        )
    try:
        upload.seek(0)
        with Image.open(upload, formats=FORMATS) as probe:
            width, height = probe.size
            if width * height > MAX_PIXELS:
                raise ServiceError(
                    _("The picture may have at most %(mp)d million pixels.")
                    % {"mp": MAX_PIXELS // 1_000_000}
                )
            probe.verify()
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        raise _refuse() from None


def normalised(upload) -> ContentFile:
    """The square WebP kept for ``upload`` (a Django uploaded file), or a
    ``ServiceError`` saying why it is refused. Nothing is stored here."""
    _check(upload)
    try:
        upload.seek(0)
        with Image.open(upload, formats=FORMATS) as image:
            image.seek(0)  # an animated GIF or WebP: its first frame
            # A JPEG is decoded at a reduced scale (1/2 to 1/8) still larger
            # than twice the square: a phone's photo in a fraction of the time.
            image.draft("RGB", (2 * PICTURE_SIZE, 2 * PICTURE_SIZE))
            upright = ImageOps.exif_transpose(image)
            mode = "RGBA" if "A" in upright.getbands() or "transparency" in image.info else "RGB"
            square = ImageOps.fit(
                upright.convert(mode), (PICTURE_SIZE, PICTURE_SIZE), Image.Resampling.LANCZOS
            )
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        raise _refuse() from None
    # A new image from the pixels alone: no metadata comes along.
    clean = Image.frombytes(square.mode, square.size, square.tobytes())
    out = BytesIO()
    clean.save(out, "WEBP", quality=85, method=4)
    return ContentFile(out.getvalue())
