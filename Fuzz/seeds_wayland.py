#!/usr/bin/env python3
"""Writes the seed corpus of WaylandWireFuzzer: what a compositor sends to the clipboard's Wayland backend once it
has bound its objects (wl_registry 2, wl_callback 3, wl_seat 4, the data-control manager 5, its device 6, a data
source 7; offers from 0xff000000). Layout of an input: one byte for the read size (1 + byte % 64: 63 reads 64
bytes at a time), one byte of flags (bits 0-2: descriptors per read, bit 3: the source is already destroyed, bit 4:
the callback is done), then the compositor's bytes in native (little-endian) order (see Fuzz/WaylandWireFuzzing)."""
import os
import struct

here = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(here, "WaylandWireFuzzer", "corpus")
os.makedirs(out, exist_ok=True)

REGISTRY, CALLBACK, SEAT, MANAGER, DEVICE, SOURCE = 2, 3, 4, 5, 6, 7
OFFER = 0xFF000000


def string(text):
    data = text.encode() + b"\0"
    return struct.pack("<I", len(data)) + data + b"\0" * (-len(data) % 4)


def message(obj, opcode, body=b""):
    return struct.pack("<II", obj, (8 + len(body)) << 16 | opcode) + body


def u(value):
    return struct.pack("<I", value)


def global_(name, interface, version):
    return message(REGISTRY, 0, u(name) + string(interface) + u(version))


globals_ = (global_(1, "wl_compositor", 6) + global_(2, "wl_seat", 9)
            + global_(3, "ext_data_control_manager_v1", 1) + global_(4, "zwlr_data_control_manager_v1", 2))
done = message(CALLBACK, 0, u(1234))
delete = message(1, 1, u(CALLBACK))
capabilities = message(SEAT, 0, u(3)) + message(SEAT, 1, string("seat0"))


def offer(n, types, primary=False):
    data = message(DEVICE, 0, u(OFFER + n))
    for mime in types:
        data += message(OFFER + n, 0, string(mime))
    return data + message(DEVICE, 3 if primary else 1, u(OFFER + n))


text_types = ["text/plain;charset=utf-8", "text/plain", "UTF8_STRING", "com.example.model", "application/json"]
send = message(SOURCE, 0, string("text/plain;charset=utf-8"))

# Drag and drop (flags bit 5): wl_data_device 9, wl_pointer 10, the window's wl_surface 11 and xdg_toplevel 13, the
# drag's wl_data_source 15 (see Fuzz/WaylandWireFuzzing).
DND = 0x20
DND_DEVICE, POINTER, SURFACE, TOPLEVEL, DRAG_SOURCE = 9, 10, 11, 13, 15


def fixed(value):
    return struct.pack("<i", int(value * 256))


drag_over = (message(SEAT, 0, u(1))
             + message(DND_DEVICE, 0, u(OFFER)) + message(OFFER, 0, string("text/plain;charset=utf-8"))
             + message(OFFER, 0, string("application/json")) + message(OFFER, 1, u(3))
             + message(DND_DEVICE, 1, u(40) + u(SURFACE) + fixed(12.5) + fixed(30) + u(OFFER))
             + message(OFFER, 2, u(1)) + message(DND_DEVICE, 3, u(1000) + fixed(13) + fixed(31))
             + message(OFFER, 2, u(2)) + message(DND_DEVICE, 4) + message(DND_DEVICE, 2))
drag_from = (message(POINTER, 0, u(50) + u(SURFACE) + fixed(20) + fixed(20))
             + message(POINTER, 3, u(51) + u(1100) + u(0x110) + u(1))
             + message(POINTER, 2, u(1110) + fixed(40) + fixed(22))
             + message(DRAG_SOURCE, 0, string("text/plain")) + message(DRAG_SOURCE, 5, u(2))
             + message(DRAG_SOURCE, 0, u(0)) + message(DRAG_SOURCE, 0, string("application/json"))
             + message(DRAG_SOURCE, 3) + message(DRAG_SOURCE, 1, string("application/json"))
             + message(DRAG_SOURCE, 4) + message(POINTER, 1, u(52) + u(SURFACE)))
drag_refused = (message(DRAG_SOURCE, 0, u(0)) + message(DRAG_SOURCE, 2) + message(TOPLEVEL, 0, u(240) + u(120) + u(0))
                + message(TOPLEVEL, 1))
bad_enter = message(DND_DEVICE, 1, u(40) + u(SURFACE) + fixed(1) + fixed(1) + u(SURFACE))
seeds = {
    "connect": bytes([63, 0]) + globals_ + done + delete + capabilities,
    "selection": bytes([16, 0]) + offer(0, text_types) + offer(1, ["image/png"], primary=True),
    "replace": bytes([5, 0]) + offer(0, ["text/plain"]) + offer(1, ["text/uri-list", "x-special/gnome-copied-files"])
    + message(DEVICE, 1, u(0)),
    "send": bytes([32, 1]) + send + message(SOURCE, 0, string("image/png")) + message(SOURCE, 1),
    "send-destroyed": bytes([7, 9]) + send + message(1, 1, u(SOURCE)),
    "late-callback": bytes([13, 16]) + done + delete + globals_,
    "error": bytes([63, 0]) + message(1, 0, u(MANAGER) + u(1) + string("invalid source")),
    "finished": bytes([3, 0]) + offer(0, ["text/plain"]) + message(DEVICE, 2),
    "remove-global": bytes([8, 0]) + globals_ + message(REGISTRY, 1, u(3)),
    "missing-fd": bytes([63, 0]) + send,
    "bad-size": bytes([63, 0]) + struct.pack("<II", DEVICE, 6 << 16 | 1),
    "null-string": bytes([63, 0]) + message(DEVICE, 0, u(OFFER)) + message(OFFER, 0, u(0)),
    "drag-over-window": bytes([20, DND]) + drag_over,
    "drag-from-window": bytes([9, DND | 1]) + drag_from,
    "drag-refused": bytes([63, DND]) + drag_refused,
    "drag-enter-not-an-offer": bytes([63, DND]) + bad_enter,
}
for name, data in seeds.items():
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
print(f"wrote {len(seeds)} seeds to {out}")
