#!/usr/bin/env python3
"""Writes the seed corpus of PNGFuzzer (see Fuzz/README.md).

Every golden PNG and zlib stream of Tests/TransferImagingTests/Resources (written by its make_fixtures.py with
Python's zlib) up to 4 KiB, and a few BMP, PPM and PAM files of each shape the decoders read. Names are content
hashes, like libFuzzer's own.
"""
import hashlib
import pathlib
import struct

root = pathlib.Path(__file__).resolve().parent.parent
resources = root / "Tests/TransferImagingTests/Resources"
corpus = root / "Fuzz/PNGFuzzer/corpus"


def write(data: bytes) -> None:
    corpus.mkdir(parents=True, exist_ok=True)
    (corpus / hashlib.sha1(data).hexdigest()).write_bytes(data)


def bmp(width, height, bits, compression=0, header=40, extra=b"", pixels=b"", used=0):
    info = struct.pack("<IiiHHIIiiII", header, width, height, 1, bits, compression, len(pixels), 2835, 2835, used, 0)
    info += b"\0" * (header - len(info))
    offset = 14 + len(info) + len(extra)
    return b"BM" + struct.pack("<IHHI", offset + len(pixels), 0, 0, offset) + info + extra + pixels


def main():
    for path in sorted(resources.glob("valid/*.png")) + sorted(resources.glob("zlib/*.z")):
        data = path.read_bytes()
        if len(data) <= 4096:
            write(data)
    write(bmp(2, 2, 24, pixels=bytes([255, 0, 0, 255, 255, 255, 0, 0, 0, 0, 255, 0, 255, 0, 0, 0])))
    write(bmp(3, 1, 8, extra=bytes([0, 0, 0, 0, 30, 20, 10, 0]), pixels=bytes([1, 0, 1, 0]), used=2))
    write(bmp(3, 1, 1, extra=bytes([0, 0, 0, 0, 255, 255, 255, 0]), pixels=bytes([0xA0, 0, 0, 0])))
    masks = struct.pack("<IIII", 0xFF0000, 0xFF00, 0xFF, 0xFF000000)
    v4 = bmp(2, -1, 32, 3, 108, pixels=bytes([3, 2, 1, 128, 0, 0, 255, 0]))
    write(v4[:54] + masks + v4[70:])
    write(bmp(1, 1, 16, 3, extra=struct.pack("<III", 0xF800, 0x7E0, 0x1F), pixels=bytes([0x1F, 0xF8, 0, 0])))
    write(b"P6\n# comment\n2 1\n255\n" + bytes(range(6)))
    write(b"P6 1 1 65535 " + bytes([255, 255, 128, 128, 0, 0]))
    for tuple_type, depth in [(b"RGB_ALPHA", 4), (b"RGB", 3), (b"GRAYSCALE_ALPHA", 2), (b"GRAYSCALE", 1)]:
        header = b"P7\nWIDTH 2\nHEIGHT 1\nDEPTH %d\nMAXVAL 255\nTUPLTYPE %s\nENDHDR\n" % (depth, tuple_type)
        write(header + bytes(range(depth * 2)))


if __name__ == "__main__":
    main()
