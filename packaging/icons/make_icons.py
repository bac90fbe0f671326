"""Renders sbctune.svg to the icons each OS wants: sbctune.ico, sbctune.icns, sbctune.png.

`python packaging/icons/make_icons.py` (needs PySide6, which sbctune depends on anyway: QtSvg
renders the SVG). ICO and ICNS hold PNG images, written here with `struct`, so no image library
is needed. The outputs are committed; rerun this after editing the SVG.
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "sbctune.svg"

ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# ICNS element types holding PNG data, by pixel size (Apple's icns type codes).
ICNS_TYPES = (
    (b"icp4", 16),
    (b"icp5", 32),
    (b"icp6", 64),
    (b"ic07", 128),
    (b"ic08", 256),
    (b"ic09", 512),
    (b"ic10", 1024),
    (b"ic11", 32),
    (b"ic12", 64),
    (b"ic13", 256),
    (b"ic14", 512),
)
PNG_SIZE = 256


def render_png(svg: Path, size: int) -> bytes:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app = QGuiApplication.instance() or QGuiApplication(["make_icons", "-platform", "offscreen"])
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"cannot render {svg}")
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # str works; the stubs say bytes
    buffer.close()
    return bytes(data.data())


def ico(pngs: dict[int, bytes]) -> bytes:
    """An ICO file whose entries are PNG images (Windows Vista and later read them)."""
    sizes = sorted(pngs)
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = len(header) + 16 * len(sizes)
    entries, blobs = b"", b""
    for size in sizes:
        data = pngs[size]
        dim = 0 if size >= 256 else size  # 0 means 256 in an ICO directory entry
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(data), offset)
        offset += len(data)
        blobs += data
    return header + entries + blobs


def icns(pngs: dict[int, bytes]) -> bytes:
    body = b"".join(
        kind + struct.pack(">I", 8 + len(pngs[size])) + pngs[size] for kind, size in ICNS_TYPES
    )
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def main() -> int:
    sizes = {*ICO_SIZES, *(size for _kind, size in ICNS_TYPES), PNG_SIZE}
    pngs = {size: render_png(SOURCE, size) for size in sorted(sizes)}
    (HERE / "sbctune.ico").write_bytes(ico({s: pngs[s] for s in ICO_SIZES}))
    (HERE / "sbctune.icns").write_bytes(icns(pngs))
    (HERE / "sbctune.png").write_bytes(pngs[PNG_SIZE])
    print(f"wrote sbctune.ico, sbctune.icns, sbctune.png in {HERE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
