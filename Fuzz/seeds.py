#!/usr/bin/env python3
"""Writes the seed corpora of the archive fuzzers (Fuzz/README.md). Needs cbor2: pip install cbor2.

Valid archives of several shapes in both forms, and a few interesting invalid ones. Run from anywhere:
    python3 Fuzz/seeds.py
"""
import base64
import json
import os
import zlib

import cbor2

HERE = os.path.dirname(os.path.abspath(__file__))
SELF_DESCRIBE = b"\xd9\xd9\xf7"


def rep(type_, payload, **extra):
    return {"type": type_, "payload": payload, "checksum": zlib.crc32(payload), **extra}


def item(reps, name=None, metadata=None, **extra):
    value = dict(extra)
    if name is not None:
        value["name"] = name
    if metadata is not None:
        value["metadata"] = metadata
    value["representations"] = reps
    return value


def cbor_archive(items, version=(1, 0), body_extra=None, top_extra=()):
    body = {"items": items, **(body_extra or {})}
    return SELF_DESCRIBE + cbor2.dumps(["transferkit-archive", list(version), body, *top_extra], canonical=True)


def json_archive(items, version=(1, 0), extra=None):
    out = []
    for it in items:
        j = {k: v for k, v in it.items() if k != "representations"}
        reps = []
        for r in it["representations"]:
            jr = {k: v for k, v in r.items() if k != "payload"}
            try:
                text = r["payload"].decode("utf-8")
                is_text = "text" in r["type"] or r["type"] in ("public.json",)
            except UnicodeDecodeError:
                is_text = False
            if is_text:
                jr["text"] = text
            else:
                jr["base64"] = base64.b64encode(r["payload"]).decode()
            reps.append(jr)
        j["representations"] = reps
        out.append(j)
    doc = {"format": "transferkit-archive", "items": out, "version": list(version), **(extra or {})}
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return (text + "\n").encode()


TEXT = rep("public.utf8-plain-text", "héllo\n".encode())
PNG = rep("public.png", b"\x89PNG\x00\xff")
HTML = rep("public.html", b"<p>hi</p>")
JSONREP = rep("public.json", b'{"a":[1,2]}')
EMPTY = rep("public.data", b"")
BINARY = rep("com.example.binary-thing", bytes(range(0, 256, 7)))

SHAPES = {
    "empty": [],
    "one-item-no-reps": [item([])],
    "one-text": [item([TEXT], name="note.txt")],
    "text-and-png": [item([TEXT, PNG], name="note.txt", metadata={"author": "Ada"})],
    "several-items": [item([TEXT]), item([PNG], name="a.png"), item([HTML, JSONREP]), item([EMPTY])],
    "metadata-scalars": [item([EMPTY], metadata={"b": True, "f": False, "i": -3, "n": 1 << 62, "s": "x", "d": 1.5})],
    "metadata-nesting": [
        item([JSONREP], metadata={"size": {"h": -3, "w": 1.5}, "tags": ["x", 2, True, [1, {"k": [0.25]}]]})
    ],
    "metadata-unicode": [item([TEXT], name="été.txt", metadata={"clé": "välue", "e\u0301": "nfd", "日本": "語"})],
    "binary-payload": [item([BINARY, EMPTY], name="blob")],
    "many-reps": [item([rep(f"com.example.t{i}", bytes([i]) * i) for i in range(8)])],
}


def nest(depth):
    value = 1
    for _ in range(depth):
        value = [value]
    return value


def write(folder, name, data):
    path = os.path.join(HERE, folder, "corpus", name)
    with open(path, "wb") as f:
        f.write(data)


