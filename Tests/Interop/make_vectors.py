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


def is_json_text(data):
    """Whether `data` is JSON text (RFC 8259) at all; JSON Schema has a verdict only on JSON text (§9)."""
    def no_constant(name):
        raise ValueError(name)

    try:
        json.loads(data.decode("utf-8"), parse_constant=no_constant)
        return True
    except ValueError:
        return False


def add(name, data, valid, code=None, schema=None, beyond=None, canonical=False, to_text=None, declarations=None,
        reader10=None):
    folder = "valid" if valid else "invalid"
    path = OUT / folder / name
    path.write_bytes(data)
    entry = {"name": f"{folder}/{name}", "valid": valid}
    if code:
        entry["code"] = code
    if name.endswith(".json") and is_json_text(data):
        entry["schema"] = valid if schema is None else schema
    if beyond and name.endswith(".json"):
        entry["beyondSchema"] = beyond
    if canonical:
        entry["canonical"] = True  # a conforming writer writes exactly these bytes for the archive they hold
    if to_text:
        entry["toText"] = to_text  # the archive is valid but has no text form: converting it fails with this code
    if declarations:
        entry["declarations"] = declarations  # the identifiers a 1.1 reader reads from decls, in order
    if reader10:
        entry["reader10"] = reader10  # a 1.0 reader's verdict, where it differs (it ignores decls, §6)
    vectors.append(entry)


def both(name, value, valid=True, code=None, schema=None, beyond=None, canonical=None, declarations=None,
         reader10=None):
    canonical = valid if canonical is None else canonical
    add(name + ".transferkit", cbor_bytes(value), valid, code, canonical=canonical, declarations=declarations,
        reader10=reader10)
    add(name + ".json", canonical_json(json_value(value)), valid, code, schema, beyond, canonical=canonical,
        declarations=declarations, reader10=reader10)


def head(major, argument):
    """A CBOR head in its shortest form (for vectors cbor2 cannot write)."""
    if argument < 24:
        return bytes([major << 5 | argument])
    for info, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if argument < 1 << (8 * size):
            return bytes([major << 5 | info]) + argument.to_bytes(size, "big")
    raise ValueError(argument)


def text(string):
    data = string.encode() if isinstance(string, str) else string
    return head(3, len(data)) + data


def archive_with_item_extra(extra_key, extra_value_bytes):
    """The binary form of one item holding `hello` and one unknown key whose value is given as raw CBOR."""
    hello_rep = (head(5, 3) + text("type") + text("public.utf8-plain-text") + text("payload") + head(2, 5) + b"hello"
                 + text("checksum") + head(0, crc(b"hello")))
    keys = sorted([(text(extra_key), extra_value_bytes), (text("representations"), head(4, 1) + hello_rep)],
                  key=lambda pair: pair[0])
    item_bytes = head(5, 2) + b"".join(k + v for k, v in keys)
    return (b"\xd9\xd9\xf7" + head(4, 3) + text("transferkit-archive") + head(4, 2) + head(0, 1) + head(0, 0)
            + head(5, 1) + text("items") + head(4, 1) + item_bytes)


def text_archive(body, version="[1,0]"):
    """A text archive whose items array is `body` (raw JSON text)."""
    return ('{"format":"transferkit-archive","items":' + body + ',"version":' + version + '}\n').encode()


def text_hello(checksum=None, extra=""):
    return '{"checksum":%s,"text":"hello","type":"public.utf8-plain-text"%s}' % (
        crc(b"hello") if checksum is None else checksum, extra)


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
both("minor-version-7", archive([item([hello])], version=(1, 7)), canonical=False)
both("unknown-keys-everywhere", canonical=False, value=archive(
    [item([rep("public.utf8-plain-text", b"hi", future="ignored")], later=[1, 2])],
    version=(1, 0, "extra"), body_extra={"annotations": {"by": "a future writer"}}, top_extra=("trailer",)))
