#!/usr/bin/env python3
"""Interop between the transferkit CLI and stock Python libraries (cbor2, json, jsonschema).

Archives the CLI writes must read with cbor2 and json (and validate against the published JSON
Schema); archives Python writes with those libraries must be accepted by the CLI.

Usage: python3 Tests/Interop/interop.py PATH/TO/transferkit
Prints one line per check and ends with 'N passed, M failed'; exits 1 if any check failed.
"""
import json
import os
from decimal import Decimal
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

import cbor2
import jsonschema

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "Schemas" / "transfer-archive.schema.json").read_text())
TOOL = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / ".build" / "debug" / "transferkit")
results = []


def check(name, condition, detail=""):
    results.append(bool(condition))
    print(("ok   " if condition else "FAIL ") + name + ("" if condition else f" — {detail}"))


def run(*arguments, stdin=None):
    return subprocess.run([TOOL, *arguments], input=stdin, capture_output=True)


def representations_cbor(archive):
    return [rep for item in archive[2]["items"] for rep in item["representations"]]


with tempfile.TemporaryDirectory() as directory:
    work = Path(directory)
    files = {
        "notes.txt": "hello, world — ✓\n".encode(),
        "blob.bin": bytes(range(256)) * 3,
        "card.json": b'{"name":"Luke","character":"Jedi","favorite":"blue milk"}',
    }
    for name, data in files.items():
        (work / name).write_bytes(data)

    # 1. The CLI writes; Python reads the CBOR form with cbor2.
    packed = run("pack", *(str(work / name) for name in files), "-o", str(work / "a.transferkit"))
    check("CLI packs three files", packed.returncode == 0, packed.stderr.decode())
    raw = (work / "a.transferkit").read_bytes()
    check("CBOR form starts with the self-describe tag", raw[:3] == b"\xd9\xd9\xf7", raw[:3].hex())
    decoded_archive = cbor2.loads(raw)
    # cbor2 6 drops the self-describe tag 55799 while decoding (it only marks the data as CBOR).
    archive = decoded_archive.value if isinstance(decoded_archive, cbor2.CBORTag) else decoded_archive
    check("cbor2 reads the archive as a 3-element array", len(archive) == 3, repr(archive)[:80])
    check("format name and version 1.x", archive[0] == "transferkit-archive" and archive[1][0] == 1, repr(archive[:2]))
    items = archive[2]["items"]
    check("one item per file, named", [item.get("name") for item in items] == list(files), repr(items)[:120])
    reps = representations_cbor(archive)
    check("payloads are the files' bytes", [rep["payload"] for rep in reps] == list(files.values()))
    check(
        "checksums are zlib.crc32 of the payloads",
        all(rep["checksum"] == zlib.crc32(rep["payload"]) for rep in reps),
        repr([(rep["checksum"], zlib.crc32(rep["payload"])) for rep in reps]),
    )
    check(
        "types inferred from extensions (a UTF-8 .txt file is UTF-8 text)",
        [rep["type"] for rep in reps][0] == "public.utf8-plain-text", repr(reps[0]["type"]))
    reencoded = cbor2.dumps(cbor2.CBORTag(55799, archive), canonical=True)
    check("cbor2's canonical encoding gives the same bytes", reencoded == raw, reencoded[:40].hex())

    # 2. The CLI converts; Python reads the JSON form with json and validates it.
    converted = run("convert", str(work / "a.transferkit"), "-o", str(work / "a.json"))
    check("CLI converts to JSON", converted.returncode == 0, converted.stderr.decode())
    document = json.loads((work / "a.json").read_text(encoding="utf-8"))
    try:
        jsonschema.validate(document, SCHEMA)
        check("JSON form validates against Schemas/transfer-archive.schema.json", True)
    except jsonschema.ValidationError as error:
        check("JSON form validates against Schemas/transfer-archive.schema.json", False, error.message)
    json_reps = [rep for item in document["items"] for rep in item["representations"]]
    decoded = [rep["text"].encode() if "text" in rep else __import__("base64").b64decode(rep["base64"]) for rep in json_reps]
    check("JSON payloads are the files' bytes", decoded == list(files.values()))
    check("text is inline, binary is base64", "text" in json_reps[0] and "base64" in json_reps[1], repr(json_reps)[:160])

    # 3. Python writes the CBOR form; the CLI accepts it.
    payload = b"written by python\n"
    python_archive = cbor2.CBORTag(
        55799,
        [
            "transferkit-archive",
            [1, 0],
            {
                "items": [
                    {
                        "name": "py.txt",
                        "metadata": {"language": "python", "nested": {"ok": True}},
                        "representations": [
                            {"type": "public.utf8-plain-text", "payload": payload, "checksum": zlib.crc32(payload)}
                        ],
                    }
                ]
            },
        ],
    )
    (work / "py.transferkit").write_bytes(cbor2.dumps(python_archive, canonical=True))
    checked = run("check", str(work / "py.transferkit"))
    check("CLI checks a cbor2-written archive", checked.returncode == 0, (checked.stdout + checked.stderr).decode())
    extracted = run("extract", str(work / "py.transferkit"), "--type", "public.text")
    check("CLI extracts its payload", extracted.returncode == 0 and extracted.stdout == payload, extracted.stderr.decode())

    # 4. Python writes the JSON form; the CLI accepts it and converts it to the same CBOR bytes.
    python_json = {
        "format": "transferkit-archive",
        "version": [1, 0],
        "items": [
            {
                "name": "py.txt",
                "metadata": {"language": "python", "nested": {"ok": True}},
                "representations": [
                    {"type": "public.utf8-plain-text", "text": payload.decode(), "checksum": zlib.crc32(payload)}
                ],
            }
        ],
    }
    jsonschema.validate(python_json, SCHEMA)
    (work / "py.json").write_text(json.dumps(python_json, indent=2), encoding="utf-8")
    checked = run("check", str(work / "py.json"))
    check("CLI checks a json-written archive", checked.returncode == 0, (checked.stdout + checked.stderr).decode())
    converted = run("convert", str(work / "py.json"), "-o", str(work / "py2.transferkit"))
    check(
        "both Python archives convert to the same CBOR bytes",
        converted.returncode == 0 and (work / "py2.transferkit").read_bytes() == (work / "py.transferkit").read_bytes(),
        converted.stderr.decode(),
    )

    # 5. A wrong checksum from Python is caught: a damaged archive is an input error (exit 2, on stderr).
    python_archive.value[2]["items"][0]["representations"][0]["checksum"] ^= 1
    (work / "bad.transferkit").write_bytes(cbor2.dumps(python_archive, canonical=True))
    checked = run("check", str(work / "bad.transferkit"))
    check(
        "CLI rejects a wrong checksum with exit code 2",
        checked.returncode == 2 and b"checksumMismatch" in checked.stderr,
        (checked.stdout + checked.stderr).decode(),
    )

