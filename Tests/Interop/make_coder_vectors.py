#!/usr/bin/env python3
"""Writes Tests/Interop/coder-vectors.json: values of the CBOR Codable coder's interop test, encoded by cbor2.

For each value, `canonical` is cbor2's canonical encoding (shortest forms, keys sorted), which the Swift
CBOREncoder must write byte for byte for the matching Swift value (CBORTests' "Interop vectors" test), and
`python` is cbor2's default encoding (keys in insertion order, every float as a double), which CBORDecoder must
read. Tests/Interop/interop.py checks at CI time that cbor2 still decodes `canonical` to the value.
Run this again only to change the set: python3 Tests/Interop/make_coder_vectors.py
"""
import json
from pathlib import Path

import cbor2

# Keys in declaration order of the Swift types in Tests/CBORTests/CoderInteropTests.swift.
VECTORS = {
    "point": {"x": 1, "y": 2.5},
    "model": {"name": "Panther", "character": "calm", "favorite": "tea"},
    "record": {
        "id": 48213, "size": 3145728, "ratio": 0.1, "title": "Tour Eiffel", "tags": ["travel", "night"],
        "samples": [12, -3, 70000, -(2**40)], "thumbnail": b"\x00\x01\xff", "kind": "photo",
    },
    "nested": {
        "owner": {"x": -7, "y": 65504.0},
        "points": [{"x": 0, "y": -0.5}, {"x": 2**31, "y": 1e300}],
        "names": {"b": "bee", "a": "ay", "aa": "double a"},
        "flags": [True, False, None],
    },
}


def main():
    out = {}
    for name, value in VECTORS.items():
        out[name] = {
            "canonical": cbor2.dumps(value, canonical=True).hex(),
            "python": cbor2.dumps(value).hex(),
        }
    path = Path(__file__).resolve().parent / "coder-vectors.json"
    path.write_text(json.dumps(out, indent=2, sort_keys=True) + "\n")
    print(f"wrote {len(out)} vectors to {path}")


if __name__ == "__main__":
    main()
