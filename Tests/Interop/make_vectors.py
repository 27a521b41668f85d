#!/usr/bin/env python3
"""Writes the archive test vectors, Schemas/vectors/{valid,invalid}/* and Schemas/vectors/expected.json.

Each vector breaks at most one rule of Schemas/transfer-archive.md; the expected result is the spec's
verdict, and for the text form also JSON Schema's (which cannot check every rule, see `beyondSchema`).
The files are committed; run this again only to change the set: python3 Tests/Interop/make_vectors.py
"""
import base64
import json
import zlib
from pathlib import Path

import cbor2

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "Schemas" / "vectors"
vectors = []


def crc(data):
    return zlib.crc32(data)


def rep(type_, data, checksum=None, **extra):
    value = {"type": type_, "payload": data, "checksum": crc(data) if checksum is None else checksum}
    value.update(extra)
    return value


def item(reps, name=None, metadata=None, **extra):
    value = {"representations": reps}
    if name is not None:
        value["name"] = name
    if metadata:
        value["metadata"] = metadata
    value.update(extra)
    return value


def archive(items, version=(1, 0), body_extra=None, top_extra=()):
    body = {"items": items}
    body.update(body_extra or {})
    return ["transferkit-archive", list(version), body, *top_extra]


def cbor_bytes(value):
    return cbor2.dumps(cbor2.CBORTag(55799, value), canonical=True)


def json_value(value):
    """The text form of an archive value built with the helpers above (payloads become text or base64)."""
    def rep_json(r):
        out = {k: v for k, v in r.items() if k != "payload"}
        data = r["payload"]
        try:
            out["text"] = data.decode("utf-8")
        except UnicodeDecodeError:
            out["base64"] = base64.b64encode(data).decode()
        return out

    def item_json(i):
        out = {k: v for k, v in i.items() if k != "representations"}
        if "representations" in i:
            out["representations"] = [rep_json(r) for r in i["representations"]]
        return out

    top = {"format": value[0], "version": value[1], "items": [item_json(i) for i in value[2]["items"]]}
    top.update({k: v for k, v in value[2].items() if k != "items"})
    return top


def canonical_json(value):
    return (json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n").encode()


def add(name, data, valid, code=None, schema=None, beyond=None):
    folder = "valid" if valid else "invalid"
    path = OUT / folder / name
    path.write_bytes(data)
    entry = {"name": f"{folder}/{name}", "valid": valid}
    if code:
        entry["code"] = code
    if name.endswith(".json"):
        entry["schema"] = valid if schema is None else schema
        if beyond:
            entry["beyondSchema"] = beyond
    vectors.append(entry)


def both(name, value, valid=True, code=None, schema=None, beyond=None):
    add(name + ".transferkit", cbor_bytes(value), valid, code)
    add(name + ".json", canonical_json(json_value(value)), valid, code, schema, beyond)


for folder in ("valid", "invalid"):
    (OUT / folder).mkdir(parents=True, exist_ok=True)
    for old in (OUT / folder).iterdir():
        old.unlink()

hello = rep("public.utf8-plain-text", b"hello")
png = rep("public.png", bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]))

# --- Valid ---
both("empty", archive([]))
both("one-text-item", archive([item([hello], name="note.txt", metadata={"size": 42})]))
both("binary-and-text", archive([item([png, hello]), item([])]))
both("metadata-every-kind", archive([item([hello], metadata={
    "text": "ü\n\"\\/", "int": -9223372036854775808, "big": 9223372036854775807, "float": 0.5,
    "whole-float": 1.0, "tiny": 1e-05, "huge": 1.5e300, "bool": True,
    "list": [1, "two", [3.25]], "map": {"nested": {"deeper": False}}})]))
both("identifier-leading-dash", archive([item([rep("-leading.dash", b"x")])]))
both("identifier-mixed-case-and-digits", archive([item([rep("com.Example.Card-2", b"{}")])]))
both("text-bytes-of-a-binary-type", archive([item([rep("public.png", b"not really a png")])]))
both("minor-version-7", archive([item([hello])], version=(1, 7)))
both("unknown-keys-everywhere", archive(
    [item([rep("public.utf8-plain-text", b"hi", future="ignored")], later=[1, 2])],
    version=(1, 0, "extra"), body_extra={"annotations": {"by": "a future writer"}}, top_extra=("trailer",)))