# 6. The specification's vectors: the independent reader written from Schemas/transfer-archive.md
# (spec_reader.py), JSON Schema and the tool each give the expected verdict for every file.
sys.path.insert(0, str(Path(__file__).resolve().parent))
import spec_reader  # noqa: E402

VECTORS = ROOT / "Schemas" / "vectors"
validator = jsonschema.Draft202012Validator(SCHEMA)


def typed(value):
    """A value with its kind kept, so that 1 and 1.0 differ (spec §3.4); NaN and the infinities as the JSON view
    (spec §10) writes them: {"NaN":null}, {"Infinity":null}, {"-Infinity":null}."""
    if value is None:
        return ("null",)
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return typed({"NaN" if value != value else "Infinity" if value > 0 else "-Infinity": None})
        return ("float", value, str(value))
    if isinstance(value, int):
        return ("int", value)
    if isinstance(value, list):
        return ("list", [typed(element) for element in value])
    if isinstance(value, dict):
        return ("map", sorted((key, typed(element)) for key, element in value.items()))
    return ("string", value)


def version_of(name, data):
    if name.endswith(".json"):
        return [int(Decimal(str(n))) for n in json.loads(data, parse_float=Decimal)["version"][:2]]
    return spec_reader.CBORWalker(data, 3).value(0, "top")[1][:2]


