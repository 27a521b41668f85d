#!/usr/bin/env python3
"""Writes the seed corpora of DeclarationsFuzzer and MIMEDatabaseFuzzer (see Fuzz/README.md).

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
