#!/usr/bin/env python3
"""Writes the seed corpus of SessionFrameFuzzer: each message of Schemas/transfer-session.md as a frame, a few
frames in one input, and frames cut short. Run from the repository root; needs cbor2."""
import os
import struct

import cbor2

OUT = "Fuzz/SessionFrameFuzzer/corpus"


def frame(message):
    body = cbor2.dumps(message, canonical=True)
    return struct.pack(">I", len(body)) + body


messages = {
    "hello": {"hello": {"version": 1, "application": "com.example.cards", "process": 4242}},
    "load": {"load": {"request": 1, "item": 0, "type": "public.png"}},
    "cancel": {"cancel": {"request": 1}},
    "drop": {"drop": {"operation": "move"}},
    "commit": {"commit": {}},
    "abort": {"abort": {"message": "disk full"}},
    "offer": {"offer": {"version": 1, "session": "6F1C2A3B-0000-4000-8000-000000000001",
                        "application": "com.example.cards", "process": 7, "allowsMove": True,
                        "allowsMoveToOtherApplications": False,
                        "items": [{"id": "Han", "types": ["com.example.character-card", "public.utf8-plain-text"]}]}},
    "begin": {"begin": {"request": 1, "length": 5}},
    "begin-unknown-length": {"begin": {"request": 2}},
    "chunk": {"chunk": {"request": 1, "bytes": b"hello"}},
    "file": {"file": {"request": 3, "length": 300000}},
    "end": {"end": {"request": 1}},
    "failed": {"failed": {"request": 1, "code": "cancelled", "message": "The load was cancelled."}},
    "reserved": {"reserved": {"operation": "move", "items": ["Han"]}},
    "finished": {"finished": {"operation": "move"}},
    "finished-message": {"finished": {"operation": "cancel", "message": "itemsUnavailable"}},
}

os.makedirs(OUT, exist_ok=True)
for name, message in messages.items():
    with open(os.path.join(OUT, name), "wb") as file:
        file.write(frame(message))
with open(os.path.join(OUT, "conversation"), "wb") as file:
    file.write(b"".join(frame(messages[n]) for n in ["offer", "begin", "chunk", "end", "reserved", "finished"]))
with open(os.path.join(OUT, "cut-short"), "wb") as file:
    file.write(frame(messages["offer"])[:-3])
with open(os.path.join(OUT, "huge-length"), "wb") as file:
    file.write(b"\xff\xff\xff\xff" + b"\xa0")
