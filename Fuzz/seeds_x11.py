#!/usr/bin/env python3
"""Writes the seed corpus of X11WireFuzzer: an X server's setup reply (as Xvfb sends it, trimmed to one screen)
followed by replies, errors and events of the kinds the clipboard's X11 backend reads. Layout of an input: one byte
for the read size, one for XFIXES's first event code, then the server's bytes (see Fuzz/X11WireFuzzing)."""
import os
import struct

here = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(here, "X11WireFuzzer", "corpus")
os.makedirs(out, exist_ok=True)


def pad(b):
    return b + b"\0" * (-len(b) % 4)


def setup(vendor=b"The X.Org Foundation", max_request=0xFFFF):
    vendor_p = pad(vendor)
    fmt = struct.pack("<BBB5x", 24, 32, 32)
    screen = struct.pack("<IIIIIHHHHHHIBBBB", 0x3B7, 0x20, 0xFFFFFF, 0, 0xFA8000, 640, 480, 169, 127, 1, 1, 0x21,
                         0, 0, 24, 1)
    depth = struct.pack("<BxHxxxx", 24, 1) + struct.pack("<IBBHIII4x", 0x21, 4, 8, 256, 0xFF0000, 0xFF00, 0xFF)
    body = struct.pack("<IIIIHHBBBBBBBB4x", 12101011, 0x00200000, 0x001FFFFF, 256, len(vendor), max_request, 1, 1,
                       0, 0, 32, 32, 8, 255) + vendor_p + fmt + screen + depth
    return struct.pack("<BxHHH", 1, 11, 0, len(body) // 4) + body


def reply(seq, data1=0, body=b"", extra=b""):
    head = struct.pack("<BBHI", 1, data1, seq, len(extra) // 4) + body
    return head + b"\0" * (32 - len(head)) + extra


def event(code, body):
    e = bytes([code, 0]) + struct.pack("<H", 1) + body
    return e + b"\0" * (32 - len(e))


def error(seq, code, major):
    return struct.pack("<BBHIHB", 0, code, seq, 0x200001, 0, major) + b"\0" * 21


intern = reply(2, body=struct.pack("<I", 0x1D0))
query_ext = reply(3, body=struct.pack("<BBBB", 1, 138, 87, 151))
fixes_version = reply(4, body=struct.pack("<II", 5, 0))
targets = reply(5, 32, struct.pack("<IIII", 4, 0, 4, 0), struct.pack("<4I", 0x1D1, 0x1D2, 0x1D3, 31))
text = reply(6, 8, struct.pack("<IIII", 0x1D4, 0, 13, 0), pad(b"hello, world!"))
incr = reply(7, 32, struct.pack("<IIII", 0x1D5, 0, 1, 0), struct.pack("<I", 67108864))
atom_name = reply(8, body=struct.pack("<H", 11), extra=pad(b"UTF8_STRING"))
request = event(30, struct.pack("<IIIIII", 1234, 0x200001, 0x400001, 0x1D0, 0x1D1, 0x1D6))
notify = event(31, struct.pack("<IIIII", 1234, 0x200002, 0x1D0, 0x1D4, 0x1D6))
prop = event(28, struct.pack("<IIIB", 0x200002, 0x1D6, 1240, 0))
clear = event(29, struct.pack("<III", 1250, 0x200001, 0x1D0))
fixes = event(87, struct.pack("<IIIII", 0x200001, 0x600001, 0x1D0, 1260, 1255))
destroy = event(17, struct.pack("<II", 0x400001, 0x400001))
refused = bytes([0, 1]) + struct.pack("<BxHHH", 0, 11, 0, 5) + pad(b"No protocol specified")[:20]
auth = bytes([0, 1]) + struct.pack("<B5xH", 2, 4) + pad(b"need cookie")[:16]

# XDND (issue 23): the atoms the harness interns for XdndEnter … XdndFinished, then XdndActionCopy … XdndActionAsk
# (X11WireFuzzing.xdndAtoms), and ClientMessage events as a source and a target receive them (SendEvent's bit set).
XDND = {name: 0x1E0 + i for i, name in enumerate(
    ["enter", "position", "status", "leave", "drop", "finished", "copy", "move", "link", "ask"])}


def client_message(window, kind, items):
    return struct.pack("<BBHII", 33 | 0x80, 32, 1, window, XDND[kind]) + struct.pack("<5I", *items)


source_win, target_win = 0x200001, 0x400001
xdnd_target = (client_message(target_win, "enter", [source_win, 5 << 24 | 1, 0x1D1, 0x1D2, 0])
               + client_message(target_win, "position", [source_win, 0, 100 << 16 | 40, 1234, XDND["copy"]])
               + client_message(target_win, "position", [source_win, 0, 101 << 16 | 41, 1240, XDND["move"]])
               + client_message(target_win, "drop", [source_win, 0, 1250, 0, 0])
               + client_message(target_win, "leave", [source_win, 0, 0, 0, 0]))
xdnd_source = (client_message(source_win, "status", [target_win, 3, 90 << 16 | 30, 20 << 16 | 10, XDND["move"]])
               + client_message(source_win, "status", [target_win, 0, 0, 0, 0])
               + client_message(source_win, "finished", [target_win, 1, XDND["move"], 0, 0])
               + client_message(source_win, "finished", [target_win, 0, 0, 0, 0]))

# Two drops in a row, then a source whose window goes away mid-drag and one that falls silent (SelectionClear stands
# for the deadline in the harness).
xdnd_two_drops = xdnd_target[:-32] + xdnd_target[:-32]
xdnd_gone = (client_message(target_win, "enter", [source_win, 5 << 24, 0x1D1, 0, 0])
             + client_message(target_win, "position", [source_win, 0, 10 << 16 | 10, 1300, XDND["copy"]])
             + event(17, struct.pack("<II", source_win, source_win))
             + client_message(target_win, "enter", [source_win + 1, 4 << 24, 0x1D1, 0, 0])
             + clear
             + client_message(target_win, "drop", [source_win + 1, 0, 1400, 0, 0]))

seeds = {
    "xdnd-target": bytes([32, 87]) + setup() + intern + xdnd_target + targets,
    "xdnd-target-two-drops": bytes([64, 87]) + setup() + xdnd_two_drops,
    "xdnd-target-source-gone": bytes([13, 87]) + setup() + xdnd_gone,
    "xdnd-source": bytes([7, 87]) + setup() + notify + xdnd_source + request,
    "setup-only": bytes([16, 87]) + setup(),
    "refused": refused,
    "authenticate": auth,
    "connect": bytes([7, 87]) + setup() + intern + query_ext + fixes_version,
    "read-text": bytes([32, 87]) + setup() + intern + notify + text + targets + atom_name,
    "incr": bytes([5, 87]) + setup() + notify + incr + prop + text + prop + reply(9, 8, struct.pack("<IIII", 0x1D4, 0, 0, 0)),
    "owner": bytes([64, 87]) + setup() + request + clear + fixes + destroy + error(10, 3, 18),
    "small-request-limit": bytes([1, 0]) + setup(b"v", 4096) + error(2, 5, 16) + intern,
}
for name, data in seeds.items():
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
print(f"wrote {len(seeds)} seeds to {out}")
