# SPDX-License-Identifier: MIT
"""`copy_with_xmp`: a copy of a JPEG with the item's XMP inside it, for the apps that read no sidecar
(Lightroom reads a JPEG's own XMP only; docs/backup.md, "Opened by other apps"). `--embedded-copies`.

The copy is the original's bytes with one segment changed: an APP1 XMP packet (Adobe's XMP spec,
part 3: "http://ns.adobe.com/xap/1.0/\\0" then the packet, at most 65,502 bytes) put after the JFIF
APP0 and the Exif APP1, in place of any XMP packet the original held (its ExtendedXMP parts too).
No pixel is decoded or encoded: from the first segment that is not APP0/APP1 on, the bytes are the
original's, streamed. The original file is never touched. A file that is no JPEG, or whose segments
do not read as JPEG's, or an XMP too large for one segment, gets no copy (NotCopied says why).
"""
from __future__ import annotations

import os
from typing import BinaryIO, Optional

from flickr.files import create_temporary
from .safedir import SafeDir

EMBEDDED = "embedded"  # DIR/embedded/YYYY/MM/NAME.jpg: the copies, in the archive's own layout
NO_COPY = "embedded_refused"  # the state's meta key: items whose file could not be copied (NotCopied)
_XMP = b"http://ns.adobe.com/xap/1.0/\x00"
_EXTENDED = b"http://ns.adobe.com/xmp/extension/\x00"
_LARGEST = 65533 - len(_XMP)  # a segment's length field counts itself (2 bytes) and holds 65535 at most
_CHUNK = 1 << 20


class NotCopied(Exception):
    """Why an item has no embedded copy (the report's notes say it; the archive is otherwise whole)."""


def _exactly(source: BinaryIO, count: int) -> bytes:
    data = source.read(count)
    if len(data) != count:
        raise NotCopied("its JPEG segments end before the image data (a truncated or odd file)")
    return data


def _write_copy(source: BinaryIO, out: BinaryIO, packet: bytes) -> None:
    if _exactly(source, 2) != b"\xff\xd8":
        raise NotCopied("not a JPEG (no start-of-image marker)")
    out.write(b"\xff\xd8")
    ours = b"\xff\xe1" + (len(_XMP) + len(packet) + 2).to_bytes(2, "big") + _XMP + packet
    placed = False
    while True:
        marker = _exactly(source, 2)
        if marker[0] != 0xFF:
            raise NotCopied("its JPEG segments do not read as JPEG's (a byte other than a marker)")
        kind = marker[1]
        if kind in (0xE0, 0xE1):  # APP0 (JFIF) and APP1 (Exif, XMP): before ours, or replaced by it
            size = int.from_bytes(_exactly(source, 2), "big")
            if size < 2:
                raise NotCopied("a JPEG segment of a length below its own")
            payload = _exactly(source, size - 2)
            if kind == 0xE1 and payload.startswith((_XMP, _EXTENDED)):
                continue  # the original's own XMP: the copy holds the archive's
            out.write(marker + size.to_bytes(2, "big") + payload)
            continue
        if not placed:
            out.write(ours)
            placed = True
        out.write(marker)
        while True:  # the rest, the image data included, byte for byte
            chunk = source.read(_CHUNK)
            if not chunk:
                return
            out.write(chunk)


def copy_with_xmp(source: SafeDir, name: str, target: SafeDir, packet: bytes, mtime: Optional[float]) -> tuple[int, str]:
    """Writes target/name, the JPEG source/name with `packet` as its XMP: (size, sha256). The copy is
    written under a temporary name (O_EXCL), fsync'd, then renamed; the source is opened without
    following a link."""
    if len(packet) > _LARGEST:
        raise NotCopied(f"its XMP is {len(packet)} bytes, more than one JPEG segment holds ({_LARGEST})")
    fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0), dir_fd=source.fd)
    with os.fdopen(fd, "rb") as original:
        out_fd, temporary = create_temporary(target.fd, name, 0o644)
        try:
            with os.fdopen(out_fd, "wb") as out:
                _write_copy(original, out, packet)
                out.flush()
                os.fsync(out.fileno())
            if mtime is not None:
                os.utime(temporary, (mtime, mtime), dir_fd=target.fd, follow_symlinks=False)
            os.rename(temporary, name, src_dir_fd=target.fd, dst_dir_fd=target.fd)
        except BaseException:
            try:
                os.unlink(temporary, dir_fd=target.fd)
            except OSError:
                pass
            raise
    found = target.digest(name)
    if found is None:
        raise NotCopied("its copy was replaced while it was written")
    return found