all_vectors = json.loads((VECTORS / "expected.json").read_text())["vectors"]
names = {vector["name"] for vector in all_vectors}
for vector in all_vectors:
    name, data = vector["name"], (VECTORS / vector["name"]).read_bytes()
    expected = "valid" if vector["valid"] else vector["code"]
    try:
        spec_reader.read(data)
        verdict = "valid"
    except spec_reader.SpecError as error:
        verdict = error.code
    check(f"spec reader: {name} is {expected}", verdict == expected, f"it says {verdict}")
    # §3.6, §6: the declarations a 1.1 reader reads, and a 1.0 reader's view (it ignores decls).
    if vector["valid"]:
        declared = spec_reader.read_with_declarations(data)[1]
        check(f"spec reader: {name} declares {len(vector.get('declarations', []))} types in order",
              declared == vector.get("declarations", []), f"it reads {declared}")
    reader10 = vector.get("reader10", vector)
    expected10 = "valid" if reader10["valid"] else reader10["code"]
    try:
        spec_reader.read(data, minor_known=0)
        verdict10 = "valid"
    except spec_reader.SpecError as error:
        verdict10 = error.code
    check(f"spec reader as version 1.0: {name} is {expected10}", verdict10 == expected10, f"it says {verdict10}")
    inspected = run("inspect", str(VECTORS / name))
    tool_ok = inspected.returncode == 0 if vector["valid"] else (
        inspected.returncode == 2 and expected.encode() in inspected.stderr)
    check(f"tool: {name} is {expected}", tool_ok, (inspected.stdout + inspected.stderr).decode()[-300:])
    # §2: the first bytes tell the form, on standard input too.
    piped = run("inspect", "-", stdin=data)
    piped_ok = piped.returncode == 0 if vector["valid"] else (piped.returncode == 2 and expected.encode() in piped.stderr)
    check(f"tool, standard input: {name} is {expected}", piped_ok, (piped.stdout + piped.stderr).decode()[-300:])
    if vector["valid"]:
        # inspect --json: strict JSON, the archive's own minor version, metadata floats kept apart from integers.
        listed = run("inspect", "--json", str(VECTORS / name))
        try:
            listing = json.loads(listed.stdout, parse_constant=lambda c: 1 / 0)
            archive_items = spec_reader.read(data)
            same = (listing["version"] == version_of(name, data) and [
                typed(item["metadata"]) for item in listing["items"]] == [typed(item["metadata"]) for item in archive_items]
                and [d["identifier"] for d in listing.get("declarations", [])] == vector.get("declarations", []))
        except (ValueError, ZeroDivisionError, KeyError, spec_reader.SpecError) as error:
            same = error
        check(f"tool: inspect --json of {name} gives its version, metadata and declarations", same is True,
              f"{same!r} {listed.stdout[-300:]!r} {listed.stderr[-300:]!r}")
    if vector.get("canonical"):
        # §5.2: converting a canonical vector gives its other form's vector, byte for byte.
        other = name[:-len(".json")] + ".transferkit" if name.endswith(".json") else name[:-len(".transferkit")] + ".json"
        if other in names and "toText" not in vector:
            converted = run("convert", str(VECTORS / name), "-o", "-",
                            "--format", "cbor" if other.endswith(".transferkit") else "json")
            check(f"tool: convert {name} writes {other} byte for byte",
                  converted.returncode == 0 and converted.stdout == (VECTORS / other).read_bytes(),
                  (converted.stdout[-200:] + converted.stderr[-300:]).decode(errors="replace"))
    if "schema" in vector:
        try:
            schema_verdict = validator.is_valid(json.loads(data.decode("utf-8")))
        except (UnicodeDecodeError, json.JSONDecodeError):
            schema_verdict = None  # not JSON text at all: only a JSON parser can say so
        agrees = schema_verdict == vector["schema"] or (schema_verdict is None and "beyondSchema" in vector)
        check(f"json schema: {name} is {'valid' if vector['schema'] else 'invalid'}", agrees, f"it says {schema_verdict}")
        if "beyondSchema" not in vector:
            check(f"json schema agrees with the spec on {name}", vector["schema"] == vector["valid"], "")

# The Codable coder (CBOREncoder/CBORDecoder): its output, committed in coder-vectors.json and checked byte for
# byte by CBORTests' interop test, must read with cbor2 as the plain maps and arrays it stands for.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_coder_vectors import VECTORS  # noqa: E402

coder_vectors = json.loads((Path(__file__).resolve().parent / "coder-vectors.json").read_text())
for name, value in VECTORS.items():
    encoded = bytes.fromhex(coder_vectors[name]["canonical"])
    check(f"coder: cbor2 reads the Swift encoding of {name} as plain maps", cbor2.loads(encoded) == value,
          repr(cbor2.loads(encoded))[:120])
    check(f"coder: cbor2's canonical encoding of {name} is the Swift encoding",
          cbor2.dumps(value, canonical=True) == encoded, cbor2.dumps(value, canonical=True).hex())

passed = sum(results)
failed = len(results) - passed
print(f"interop: {passed} passed, {failed} failed")
sys.exit(1 if failed or not results else 0)
