#!/usr/bin/env python3
"""Assemble PNG frames of the same size and format into one animated PNG (APNG).

    tools/apng.py OUT.png DELAY_MS FRAME.png [FRAME.png ...]

Standard library only. Each frame's image data is moved as it is (no re-encoding): the first
frame's IDAT chunks stay IDAT (viewers without APNG support show that frame), the others become
fdAT chunks, each frame announced by an fcTL chunk. Used by tools/preview.
"""
import struct
import sys
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def chunks(path):
    with open(path, "rb") as file:
        data = file.read()
    if not data.startswith(SIGNATURE):
        sys.exit(f"apng.py: {path} is not a PNG file")
    at = len(SIGNATURE)
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        kind = data[at + 4:at + 8]
        yield kind, data[at + 8:at + 8 + length]
        at += 12 + length


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__.strip())
    out, delay, frames = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    header = None
    pieces = []
    sequence = 0
    for index, path in enumerate(frames):
        parts = list(chunks(path))
        ihdr = next(body for kind, body in parts if kind == b"IHDR")
        if header is None:
            header = ihdr
            width, height = struct.unpack(">II", ihdr[:8])
        elif ihdr != header:
            sys.exit(f"apng.py: {path} differs in size or format from {frames[0]}")
        # fcTL: sequence, size, offset 0,0, delay (ms / 1000), dispose none, blend source.
        pieces.append(chunk(b"fcTL", struct.pack(">IIIIIHHBB", sequence, width, height, 0, 0, delay, 1000, 0, 0)))
        sequence += 1
        for kind, body in parts:
            if kind != b"IDAT":
                continue
            if index == 0:
                pieces.append(chunk(b"IDAT", body))
            else:
                pieces.append(chunk(b"fdAT", struct.pack(">I", sequence) + body))
                sequence += 1
    with open(out, "wb") as file:
        file.write(SIGNATURE + chunk(b"IHDR", header))
        file.write(chunk(b"acTL", struct.pack(">II", len(frames), 0)))
        file.writelines(pieces)
        file.write(chunk(b"IEND", b""))


if __name__ == "__main__":
    main()
