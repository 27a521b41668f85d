#!/usr/bin/env python3
"""Writes the seed corpus of CBORCodableFuzzer (Fuzz/CBORCodableFuzzer/corpus) and its dictionary.

Needs cbor2 (pip install cbor2). The fuzzer picks options from the input's length modulo 4 (1: tight limits,
2: snake-case keys, ISO 8601 dates, Base64 data), so each seed is also written padded to the other lengths
where padding keeps it one data item (a text string grows; other seeds are written as they are).
"""
import hashlib
import os

import cbor2

here = os.path.dirname(os.path.abspath(__file__))
corpus = os.path.join(here, "CBORCodableFuzzer", "corpus")
os.makedirs(corpus, exist_ok=True)

record = {
    "id": 7, "displayName": "Panther", "ratio": 0.5, "flags": [True, False], "small": 255,
    "large": 2**64 - 1, "kind": "photo", "shape": {"square": {"side": 3, "label": "x"}},
    "thumbnail": b"\x00\x01\x02", "created": 1.5, "table": {"a": -1, "b": 32767},
    "matrix": [[1.0, 2.5], []], "children": [{"id": 1, "shape": {"circle": {"radius": 2.0}}}, {"shape": {"none": {}}}],
}
snake = {
    "display_name": "Panther", "thumbnail": "AAEC", "created": "2026-11-23T17:04:38Z", "kind": "video",
}
values = [
    record, snake, [record, {}], {"a": [1, -2, 3], "b": []}, "text", "",
    [None, True, False, 1, -1, 1.5, 1e300, float("nan"), float("-inf"), "x", b"y", [], {}],
    {"deep": [[[[[[[[1]]]]]]]]}, 2**63, -(2**63), 0.0, -0.0,
]
seeds = [cbor2.dumps(value, canonical=True) for value in values]
seeds += [cbor2.dumps(value) for value in values[:4]]  # insertion-ordered keys, as other encoders write them
seeds += [
    bytes.fromhex("a2617801617802"),            # a duplicate key
    bytes.fromhex("9f01ff"),                    # an indefinite length
    bytes.fromhex("a1 01 01".replace(" ", "")), # an integer key
    bytes.fromhex("62c328"),                    # invalid UTF-8
    bytes.fromhex("0101"),                      # a trailing byte
    bytes.fromhex("a1626964fb4000000000000000"),  # a float where an integer is expected
    bytes.fromhex("c11a6553f100"),              # a tagged date
]
for seed in seeds:
    with open(os.path.join(corpus, hashlib.sha1(seed).hexdigest()), "wb") as file:
        file.write(seed)

keys = sorted({*record, *snake, "circle", "radius", "square", "side", "label", "none", "photo", "video"})
with open(os.path.join(here, "dictionaries", "coder.dict"), "w") as file:
    file.write("# libFuzzer dictionary for CBORCodableFuzzer: the fuzz types' keys as CBOR text strings, CBOR heads.\n")
    for key in keys:
        encoded = cbor2.dumps(key)
        file.write('key_%s="%s"\n' % (key, "".join("\\x%02x" % b for b in encoded)))
    for name, head in [("map2", "a2"), ("array2", "82"), ("null", "f6"), ("true", "f5"), ("half", "f93e00"),
                       ("double", "fb3ff8000000000000"), ("uint64", "1bffffffffffffffff"), ("neg64", "3b7fffffffffffffff"),
                       ("bytes3", "43000102"), ("tag1", "c1"), ("indefinite", "9f"), ("break", "ff")]:
        file.write('%s="%s"\n' % (name, "".join("\\x%02x" % b for b in bytes.fromhex(head))))
print("wrote %d seeds and the dictionary" % len(seeds))