both("metadata-depth-16", archive([item([hello], metadata={"a": [[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]})]))

# Text-form-only valid vectors: what a reader must accept though a writer never writes it.
add("base64-for-utf8-bytes.json", canonical_json({
    "format": "transferkit-archive", "version": [1, 0],
    "items": [{"representations": [{"type": "public.utf8-plain-text", "base64": "aGVsbG8=", "checksum": crc(b"hello")}]}]}),
    True)
add("not-canonical-white-space-and-order.json", json.dumps({
    "version": [1, 0], "items": [{"representations": [
        {"type": "public.utf8-plain-text", "checksum": crc(b"hello"), "text": "hello"}]}],
    "format": "transferkit-archive"}, indent=2).encode(), True)
add("integral-numbers-written-as-floats.json", (
    '{"format":"transferkit-archive","items":[{"representations":[{"checksum":' + f"{crc(b'hello')}.0"
    + ',"text":"hello","type":"public.utf8-plain-text"}]}],"version":[1.0,0e0]}\n').encode(), True)

# --- Invalid: identifiers (§3.1) ---
for label, identifier in [("double-dot", "a..b"), ("trailing-dot", "trailing."), ("leading-dot", ".x"),
                          ("non-ascii", "com.example.café"), ("space", "a b"), ("line-feed", "a\n"),
                          ("empty", ""), ("too-long", "a" * 256)]:
    both("identifier-" + label, archive([item([rep(identifier, b"x")])]), False, "invalidIdentifier")

# --- Invalid: names (§3.2) ---
for label, name in [("slash", "a/b"), ("dot-dot", ".."), ("empty", ""), ("nul", "a\x00b")]:
    both("name-" + label, archive([item([hello], name=name)]), False, "invalidName")

# --- Invalid: representations and checksums (§3.3, §3.5) ---
both("checksum-mismatch", archive([item([rep("public.utf8-plain-text", b"hello", checksum=crc(b"hellO"))])]),
     False, "checksumMismatch", schema=True, beyond="the checksum is computed over the bytes")
both("checksum-mismatch-in-a-later-item", archive([item([hello]), item([rep("public.png", b"\x00", checksum=1)])]),
     False, "checksumMismatch", schema=True, beyond="the checksum is computed over the bytes")
both("duplicate-type-other-case", archive([item([hello, rep("PUBLIC.UTF8-plain-text", b"x")])]),
     False, "duplicateType", schema=True, beyond="uniqueness of types, compared case-insensitively")
both("checksum-too-large", archive([item([rep("public.data", b"", checksum=2**32)])]), False, "malformed")

# --- Invalid: layout, versions (§4, §5, §6) ---
both("major-version-2", archive([item([hello])], version=(2, 0)), False, "unsupportedVersion")
both("other-format-name", ["transferkit-archiv", [1, 0], {"items": []}], False, "notAnArchive")
both("null-metadata", archive([item([hello], metadata={"x": None})]), False, "malformed")
both("missing-representations", ["transferkit-archive", [1, 0], {"items": [{"name": "x"}]}], False, "malformed")
both("metadata-depth-17", archive([item([hello], metadata={"a": [[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]})]),
     False, "limitExceeded", schema=True, beyond="a reader limit (metadata nesting)")

# Binary-form faults.
good = cbor_bytes(archive([item([hello])]))
add("trailing-byte.transferkit", good + b"\x00", False, "malformed")
add("two-archives-concatenated.transferkit", good + good, False, "malformed")
add("truncated-in-payload.transferkit", good[:-12], False, "truncated")
add("no-self-describe-tag.transferkit", cbor2.dumps(archive([]), canonical=True), False, "notAnArchive")
# Item keys out of the deterministic order: "representations" before "name".
out_of_order = (b"\xd9\xd9\xf7\x83\x73transferkit-archive\x82\x01\x00\xa1\x65items\x81\xa2"
                + b"\x6frepresentations\x80" + b"\x64name\x61x")
add("keys-out-of-order.transferkit", out_of_order, False, "malformed")
# A length in a longer head than needed (not the shortest form).
add("non-shortest-length.transferkit",
    b"\xd9\xd9\xf7\x83\x78\x13transferkit-archive\x82\x01\x00\xa1\x65items\x80", False, "malformed")
add("indefinite-length-array.transferkit",
    b"\xd9\xd9\xf7\x9f\x73transferkit-archive\x82\x01\x00\xa1\x65items\x80\xff", False, "malformed")
add("duplicate-top-level-key.transferkit",
    b"\xd9\xd9\xf7\x83\x73transferkit-archive\x82\x01\x00\xa2\x65items\x80\x65items\x80", False, "malformed")

# Text-form faults.
text_hello = '{"checksum":%d,"text":"hello","type":"public.utf8-plain-text"}' % crc(b"hello")
add("duplicate-items-key.json",
    ('{"format":"transferkit-archive","items":[],"items":[{"representations":[%s]}],"version":[1,0]}\n'
     % text_hello).encode(), False, "malformed", schema=True, beyond="duplicate keys (JSON parsers keep one)")
add("text-and-base64.json",
    ('{"format":"transferkit-archive","items":[{"representations":[{"base64":"aGVsbG8=","checksum":%d,'
     '"text":"hello","type":"public.utf8-plain-text"}]}],"version":[1,0]}\n' % crc(b"hello")).encode(),
    False, "malformed")
add("bad-base64.json",
    ('{"format":"transferkit-archive","items":[{"representations":[{"base64":"aGVsbG8","checksum":%d,'
     '"type":"public.utf8-plain-text"}]}],"version":[1,0]}\n' % crc(b"hello")).encode(), False, "invalidBase64")
add("trailing-text.json", canonical_json(json_value(archive([]))) + b"x", False, "malformed", schema=True,
    beyond="text after the document (not JSON)")
add("trailing-comma.json",
    b'{"format":"transferkit-archive","items":[],"version":[1,0],}\n', False, "malformed", schema=True,
    beyond="not JSON (RFC 8259 has no trailing commas)")
add("not-utf8.json",
    b'{"format":"transferkit-archive","items":[{"name":"\xff","representations":[]}],"version":[1,0]}\n',
    False, "invalidUTF8", schema=True, beyond="not UTF-8, so not JSON text")
add("fractional-checksum.json",
    ('{"format":"transferkit-archive","items":[{"representations":[{"checksum":0.5,"text":"",'
     '"type":"public.data"}]}],"version":[1,0]}\n').encode(), False, "malformed")
add("not-an-object.txt", b"plain words\n", False, "notAnArchive")

(OUT / "expected.json").write_text(
    json.dumps({"format": "transferkit-archive vectors", "vectors": sorted(vectors, key=lambda v: v["name"])},
               indent=1, ensure_ascii=False) + "\n")
print(f"{len(vectors)} vectors written to {OUT}")
