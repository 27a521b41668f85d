#!/usr/bin/env python3
"""Writes the seed corpora of DeclarationsFuzzer, MIMEDatabaseFuzzer and MIMEMagicFuzzer (see Fuzz/README.md).

Declarations: every fixture of Tests/UniformTypesTests/Resources (valid and invalid) plus a few hand-written
shapes. MIME database: each fixture directory of Tests/UniformTypesTests/Resources/mime, the pairs of directories
the precedence tests use, and a slice of the system database (/usr/share/mime) when it is installed, in the
fuzzer's input format: a flags byte (bit 0: legacy `globs`), then types, aliases, subclasses and globs of up to two
directories separated by "\\n--\\n". Names are content hashes, like libFuzzer's own.
"""
import hashlib
import pathlib

root = pathlib.Path(__file__).resolve().parent.parent
resources = root / "Tests/UniformTypesTests/Resources"
separator = b"\n--\n"


def write(folder: pathlib.Path, data: bytes) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)


def read(path: pathlib.Path, limit_lines: int = 0) -> bytes:
    if not path.is_file():
        return b""
    data = path.read_bytes()
    if limit_lines:
        data = b"\n".join(data.split(b"\n")[:limit_lines]) + b"\n"
    return data


def mime_parts(directory: pathlib.Path, limit_lines: int = 0) -> tuple[int, list[bytes]]:
    legacy = not (directory / "globs2").exists() and (directory / "globs").exists()
    globs = read(directory / ("globs" if legacy else "globs2"), limit_lines)
    names = ["types", "aliases", "subclasses"]
    return (1 if legacy else 0), [read(directory / name, limit_lines) for name in names] + [globs]


declarations = root / "Fuzz/DeclarationsFuzzer/corpus"
for path in sorted(resources.glob("*/*.json")):
    write(declarations, path.read_bytes())
for text in [
    '{"exported":[{"identifier":"com.example.a","conformsTo":["public.json"],'
    '"tags":{"public.filename-extension":["a",".b"],"public.mime-type":["application/x-a"]},'
    '"description":"A","referenceURL":"https://example.com/a","version":3}]}',
    '{"imported":[{"identifier":"com.example.b","conformsTo":["com.example.c"]},'
    '{"identifier":"com.example.c"}],"exported":[{"identifier":"com.example.b"}]}',
    '{"$schema":"x","exported":[{"identifier":"public.png"}]}',
    '{"exported":[{"identifier":"com.example.x","tags":{"com.example.class":["\\u00e9"]}}]}',
]:
    write(declarations, text.encode())

mime = root / "Fuzz/MIMEDatabaseFuzzer/corpus"
fixtures = resources / "mime"
for directory in sorted(p for p in fixtures.iterdir() if p.is_dir()):
    flags, parts = mime_parts(directory)
    write(mime, bytes([flags]) + separator.join(parts))
high_flags, high = mime_parts(fixtures / "high")
_, low = mime_parts(fixtures / "low")
write(mime, bytes([high_flags]) + separator.join(high + low))
system = pathlib.Path("/usr/share/mime")
if (system / "globs2").is_file():
    for lines in (40, 200):
        flags, parts = mime_parts(system, lines)
        write(mime, bytes([flags]) + separator.join(parts))


# MIMEMagicFuzzer: a flags byte (bit 0: prepend the MIME-Magic header), a sample length byte, the sample, then the
# magic file; hand-written rules for every construct (masks, word sizes, ranges, nesting, unknown fields) and
# slices of the system's magic file when it is installed, each with a few samples.
magic = root / "Fuzz/MIMEMagicFuzzer/corpus"
header = b"MIME-Magic\0\n"


def line(offset, value, indent=0, mask=None, word=None, rng=None, extra=b""):
    out = (str(indent).encode() if indent else b"") + b">" + str(offset).encode() + b"="
    out += len(value).to_bytes(2, "big") + value
    if mask is not None:
        out += b"&" + mask
    if word is not None:
        out += b"~" + str(word).encode()
    if rng is not None:
        out += b"+" + str(rng).encode()
    return out + extra + b"\n"


samples = [b"", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", b"%PDF-1.7\n", b"\x7fELF\x02\x01\x01\0", b"PK\x03\x04mimetype",
           b"#!/bin/sh\necho hi\n", bytes(64), b"<?xml version=\"1.0\"?><svg", b"\x1f\x8b\x08\0"]
hand = [
    b"[50:image/png]\n" + line(0, b"\x89PNG"),
    b"[80:application/x-high]\n" + line(0, b"PK\x03\x04") + line(30, b"mimetype", indent=1)
    + line(38, b"application/", indent=2, rng=100),
    b"[40:application/x-masked]\n" + line(1, b"\x40\x01", mask=b"\xf0\xff"),
    b"[60:application/x-words]\n" + line(0, b"\x12\x34", word=2) + line(0, b"\xca\xfe\xba\xbe", word=4),
    b"[50:text/x-ranged]\n" + line(0, b"echo", rng=64) + line(0, b"#!", extra=b"^future"),
    b"[90:a/b]\n" + line(0, b"A") + line(1, b"B", indent=1) + line(2, b"C", indent=2) + line(3, b"D", indent=1),
]
for body in hand:
    for sample in samples[:5]:
        write(magic, bytes([1, len(sample)]) + sample + body)
# Rules that cost work (issue 35): a long value over a wide range, and many rules over one sample; with flag bits 1
# (tight work limits) and 2 (the sample repeated up to the rules' reach).
costly = [
    b"[80:application/x-wide]\n" + line(0, b"A" * 2000 + b"B", rng=1 << 20)
    + b"[50:application/x-after]\n" + line(0, b"AAAA"),
    b"".join(b"[50:application/x-flood-%d]\n" % index + line(0, b"A" * 31 + b"B", rng=1000) for index in range(40)),
]
for body in costly:
    for flags in (1, 3, 5, 7):
        write(magic, bytes([flags, 4]) + b"AAAA" + body)
system_magic = pathlib.Path("/usr/share/mime/magic")
if system_magic.is_file():
    data = system_magic.read_bytes()[len(header):]
    sections = [b"[" + part for part in data.split(b"\n[") if part]
    sections[0] = sections[0][1:]
    for start in range(0, min(len(sections), 120), 12):
        body = b"\n".join(section.rstrip(b"\n") for section in sections[start:start + 12]) + b"\n"
        for sample in samples:
            write(magic, bytes([1, len(sample)]) + sample + body)

