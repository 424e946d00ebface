"""Every platform's icons from the one SVG (resources/icons/labgpu.svg).

    python packaging/icons.py OUT_DIR

writes OUT_DIR/png/labgpu-<N>.png for N in spec_support.ICON_SIZES, OUT_DIR/labgpu.ico (Windows)
and OUT_DIR/labgpu.icns (macOS). The SVG is rendered with Qt's QSvgRenderer (PySide6 is in the
build's venv); the .ico and .icns containers are written here with ``struct`` (both hold PNGs),
so no image library is needed. The writers take PNG bytes and are tested on their own.
"""

from __future__ import annotations

import os
import struct
import sys
from collections.abc import Mapping
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from spec_support import ICON_SIZES, ROOT  # type: ignore[import-not-found,no-redef]
else:
    from .spec_support import ICON_SIZES, ROOT

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
# .ico: sizes Windows uses (256 is stored as 0 in the directory entry).
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# .icns: OSType for each PNG payload, keyed by the pixel size it holds (retina types share sizes).
ICNS_TYPES = (("icp4", 16), ("ic11", 32), ("icp5", 32), ("ic12", 64), ("icp6", 64), ("ic07", 128),
              ("ic13", 256), ("ic08", 256), ("ic14", 512), ("ic09", 512))


def png_size(data: bytes) -> tuple[int, int]:
    if not data.startswith(PNG_MAGIC) or data[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    w, h = struct.unpack(">II", data[16:24])
    return int(w), int(h)


def write_ico(pngs: Mapping[int, bytes], path: Path) -> None:
    """An .ico whose images are PNG streams (Windows Vista and later read them at every size)."""
    sizes = [s for s in ICO_SIZES if s in pngs]
    if not sizes:
        raise ValueError("no image for the .ico")
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = 6 + 16 * len(sizes)
    entries, blobs = [], []
    for s in sizes:
        data = pngs[s]
        if png_size(data) != (s, s):
            raise ValueError(f"the {s}px image is {png_size(data)}")
        dim = 0 if s >= 256 else s
        entries.append(struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(data), offset))
        blobs.append(data)
        offset += len(data)
    path.write_bytes(header + b"".join(entries) + b"".join(blobs))


def write_icns(pngs: Mapping[int, bytes], path: Path) -> None:
    """An .icns with PNG payloads ('icns', big-endian total length, then type+length+data chunks)."""
    chunks = []
    for ostype, size in ICNS_TYPES:
        if size in pngs:
            data = pngs[size]
            if png_size(data) != (size, size):
                raise ValueError(f"the {size}px image is {png_size(data)}")
            chunks.append(ostype.encode("ascii") + struct.pack(">I", 8 + len(data)) + data)
    if not chunks:
        raise ValueError("no image for the .icns")
    body = b"".join(chunks)
    path.write_bytes(b"icns" + struct.pack(">I", 8 + len(body)) + body)


def read_ico(data: bytes) -> dict[int, bytes]:
    reserved, kind, count = struct.unpack("<HHH", data[:6])
    if reserved != 0 or kind != 1:
        raise ValueError("not an .ico")
    out = {}
    for i in range(count):
        w, _h, _c, _r, _planes, _bpp, size, offset = struct.unpack("<BBBBHHII", data[6 + 16 * i: 22 + 16 * i])
        out[w or 256] = data[offset:offset + size]
    return out


def read_icns(data: bytes) -> dict[str, bytes]:
    if data[:4] != b"icns" or struct.unpack(">I", data[4:8])[0] != len(data):
        raise ValueError("not an .icns")
    out, pos = {}, 8
    while pos < len(data):
        ostype = data[pos:pos + 4].decode("ascii")
        (length,) = struct.unpack(">I", data[pos + 4:pos + 8])
        if length < 8 or pos + length > len(data):
            raise ValueError("truncated .icns chunk")
        out[ostype] = data[pos + 8:pos + length]
        pos += length
    return out


def render_pngs(svg: Path, sizes: tuple[int, ...] = ICON_SIZES) -> dict[int, bytes]:
    """PNG bytes of the SVG at each size, rendered by Qt with a transparent background."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    app = QGuiApplication.instance() or QGuiApplication([sys.argv[0]])
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise RuntimeError(f"Qt cannot read {svg}")
    out = {}
    for s in sizes:
        image = QImage(s, s, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        renderer.render(painter)
        painter.end()
        buf = QByteArray()
        dev = QBuffer(buf)
        dev.open(QIODevice.OpenModeFlag.WriteOnly)
        if not image.save(dev, "PNG"):
            raise RuntimeError(f"Qt could not encode the {s}px icon")
        dev.close()
        out[s] = bytes(buf.data())
    del app
    return out


def generate(out_dir: Path, svg: Path | None = None) -> dict[str, Path]:
    svg = svg or ROOT / "resources" / "icons" / "labgpu.svg"
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "png").mkdir(exist_ok=True)
    pngs = render_pngs(svg)
    for s, data in pngs.items():
        (out_dir / "png" / f"labgpu-{s}.png").write_bytes(data)
    write_ico(pngs, out_dir / "labgpu.ico")
    write_icns(pngs, out_dir / "labgpu.icns")
    return {"png": out_dir / "png", "ico": out_dir / "labgpu.ico", "icns": out_dir / "labgpu.icns"}


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    for kind, p in generate(Path(sys.argv[1])).items():
        print(f"{kind}: {p}")
