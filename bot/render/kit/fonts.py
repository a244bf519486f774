"""The shipped DejaVu fonts, which characters they can draw, and text fitting.

Fonts come from the package itself (`bot/render/kit/fonts/`), never from the system,
so Cyrillic renders the same on every machine. A character the font lacks
(emoji, most CJK) would be drawn as the empty .notdef box; `printable` drops
such characters instead, using the font's own character map.
"""

from __future__ import annotations

import io
import struct
import unicodedata
from functools import cache
from importlib import resources
from pathlib import Path

from PIL import ImageFont

REGULAR = "DejaVuSans.ttf"
BOLD = "DejaVuSans-Bold.ttf"
ELLIPSIS = "…"

Font = ImageFont.FreeTypeFont


@cache
def font_bytes(name: str) -> bytes:
    return (resources.files("bot.render.kit") / "fonts" / name).read_bytes()


@cache
def font(size: int, bold: bool = False) -> Font:
    """The shipped font at `size` pixels (cached: fonts are shared by all pictures).

    Opened by its path where the package lies in files, as it does when installed:
    FreeType then reads the file as it needs it, where a font opened from bytes keeps a
    copy of the whole file for each size (half a megabyte each, 17 sizes and two faces)."""
    name = BOLD if bold else REGULAR
    path = resources.files("bot.render.kit") / "fonts" / name
    if isinstance(path, Path):
        return ImageFont.truetype(str(path), size)
    return ImageFont.truetype(io.BytesIO(font_bytes(name)), size)


@cache
def coverage(name: str) -> frozenset[int]:
    """Code points the font maps to a real glyph (from its `cmap` table)."""
    return frozenset(_cmap_codepoints(font_bytes(name)))


@cache
def _covered_by_both() -> frozenset[int]:
    return coverage(REGULAR) & coverage(BOLD)


def can_draw(char: str) -> bool:
    """Whether both shipped fonts have a glyph for `char` (a single character)."""
    return ord(char) in _covered_by_both()


def printable(text: str) -> str:
    """`text` with every character the fonts cannot draw dropped, spaces tidied.

    Control and format characters (zero-width joiners, direction marks,
    variation selectors) go too: left behind by a dropped emoji they mean nothing.
    """
    kept = []
    for char in text:
        category = unicodedata.category(char)
        if category in ("Cc", "Cf", "Cs", "Co", "Cn") or 0xFE00 <= ord(char) <= 0xFE0F:
            continue
        if char.isspace():
            kept.append(" ")
        elif can_draw(char):
            kept.append(char)
    return " ".join("".join(kept).split())


def fit(text: str, face: Font, width: float) -> str:
    """`text`, cut and ended with an ellipsis if it is wider than `width` pixels."""
    if face.getlength(text) <= width:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits with the ellipsis
        mid = (low + high + 1) // 2
        if face.getlength(text[:mid].rstrip() + ELLIPSIS) <= width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + ELLIPSIS


def wrap(text: str, face: Font, width: float, max_lines: int) -> list[str]:
    """`text` broken into lines at spaces; the last line ends with an ellipsis if cut."""
    words = text.split()
    lines: list[str] = []
    current = ""
    for i, word in enumerate(words):
        candidate = f"{current} {word}" if current else word
        if face.getlength(candidate) <= width or not current:
            current = candidate
            continue
        if len(lines) == max_lines - 1:
            lines.append(fit(" ".join([current, *words[i:]]), face, width))
            return lines
        lines.append(current)
        current = word
    if current:
        lines.append(fit(current, face, width))
    return lines


def wrap_all(text: str, face: Font, width: float) -> list[str]:
    """`text` broken into lines no wider than `width`, with nothing left out: at spaces,
    and a word wider than a line on its own is broken between its characters."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if face.getlength(candidate) <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
        current = ""
        while face.getlength(word) > width and len(word) > 1:
            cut = max(1, _longest_prefix(word, face, width))
            lines.append(word[:cut])
            word = word[cut:]
        current = word
    if current:
        lines.append(current)
    return lines


def _longest_prefix(word: str, face: Font, width: float) -> int:
    low, high = 0, len(word)
    while low < high:
        mid = (low + high + 1) // 2
        if face.getlength(word[:mid]) <= width:
            low = mid
        else:
            high = mid - 1
    return low


def _cmap_codepoints(data: bytes) -> set[int]:
    """Code points mapped to a glyph other than .notdef by a TrueType `cmap` table.

    Reads the Unicode subtables (format 4 for the BMP, format 12 for all planes).
    """
    num_tables = struct.unpack_from(">H", data, 4)[0]
    cmap = None
    for i in range(num_tables):
        tag, _, offset, _ = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if tag == b"cmap":
            cmap = offset
    if cmap is None:
        raise ValueError("the font has no cmap table")
    found: set[int] = set()
    subtables = struct.unpack_from(">H", data, cmap + 2)[0]
    for i in range(subtables):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        if (platform, encoding) not in ((3, 1), (3, 10), (0, 3), (0, 4)):
            continue
        start = cmap + offset
        kind = struct.unpack_from(">H", data, start)[0]
        if kind == 4:
            found |= _format4(data, start)
        elif kind == 12:
            found |= _format12(data, start)
    return found


def _format4(data: bytes, start: int) -> set[int]:
    segments = struct.unpack_from(">H", data, start + 6)[0] // 2
    ends_at = start + 14
    starts_at = ends_at + 2 * segments + 2
    deltas_at = starts_at + 2 * segments
    ranges_at = deltas_at + 2 * segments
    found = set()
    for s in range(segments):
        end = struct.unpack_from(">H", data, ends_at + 2 * s)[0]
        first = struct.unpack_from(">H", data, starts_at + 2 * s)[0]
        delta = struct.unpack_from(">h", data, deltas_at + 2 * s)[0]
        range_offset = struct.unpack_from(">H", data, ranges_at + 2 * s)[0]
        for code in range(first, end + 1):
            if code == 0xFFFF:
                continue
            if range_offset == 0:
                glyph = (code + delta) & 0xFFFF
            else:
                at = ranges_at + 2 * s + range_offset + 2 * (code - first)
                glyph = struct.unpack_from(">H", data, at)[0]
                if glyph:
                    glyph = (glyph + delta) & 0xFFFF
            if glyph:
                found.add(code)
    return found


def _format12(data: bytes, start: int) -> set[int]:
    groups = struct.unpack_from(">I", data, start + 12)[0]
    found = set()
    for g in range(groups):
        first, last, glyph = struct.unpack_from(">III", data, start + 16 + 12 * g)
        for offset, code in enumerate(range(first, last + 1)):
            if glyph + offset:
                found.add(code)
    return found