both("metadata-depth-16", archive([item([hello], metadata={"a": [[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]})]))

# Text-form-only valid vectors: what a reader must accept though a writer never writes it.
# Float text (§5.2): around 2^53, 1e16 and 1e21, where shortest round-trip formatters switch notation, and
# subnormals. The library, the tool and Python's json all write exactly these bytes.
both("float-text-boundaries", archive([item([hello], metadata={
    "2^53": 2.0 ** 53, "2^53+2": 2.0 ** 53 + 2, "9.5e15": 9.5e15, "below-1e16": 9999999999999998.0,
    "1e16": 1e16, "1e15": 1e15, "below-1e21": 999999999999999900000.0, "1e21": 1e21, "1e22": 1e22,
    "negative": -9.5e15, "max": 1.7976931348623157e308, "min-normal": 2.2250738585072014e-308,
    "max-subnormal": 2.225073858507201e-308, "min-subnormal": 5e-324, "subnormal": 1.5e-310,
    "1e-4": 0.0001, "1e-5": 0.00001, "zero": 0.0, "negative-zero": -0.0, "third": 1 / 3,
    "2^63": 2.0 ** 63, "tie": 5e-324 * 3})]))
# Metadata keys (§3.4): canonically equivalent keys are one key; keys use Unicode 3.2's repertoire.
both("metadata-keys-unicode-3-2", archive([item([hello], metadata={"é": 1, "日本": 2, "Ωmega": 3})]))
both("metadata-keys-canonically-equivalent", archive([item([hello], metadata={"\u00e9": 1, "e\u0301": 2})]),
     False, "malformed", schema=True, beyond="canonical equivalence of keys (NFC)")
both("metadata-keys-unicode-15-pair", archive([item([hello], metadata={
    "a\u0301\U00010EFD": 1, "a\U00010EFD\u0301": 2})]), False, "unrepresentableValue", schema=True,
     beyond="the Unicode 3.2 repertoire of keys")
both("metadata-key-emoji", archive([item([hello], metadata={"\U0001F600": 1})]), False, "unrepresentableValue",
     schema=True, beyond="the Unicode 3.2 repertoire of keys")
# Names (§3.2): no control character.
both("name-tab", archive([item([hello], name="a\tb")]), False, "invalidName")
both("name-c1-control", archive([item([hello], name="a\u009bb")]), False, "invalidName")
both("name-delete", archive([item([hello], name="a\u007fb")]), False, "invalidName")
# Version (§5.1, §6): any minor version from 0 to 2^64-1, written as any JSON number whose exact value it is.
both("minor-version-uint64-max", archive([item([hello])], version=(1, 2 ** 64 - 1)), canonical=False)
both("minor-version-negative", archive([item([hello])], version=(1, -1)), False, "malformed")
add("minor-version-1e16.json", text_archive("[]", "[1,1e16]"), True)
add("minor-version-2-53-plus-1.json", text_archive("[]", "[1,9007199254740993.0]"), True)
add("minor-version-negative-zero.json", text_archive("[]", "[1,-0]"), True)
add("minor-version-2-64.json", text_archive("[]", "[1,18446744073709551616]"), False, "malformed")
add("minor-version-fraction.json", text_archive("[]", "[1,0.5]"), False, "malformed")
add("major-version-exponent.json", text_archive("[]", "[1e0,0]"), True)
# Checksums (§5.1): the exact decimal value, not the binary64 a parser may round it to.
add("checksum-almost-integer.json", text_archive("[{\"representations\":[%s]}]" % text_hello("907060870.00000000001")),
    False, "malformed", schema=True, beyond="JSON Schema tools may round the number to binary64 first")
add("checksum-exponent.json", text_archive("[{\"representations\":[%s]}]" % text_hello("9.0706087e8")), True)
add("checksum-1e400.json", text_archive("[{\"representations\":[%s]}]" % text_hello("1e400")), False, "malformed")
add("checksum-1e-400.json", text_archive("[{\"representations\":[%s]}]" % text_hello("1e-400")), False,
    "malformed", schema=True, beyond="JSON Schema tools may round the number to binary64 (0) first")
add("checksum-negative-zero.json", text_archive(
    '[{"representations":[{"checksum":-0,"text":"","type":"public.data"}]}]'), True)
# Metadata numbers (§5.1): overflow is unrepresentable, underflow rounds to 0 or a subnormal, -0 is the integer 0.
add("metadata-float-overflow.json", text_archive(
    '[{"metadata":{"x":1e400},"representations":[]}]'), False, "unrepresentableValue", schema=True,
    beyond="the range of binary64")
add("metadata-float-underflow.json", text_archive('[{"metadata":{"x":1e-400},"representations":[]}]'), True)
add("metadata-integer-negative-zero.json", text_archive('[{"metadata":{"x":-0},"representations":[]}]'), True)
add("metadata-infinity-literal.json", text_archive('[{"metadata":{"x":Infinity},"representations":[]}]'), False,
    "malformed", beyond="not JSON (Infinity is not a JSON value)")
# NaN and the infinities (§3.4): valid in the binary form, with no text form.
add("metadata-non-finite.transferkit", cbor_bytes(archive([item([hello], metadata={
    "nan": float("nan"), "infinity": float("inf"), "-infinity": float("-inf")})])), True,
    canonical=True, to_text="unrepresentableValue")
# base64 (§5.1): the padding bits must be zero, so each byte string has one base64 spelling.
for label, encoded in [("one-pad", "aGVsbG9="), ("two-pads", "aGVsbB==")]:
    add(f"base64-non-zero-padding-bits-{label}.json", text_archive(
        '[{"representations":[{"base64":"%s","checksum":%d,"type":"public.data"}]}]' % (encoded, crc(base64.b64decode(encoded)))),
        False, "invalidBase64")
# Unknown keys' values (§4.2, §5.1, §6): ignored, but every rule of the encoding applies inside them.
add("unknown-value-keys-out-of-order.transferkit",
    archive_with_item_extra("later", head(5, 2) + text("bb") + head(0, 1) + text("a") + head(0, 2)), False, "malformed")
add("unknown-value-key-twice.transferkit",
    archive_with_item_extra("later", head(5, 2) + text("a") + head(0, 1) + text("a") + head(0, 2)), False, "malformed")
add("unknown-value-invalid-utf8.transferkit", archive_with_item_extra("later", text(b"\xff")), False, "invalidUTF8")
add("unknown-value-non-shortest-integer.transferkit", archive_with_item_extra("later", b"\x18\x01"), False,
    "malformed")
add("unknown-value-mixed-keys-bytewise.transferkit",
    archive_with_item_extra("later", head(5, 2) + head(0, 24) + head(0, 1) + text("") + head(0, 2)), True)
add("unknown-value-mixed-keys-length-first.transferkit",
    archive_with_item_extra("later", head(5, 2) + text("") + head(0, 2) + head(0, 24) + head(0, 1)), False, "malformed")
add("unknown-value-tags-and-simple-values.transferkit", archive_with_item_extra(
    "later", head(4, 5) + head(6, 2) + head(2, 2) + b"\x00\x01" + head(6, 0) + head(0, 7) + bytes([0xf0]) + b"\xf7"
    + b"\xf6"), True)
add("unknown-value-lone-surrogate.json", text_archive('[{"later":"\\ud800","representations":[]}]'), False,
    "invalidUTF8", schema=True, beyond="JSON Schema tools accept lone surrogates")
# Nesting (§7): at most 64 levels of arrays, maps and tags from the top (the self-describe tag not counted), ignored
# values included. Binary: top array 1, body 2, items 3, item 4; text: document 1, items 2, item 3.
for depth, valid in ((64, True), (65, False)):
    nested_binary = head(4, 1) * (depth - 4) + head(0, 1)
    add(f"unknown-value-depth-{depth}.transferkit", archive_with_item_extra("later", nested_binary), valid,
        None if valid else "limitExceeded")
    nested_text = "[" * (depth - 3) + "1" + "]" * (depth - 3)
    add(f"unknown-value-depth-{depth}.json", text_archive('[{"later":%s,"representations":[]}]' % nested_text), valid,
        None if valid else "limitExceeded", schema=True, beyond=None if valid else "a reader limit (nesting)")
# Keys (§7): a key outside metadata has at most 256 octets, in the archive's maps and in ignored ones alike;
# metadata keys are bounded by the metadata size only.
both("unknown-key-256-octets", archive([item([rep("public.data", b"", **{"k" * 256: 1})])]), canonical=False)
both("unknown-key-257-octets", archive([item([rep("public.data", b"", **{"k" * 257: 1})])]), False, "limitExceeded",
     schema=True, beyond="a reader limit (key length)")
add("ignored-map-key-257-octets.transferkit",
    archive_with_item_extra("later", head(5, 1) + text("k" * 257) + head(0, 1)), False, "limitExceeded")
add("ignored-map-key-257-octets.json", text_archive('[{"later":{"%s":1},"representations":[]}]' % ("k" * 257)),
    False, "limitExceeded", schema=True, beyond="a reader limit (key length)")
both("metadata-key-300-octets", archive([item([hello], metadata={"k" * 300: 1})]))
# Sizes (§7): one item's metadata counts the octets of its value as written, white space and escapes inside it
# included; the key and the white space around the value are not counted.
for extra, valid in ((0, True), (1, False)):
    limit = 1 << 20
    filler = "x" * (limit - len('{ "k" :"\\u0041"}') + extra)
    spaced = '{ "k" :"' + filler + '\\u0041"}'  # 1 MiB (+1) with the space and the escape counted
    add(f"metadata-size-{'at-limit' if valid else 'over-limit'}.json",
        text_archive('[{"metadata":  %s  ,"representations":[]}]' % spaced), valid, None if valid else "limitExceeded",
        schema=True, beyond=None if valid else "a reader limit (metadata size)")
    binary_filler = "x" * (limit - 1 - 2 - 5 + extra)  # map head, key "k", text head of 5 bytes
    add(f"metadata-size-{'at-limit' if valid else 'over-limit'}.transferkit",
        cbor_bytes(archive([item([], metadata={"k": binary_filler})])), valid, None if valid else "limitExceeded")

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
# §2, §4.1: the tag marks CBOR; an archive is the tag followed by an array that starts with the format name.
add("self-describe-tag-twice.transferkit", b"\xd9\xd9\xf7" + cbor_bytes(archive([])), False, "notAnArchive")
add("self-describe-tag-on-a-map.transferkit", cbor2.dumps(cbor2.CBORTag(55799, {"format": "transferkit-archive"}),
                                                        canonical=True), False, "notAnArchive")
add("top-level-array-too-short.transferkit", cbor2.dumps(cbor2.CBORTag(55799, ["transferkit-archive", [1, 0]]),
                                                        canonical=True), False, "malformed")
# §8: two faults; a reader reports the first in the binary form's order, whatever the text form's key order.
two_faults = archive([item([rep("public.data", b"x", checksum=1)])], version=(2, 0))
add("two-faults-version-and-checksum.transferkit", cbor_bytes(two_faults), False, "unsupportedVersion")
add("two-faults-version-and-checksum.json", text_archive(
    '[{"representations":[{"checksum":1,"text":"x","type":"public.data"}]}]', "[2,0]"), False, "unsupportedVersion")
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

# --- Issue 37: declarations (§3.6, format 1.1) ---
card_json = rep("com.example.card", b'{"name":"Ryu","level":3}')
card = {"identifier": "com.example.card", "conformsTo": ["public.json"], "description": "Example card",
        "tags": {"public.filename-extension": ["card"], "public.mime-type": ["application/vnd.example.card+json"]}}


def declaring(decls, items=None, version=(1, 1)):
    """An archive of `items` (one card by default) carrying `decls`."""
    return archive([item([card_json])] if items is None else items, version=version, body_extra={"decls": decls})


# A 1.0 reader ignores decls and reads the same items: its verdict on a 1.1 archive with a broken declaration.
READER10_VALID = {"valid": True}
both("declarations", declaring([card]), declarations=["com.example.card"])
both("declarations-parents-and-an-unknown-parent", declaring([
    {"identifier": "com.example.base", "conformsTo": ["public.json"]},
    {"identifier": "com.example.card", "conformsTo": ["com.example.base"]},
    {"identifier": "com.example.orphan", "conformsTo": ["com.example.missing"]}]),
    declarations=["com.example.base", "com.example.card", "com.example.orphan"])
both("declarations-unknown-keys-and-empty-fields", declaring([
    {"identifier": "com.example.card", "conformsTo": [], "tags": {"public.mime-type": []}, "later": [1, {"a": 2}]}]),
    canonical=False, declarations=["com.example.card"])
both("declarations-1024", declaring([{"identifier": "com.example.t%d" % n} for n in range(1024)], items=[]),
     declarations=["com.example.t%d" % n for n in range(1024)])
# §6: in a 1.0 archive, decls is an unknown key, ignored whatever it holds; a 1.1 reader sees what a 1.0 reader sees.
both("declarations-in-version-1-0-ignored", declaring([{"identifier": "a..b"}, 7], version=(1, 0)),
     canonical=False, schema=True)
both("declarations-not-an-array", declaring({"identifier": "com.example.card"}), False, "malformed",
     reader10=READER10_VALID)
both("declaration-not-a-map", declaring(["com.example.card"]), False, "malformed", reader10=READER10_VALID)
both("declaration-without-identifier", declaring([{"conformsTo": ["public.json"]}]), False, "malformed",
     reader10=READER10_VALID)
both("declaration-identifier-double-dot", declaring([{"identifier": "com..card"}]), False, "invalidIdentifier",
     reader10=READER10_VALID)
both("declaration-parent-invalid", declaring([{"identifier": "com.example.card", "conformsTo": ["public json"]}]),
     False, "invalidIdentifier", reader10=READER10_VALID)
both("declaration-tag-class-invalid", declaring([{"identifier": "com.example.card", "tags": {"mime type": ["x"]}}]),
     False, "invalidIdentifier", reader10=READER10_VALID)
both("declaration-tag-not-text", declaring([{"identifier": "com.example.card", "tags": {"public.mime-type": [1]}}]),
     False, "malformed", reader10=READER10_VALID)
both("declaration-dynamic-type", declaring([{"identifier": "dyn.ah62d4rv4ge80"}]), False, "invalidDeclaration",
     reader10=READER10_VALID)
both("declaration-dynamic-type-upper-case", declaring([{"identifier": "DYN.card"}]), False, "invalidDeclaration",
     reader10=READER10_VALID)
both("declaration-twice-other-case", declaring([card, {"identifier": "COM.example.CARD"}]), False,
     "invalidDeclaration", schema=True, beyond="uniqueness of declared identifiers, compared case-insensitively",
     reader10=READER10_VALID)
both("declaration-tag-empty", declaring([{"identifier": "com.example.card", "tags": {"public.mime-type": [""]}}]),
     False, "invalidDeclaration", reader10=READER10_VALID)
both("declaration-tag-control-character", declaring([
    {"identifier": "com.example.card", "tags": {"public.filename-extension": ["ca\trd"]}}]),
    False, "invalidDeclaration", reader10=READER10_VALID)
both("declaration-tag-1025-octets", declaring([
    {"identifier": "com.example.card", "tags": {"public.mime-type": ["application/" + "x" * 1013]}}]),
    False, "invalidDeclaration", schema=True, beyond="the length of a tag in octets", reader10=READER10_VALID)
both("declaration-description-1025-octets", declaring([{"identifier": "com.example.card", "description": "é" * 512 + "x"}]),
     False, "invalidDeclaration", schema=True, beyond="the length of a description in octets", reader10=READER10_VALID)
both("declaration-description-line-feed", declaring([{"identifier": "com.example.card", "description": "two\nlines"}]),
     False, "invalidDeclaration", reader10=READER10_VALID)
# §8: the tag (first in the binary key order) is the fault reported, not the identifier after it.
both("two-faults-declaration-tag-and-identifier", declaring([
    {"identifier": "com..card", "tags": {"public.mime-type": [""]}}]), False, "invalidDeclaration",
     reader10=READER10_VALID)
both("declarations-1025", declaring([{"identifier": "com.example.t%d" % n} for n in range(1025)], items=[]), False,
     "limitExceeded", schema=True, beyond="a reader limit (declarations)", reader10=READER10_VALID)
both("declarations-size-over-limit", declaring(
    [{"identifier": "com.example.t%d" % n, "description": "x" * 1024} for n in range(1024)], items=[]), False,
     "limitExceeded", schema=True, beyond="a reader limit (declarations size)", reader10=READER10_VALID)

# Issue 37: gaps. Each vector below pins a rule the spec left open ("Gaps closed in 1.1" in its change log).
# §2: the bytes after the tag decide whether the input is an archive; an input that ends before they can is truncated.
add("self-describe-tag-alone.transferkit", b"\xd9\xd9\xf7", False, "truncated")
add("self-describe-tag-empty-array.transferkit", b"\xd9\xd9\xf7\x80", False, "notAnArchive")
add("format-name-cut-short.transferkit", b"\xd9\xd9\xf7\x83\x73transferkit", False, "truncated")
# A first element that is not a 19-octet text string is another format, whether or not the input goes on.
add("format-name-head-of-20-octets.transferkit", b"\xd9\xd9\xf7\x83\x74transferkit-archive", False, "notAnArchive")
# §8: a text form that ends where JSON could go on is truncated (not malformed), whatever it ends inside.
cut_source = canonical_json(json_value(archive([item([hello], name="note.txt")])))
add("text-ends-inside-a-string.json", cut_source[:cut_source.index(b"note") + 2], False, "truncated",
    beyond="not JSON (the text ends early)")
add("text-ends-before-the-last-brace.json", cut_source[:-2], False, "truncated", beyond="not JSON (the text ends early)")
add("text-ends-inside-a-literal.json", b'{"format":"transferkit-archive","items":[{"later":tru', False, "truncated",
    beyond="not JSON (the text ends early)")
add("text-ends-after-a-high-surrogate.json", b'{"format":"transferkit-archive","items":[{"later":"\\ud800', False,
    "truncated", beyond="not JSON (the text ends early)")
# §8: the text form's first phase is a sequence of passes (size, UTF-8, one front-to-back reading of the JSON, the
# length of keys outside metadata); within the reading, the first fault met wins.
add("text-ends-inside-a-utf8-sequence.json", cut_source[:cut_source.index(b"note")] + "é".encode()[:1], False,
    "invalidUTF8", beyond="not UTF-8, so not JSON text")
add("text-lone-surrogate-before-a-syntax-error.json",
    b'{"format":"transferkit-archive","items":[{"later":"\\ud800","representations":[]}],"version":[1,0],}\n', False,
    "invalidUTF8", beyond="not JSON (a trailing comma); the lone surrogate comes first")
add("text-deep-nesting-before-a-duplicate-key.json", text_archive(
    '[{"later":%s,"representations":[]}]' % ("[" * 62 + "1" + "]" * 62), "[1,0],\"version\":[1,0]"), False,
    "limitExceeded", schema=True, beyond="a reader limit (nesting) before a duplicate key (JSON parsers keep one)")
add("text-long-key-before-a-syntax-error.json",
    ('{"format":"transferkit-archive","items":[{"%s":1,"representations":[]}],"version":[1,0],}\n'
     % ("k" * 257)).encode(), False, "malformed", beyond="not JSON (a trailing comma), found before key lengths")
# §7: a key outside metadata counts its decoded octets, not its escapes.
add("unknown-key-256-octets-escaped.json",
    text_archive('[{"%s":1,"representations":[]}]' % ("\\u006b" * 256)), True)
# §5.1: outside metadata, keys are compared as their decoded characters, without NFC (as §4.2 compares CBOR keys).
add("ignored-object-keys-canonically-equivalent.json",
    text_archive('[{"later":{"\u00e9":1,"e\u0301":2},"representations":[]}]'), True)
add("ignored-map-keys-canonically-equivalent.transferkit", archive_with_item_extra(
    "later", head(5, 2) + text("\u00e9") + head(0, 1) + text("e\u0301") + head(0, 2)), True)
add("ignored-object-key-twice-escaped.json", text_archive('[{"later":{"a":1,"\\u0061":2},"representations":[]}]'),
    False, "malformed", schema=True, beyond="duplicate keys (JSON parsers keep one)")
# §3.4: canonical equivalence is Unicode 4.1's or later; Corrigendum #4 changed five decompositions after 3.2.
both("metadata-keys-corrigendum-4", archive([item([hello], metadata={"\U0002F868": 1, "\u36FC": 2})]), False,
     "malformed", schema=True, beyond="canonical equivalence of keys (NFC)")
both("metadata-keys-corrigendum-4-old-mapping", archive([item([hello], metadata={"\U0002F868": 1, "\U0002136A": 2})]))
# §7, §8: a count or length is checked at the head that declares it, before what it counts (faulty or missing).
items_head = b"\xd9\xd9\xf7\x83" + text("transferkit-archive") + b"\x82\x01\x00\xa1" + text("items") + head(4, 65537)
add("items-declared-over-limit-then-cut.transferkit",
    items_head + cbor2.dumps(item([rep("public.data", b"x", checksum=1)]), canonical=True), False, "limitExceeded")
add("payload-declared-over-limit-then-cut.transferkit",
    good[:good.index(b"payload") + len(b"payload")] + head(2, (1 << 40) + 1), False, "limitExceeded")
both("representations-over-limit-after-a-checksum-fault", archive([item(
    [rep("public.data", b"", checksum=1)] + [rep(f"t{index}", b"") for index in range(256)])]), False,
     "limitExceeded", schema=True, beyond="a reader limit (representations)")
# §3.2, §7: a name's length is checked before its characters.
both("name-over-limit-with-slash", archive([item([hello], name="a/" + "x" * 1023)]), False, "limitExceeded")
# §5.1: base64 ends at the end of the string; the schema's pattern must not accept a final line feed.
add("base64-final-line-feed.json", text_archive(
    '[{"representations":[{"base64":"aGVsbG8=\\n","checksum":%d,"type":"public.data"}]}]' % crc(b"hello")), False,
    "invalidBase64")

(OUT / "expected.json").write_text(
    json.dumps({"format": "transferkit-archive vectors", "vectors": sorted(vectors, key=lambda v: v["name"])},
               indent=1, ensure_ascii=False) + "\n")
print(f"{len(vectors)} vectors written to {OUT}")