def cbor_seeds():
    for name, items in SHAPES.items():
        write("ArchiveCBORFuzzer", f"valid-{name}.transferkit", cbor_archive(items))
    d = lambda obj: SELF_DESCRIBE + cbor2.dumps(obj, canonical=True)
    extra = [item([TEXT], name="x", zzz=1, aaa=[1, 2])]
    write("ArchiveCBORFuzzer", "valid-unknown-keys.transferkit",
          cbor_archive([item([rep("public.png", b"ab", note="n")], name="x", later={"k": 1})],
                       body_extra={"later": [1, 2, 3]}, top_extra=("trailing-element",)))
    write("ArchiveCBORFuzzer", "valid-unknown-item-keys.transferkit", cbor_archive(extra))
    write("ArchiveCBORFuzzer", "valid-minor-version-7.transferkit", cbor_archive([item([TEXT])], version=(1, 7)))
    write("ArchiveCBORFuzzer", "valid-metadata-floats.transferkit",
          cbor_archive([item([], metadata={"nan": float("nan"), "inf": float("inf"), "ninf": float("-inf"),
                                           "negzero": -0.0, "tiny": 5e-324, "big": 1.7976931348623157e308,
                                           "f32": 0.1})]))
    # Invalid ones.
    good = cbor_archive(SHAPES["text-and-png"])
    write("ArchiveCBORFuzzer", "invalid-truncated.transferkit", good[: len(good) // 2])
    bad = bytearray(good)
    bad[bad.index(b"PNG") + 1] ^= 1
    write("ArchiveCBORFuzzer", "invalid-checksum.transferkit", bytes(bad))
    write("ArchiveCBORFuzzer", "invalid-major-2.transferkit", cbor_archive([item([TEXT])], version=(2, 0)))
    write("ArchiveCBORFuzzer", "invalid-duplicate-type.transferkit", cbor_archive([item([PNG, PNG])]))
    write("ArchiveCBORFuzzer", "invalid-name-slash.transferkit", cbor_archive([item([TEXT], name="a/b")]))
    write("ArchiveCBORFuzzer", "invalid-identifier.transferkit", cbor_archive([item([rep("public text", b"x")])]))
    write("ArchiveCBORFuzzer", "invalid-null-metadata.transferkit", cbor_archive([item([], metadata={"k": None})]))
    write("ArchiveCBORFuzzer", "invalid-other-format.transferkit", d(["other-archive", [1, 0], {"items": []}]))
    # Not deterministic: keys out of order, an indefinite-length array, a non-shortest integer.
    write("ArchiveCBORFuzzer", "invalid-key-order.transferkit",
          SELF_DESCRIBE + cbor2.dumps(["transferkit-archive", [1, 0], {"items": [
              {"representations": [], "name": "x"}]}], canonical=False))
    write("ArchiveCBORFuzzer", "invalid-indefinite.transferkit",
          SELF_DESCRIBE + b"\x83\x73transferkit-archive\x82\x01\x00\xa1\x65items\x9f\xff")
    write("ArchiveCBORFuzzer", "invalid-long-int.transferkit",
          SELF_DESCRIBE + b"\x83\x73transferkit-archive\x82\x18\x01\x00\xa1\x65items\x80")
    write("ArchiveCBORFuzzer", "invalid-huge-payload-length.transferkit",
          SELF_DESCRIBE + b"\x83\x73transferkit-archive\x82\x01\x00\xa1\x65items\x81\xa1\x6frepresentations\x81"
          + b"\xa2\x64type\x6bpublic.data\x67payload\x5b\x80\x00\x00\x00\x00\x00\x00\x00")
    write("ArchiveCBORFuzzer", "invalid-deep-metadata.transferkit",
          cbor_archive([item([], metadata={"k": nest(20)})]))
    write("ArchiveCBORFuzzer", "invalid-empty.transferkit", b"")
    write("ArchiveCBORFuzzer", "invalid-trailing-bytes.transferkit", cbor_archive([]) + b"\x00")


def json_seeds():
    for name, items in SHAPES.items():
        write("ArchiveJSONFuzzer", f"valid-{name}.json", json_archive(items))
    write("ArchiveJSONFuzzer", "valid-unknown-keys.json",
          json_archive([item([TEXT], name="x", zzz=1)], extra={"later": {"a": [1, None]}}))
    write("ArchiveJSONFuzzer", "valid-minor-version-7.json", json_archive([item([TEXT])], version=(1, 7)))
    write("ArchiveJSONFuzzer", "valid-whitespace-and-escapes.json",
          b' \n{ "version" : [ 1 , 0 ] , "format" : "transferkit\\u002darchive" , "items" : [ { "name" : '
          b'"tab\\there \\ud83d\\ude00", "metadata": {"e": 1e3, "n": -0.0, "big": 9223372036854775807, '
          b'"s": "\\"\\\\\\/\\b\\f\\n\\r"}, "representations" : [ ] } ] }\r\n')
    good = json_archive(SHAPES["text-and-png"])
    write("ArchiveJSONFuzzer", "invalid-truncated.json", good[: len(good) // 2])
    write("ArchiveJSONFuzzer", "invalid-checksum.json", good.replace(b"h\xc3\xa9llo", b"hallo"))
    write("ArchiveJSONFuzzer", "invalid-major-2.json", json_archive([], version=(2, 0)))
    write("ArchiveJSONFuzzer", "invalid-base64.json", good.replace(b"iVBORwD/", b"iVBOR*D/"))
    write("ArchiveJSONFuzzer", "invalid-missing-representations.json",
          b'{"format":"transferkit-archive","items":[{"name":"x"}],"version":[1,0]}\n')
    write("ArchiveJSONFuzzer", "invalid-null-metadata.json",
          b'{"format":"transferkit-archive","items":[{"metadata":{"k":null},"representations":[]}],'
          b'"version":[1,0]}\n')
    write("ArchiveJSONFuzzer", "invalid-duplicate-key.json",
          b'{"format":"transferkit-archive","items":[],"items":[{}],"version":[1,0]}')
    write("ArchiveJSONFuzzer", "invalid-deep-nesting.json",
          b'{"format":"transferkit-archive","items":[{"metadata":{"k":' + b"[" * 40 + b"]" * 40
          + b'},"representations":[]}],"version":[1,0]}')
    write("ArchiveJSONFuzzer", "invalid-float-overflow.json",
          b'{"format":"transferkit-archive","items":[{"metadata":{"k":1e999},"representations":[]}],'
          b'"version":[1,0]}')
    write("ArchiveJSONFuzzer", "invalid-integer-overflow.json",
          b'{"format":"transferkit-archive","items":[{"metadata":{"k":9223372036854775808},"representations":[]}],'
          b'"version":[1,0]}')
    write("ArchiveJSONFuzzer", "invalid-utf8.json",
          b'{"format":"transferkit-archive","items":[{"name":"\xff\xfe","representations":[]}],"version":[1,0]}')
    write("ArchiveJSONFuzzer", "invalid-not-object.json", b'["transferkit-archive"]')


def declaration_seeds():
    """Format 1.1: archives that carry their types' declarations (spec section 3.6), valid and not."""
    card = {"identifier": "com.example.card", "conformsTo": ["public.json"], "description": "Card",
            "tags": {"public.filename-extension": ["card"], "public.mime-type": ["application/vnd.example.card+json"]}}
    chain = [{"identifier": "com.example.base", "conformsTo": ["public.json"]},
             {"identifier": "com.example.card", "conformsTo": ["com.example.base"]},
             {"identifier": "com.example.loop", "conformsTo": ["com.example.loop"], "later": {"k": [1]}}]
    card_item = item([rep("com.example.card", b'{"name":"Ryu"}')])
    cases = {
        "valid-declarations": [card],
        "valid-declarations-chain": chain,
        "invalid-declaration-dynamic": [{"identifier": "dyn.abc"}],
        "invalid-declaration-twice": [card, {"identifier": "COM.example.card"}],
        "invalid-declaration-tag": [{"identifier": "com.example.card", "tags": {"public.mime-type": ["a\tb"]}}],
        "invalid-declaration-shape": [{"identifier": "com.example.card", "conformsTo": "public.json"}],
    }
    for name, decls in cases.items():
        write("ArchiveCBORFuzzer", f"{name}.transferkit",
              cbor_archive([card_item], version=(1, 1), body_extra={"decls": decls}))
        write("ArchiveJSONFuzzer", f"{name}.json",
              json_archive([card_item], version=(1, 1), extra={"decls": decls}))


if __name__ == "__main__":
    for folder in ("ArchiveCBORFuzzer", "ArchiveJSONFuzzer"):
        os.makedirs(os.path.join(HERE, folder, "corpus"), exist_ok=True)
    cbor_seeds()
    json_seeds()
    declaration_seeds()
