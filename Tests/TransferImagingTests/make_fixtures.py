#!/usr/bin/env python3
"""Writes the TransferImaging tests' golden files with Python's standard library alone (zlib, struct, random).

Resources/valid/NAME.png: a PNG of each colour type and bit depth (plain and Adam7-interlaced, palettes, tRNS), its
rows filtered with every filter type and its data compressed by zlib at several levels and strategies, split over
several IDAT chunks; Resources/valid/NAME.rgba: the pixels the PNG must decode to (8-bit RGBA, rows from the top),
computed here from the same samples by the rules the DocC states (16-bit samples v -> round(v * 255 / 65535), lower
depths v * 255 / (2^depth - 1), tRNS colours alpha 0); Resources/valid/index.json: name -> [width, height].
Resources/zlib/NAME.z and NAME.raw: zlib streams and what they inflate to.

Run from anywhere: python3 Tests/TransferImagingTests/make_fixtures.py (deterministic: seeded random).
"""
import json
import os
import random
import struct
import zlib

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Resources")
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def filter_row(kind, row, prior, bpp):
    out = bytearray(len(row))
    for i, x in enumerate(row):
        a = row[i - bpp] if i >= bpp else 0
        b = prior[i]
        c = prior[i - bpp] if i >= bpp else 0
        pred = [0, a, b, (a + b) // 2, paeth(a, b, c)][kind]
        out[i] = (x - pred) & 255
    return out


def pack_row(samples, depth):
    if depth == 8:
        return bytearray(samples)
    if depth == 16:
        return bytearray(b"".join(struct.pack(">H", s) for s in samples))
    out, acc, bits = bytearray(), 0, 0
    for s in samples:
        acc = (acc << depth) | s
        bits += depth
        if bits == 8:
            out.append(acc)
            acc, bits = 0, 0
    if bits:
        out.append(acc << (8 - bits))
    return out


def to8(v, depth):
    if depth == 16:
        return (v * 255 + 32767) // 65535
    return v * 255 // ((1 << depth) - 1)


def make(name, width, height, ctype, depth, interlace, rng, level=6, strategy=zlib.Z_DEFAULT_STRATEGY, trns=False):
    ch = CHANNELS[ctype]
    maxv = (1 << depth) - 1
    palette = None
    if ctype == 3:
        count = min(1 << depth, 1 + rng.randrange(256))
        palette = [(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(count)]
        alphas = [rng.randrange(256) for _ in range(rng.randrange(count + 1))] if trns else []
        pixels = [[[rng.randrange(count)] for _ in range(width)] for _ in range(height)]
    else:
        # Smooth gradients with noise, so the filters and LZ77 have something to do, plus exact extremes.
        pixels = []
        for y in range(height):
            row = []
            for x in range(width):
                px = []
                for c in range(ch):
                    base = ((x * 7 + y * 13 + c * 50) * maxv) // max(1, (width + height) * 7)
                    px.append(min(maxv, max(0, base + rng.randrange(-2, 3) if maxv > 3 else rng.randrange(maxv + 1))))
                row.append(px)
            pixels.append(row)
        pixels[0][0] = [0] * ch
        pixels[-1][-1] = [maxv] * ch
    key = None
    if trns and ctype in (0, 2):
        key = list(pixels[height // 2][width // 2])
    expected = bytearray()
    for y in range(height):
        for x in range(width):
            px = pixels[y][x]
            if ctype == 0:
                g = to8(px[0], depth)
                expected += bytes([g, g, g, 0 if key == px else 255])
            elif ctype == 2:
                expected += bytes([to8(v, depth) for v in px] + [0 if key == px else 255])
            elif ctype == 3:
                r, g, b = palette[px[0]]
                expected += bytes([r, g, b, alphas[px[0]] if px[0] < len(alphas) else 255])
            elif ctype == 4:
                g = to8(px[0], depth)
                expected += bytes([g, g, g, to8(px[1], depth)])
            else:
                expected += bytes([to8(v, depth) for v in px])
    passes = [(0, 0, 1, 1)] if not interlace else ADAM7
    raw = bytearray()
    bpp = max(1, ch * depth // 8)
    kind = 0
    for x0, y0, dx, dy in passes:
        xs = list(range(x0, width, dx))
        ys = list(range(y0, height, dy))
        if not xs or not ys:
            continue
        prior = bytearray(len(pack_row([0] * (len(xs) * ch), depth)))
        for y in ys:
            row = pack_row([s for x in xs for s in pixels[y][x]], depth)
            raw.append(kind)
            raw += filter_row(kind, row, prior, bpp)
            prior = row
            kind = (kind + 1) % 5
    compressor = zlib.compressobj(level, zlib.DEFLATED, 15, 9, strategy)
    data = compressor.compress(bytes(raw)) + compressor.flush()
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, ctype, 0, 0, interlace))
    png += chunk(b"tEXt", b"Comment\x00made by make_fixtures.py")
    if palette:
        png += chunk(b"PLTE", b"".join(bytes(p) for p in palette))
        if alphas:
            png += chunk(b"tRNS", bytes(alphas))
    if key is not None:
        png += chunk(b"tRNS", b"".join(struct.pack(">H", v) for v in key))
    pieces = max(1, len(data) // 3)
    for start in range(0, len(data), pieces):
        png += chunk(b"IDAT", data[start : start + pieces])
    png += chunk(b"IEND", b"")
    with open(os.path.join(HERE, "valid", name + ".png"), "wb") as f:
        f.write(png)
    with open(os.path.join(HERE, "valid", name + ".rgba"), "wb") as f:
        f.write(expected)
    return name, [width, height]


def main():
    rng = random.Random(25)
    index = {}
    strategies = [zlib.Z_DEFAULT_STRATEGY, zlib.Z_FILTERED, zlib.Z_HUFFMAN_ONLY, zlib.Z_RLE, zlib.Z_FIXED]
    n = 0
    for ctype, depths in sorted({0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]}.items()):
        for depth in depths:
            for interlace in (0, 1):
                for trns in ([False, True] if ctype in (0, 2, 3) else [False]):
                    width, height = rng.randrange(1, 40), rng.randrange(1, 40)
                    name = "ct%d-d%d%s%s" % (ctype, depth, "-adam7" if interlace else "", "-trns" if trns else "")
                    level = [0, 1, 6, 9][n % 4]
                    k, v = make(name, width, height, ctype, depth, interlace, rng, level, strategies[n % 5], trns)
                    index[k] = v
                    n += 1
    # Small and odd shapes for Adam7's empty passes, and a larger image for long matches and many blocks.
    for width, height in [(1, 1), (2, 1), (1, 9), (3, 3), (5, 2)]:
        k, v = make("ct6-d8-adam7-%dx%d" % (width, height), width, height, 6, 8, 1, rng)
        index[k] = v
    k, v = make("ct2-d8-large", 160, 120, 2, 8, 0, rng, 9)
    index[k] = v
    with open(os.path.join(HERE, "valid", "index.json"), "w") as f:
        json.dump(index, f, indent=1, sort_keys=True)
        f.write("\n")

    text = b"".join(b"line %d of a text that repeats, %s\n" % (i, b"abc" * (i % 7)) for i in range(2000))
    noise = bytes(rng.randrange(256) for _ in range(4000))
    samples = {"empty": b"", "one": b"x", "text": text, "noise": noise, "runs": b"\x00" * 40000 + b"\x01" * 300}
    for name, data in samples.items():
        for level in (0, 1, 6, 9):
            for sname, strategy in [("default", zlib.Z_DEFAULT_STRATEGY), ("huffman", zlib.Z_HUFFMAN_ONLY),
                                    ("rle", zlib.Z_RLE), ("fixed", zlib.Z_FIXED)]:
                if level == 0 and strategy != zlib.Z_DEFAULT_STRATEGY:
                    continue
                c = zlib.compressobj(level, zlib.DEFLATED, 15, 9, strategy)
                stream = c.compress(data) + c.flush()
                base = os.path.join(HERE, "zlib", "%s-%d-%s" % (name, level, sname))
                with open(base + ".z", "wb") as f:
                    f.write(stream)
        with open(os.path.join(HERE, "zlib", name + ".raw"), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
