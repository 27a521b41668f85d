#!/usr/bin/python3
"""Writes the seed corpus of DBusWireFuzzer: D-Bus messages as GLib's GDBus writes them (python3-gi, Debian's
/usr/bin/python3), in both byte orders. Layout of an input: one byte for the number of descriptors that arrived
(0-7), then the stream of messages (see Fuzz/DBusWireFuzzing). Run: /usr/bin/python3 Fuzz/seeds_dbus.py"""
import os

from gi.repository import Gio, GLib

here = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(here, "DBusWireFuzzer", "corpus")
os.makedirs(out, exist_ok=True)


def blob(message, big):
    if big:
        message.set_byte_order(Gio.DBusMessageByteOrder.BIG_ENDIAN)
    return message.to_blob(Gio.DBusCapabilityFlags.UNIX_FD_PASSING)


def messages():
    hello = Gio.DBusMessage.new_method_call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                            "Hello")
    yield "hello", hello, 0
    reply = Gio.DBusMessage.new_method_reply(hello)
    reply.set_body(GLib.Variant("(s)", (":1.42",)))
    reply.set_sender("org.freedesktop.DBus")
    yield "hello-reply", reply, 0
    error = Gio.DBusMessage.new_method_error_literal(hello, "org.freedesktop.DBus.Error.UnknownMethod", "No method")
    yield "error", error, 0
    start = Gio.DBusMessage.new_method_call("org.freedesktop.portal.Documents", "/org/freedesktop/portal/documents",
                                            "org.freedesktop.portal.FileTransfer", "StartTransfer")
    start.set_body(GLib.Variant("(a{sv})", ({"writable": GLib.Variant("b", True),
                                             "autostop": GLib.Variant("b", False)},)))
    yield "start-transfer", start, 0
    add = Gio.DBusMessage.new_method_call("org.freedesktop.portal.Documents", "/org/freedesktop/portal/documents",
                                          "org.freedesktop.portal.FileTransfer", "AddFiles")
    add.set_body(GLib.Variant("(saha{sv})", ("key", [0, 1], {})))
    fds = Gio.UnixFDList.new()
    for _ in range(2):
        fds.append(0)
    add.set_unix_fd_list(fds)
    yield "add-files", add, 2
    retrieved = Gio.DBusMessage.new_method_reply(add)
    retrieved.set_body(GLib.Variant("(as)", (["/run/user/1000/doc/abc/card.json", "/run/user/1000/doc/def/x"],)))
    yield "retrieve-reply", retrieved, 0
    signal = Gio.DBusMessage.new_signal("/org/freedesktop/DBus", "org.freedesktop.DBus", "NameOwnerChanged")
    signal.set_body(GLib.Variant("(sss)", (":1.7", "", ":1.7")))
    yield "name-owner-changed", signal, 0
    every = Gio.DBusMessage.new_signal("/org/example/Obj", "org.example.Iface", "Changed")
    every.set_body(GLib.Variant("(ybnqiuxtdsogav(ia{sv})a{yd})", (
        255, True, -2, 65535, -7, 4000000000, -9000000000, 18000000000000000000, 1.5, "héllo", "/a/b_c", "a{sv}",
        [GLib.Variant("s", "x"), GLib.Variant("ay", b"\x00\x01"), GLib.Variant("v", GLib.Variant("d", 2.5))],
        (3, {"k": GLib.Variant("u", 9)}), {1: 0.5, 2: float("nan")})))
    yield "every-type", every, 0


serial = 1
for name, message, fds in messages():
    for big in (False, True):
        message.set_serial(serial)
        serial += 1
        data = bytes([fds]) + blob(message, big)
        with open(os.path.join(out, f"{name}-{'be' if big else 'le'}"), "wb") as f:
            f.write(data)
# Two messages in one stream, as a bus sends a reply and a signal back to back.
with open(os.path.join(out, "hello-reply-le"), "rb") as a, open(os.path.join(out, "name-owner-changed-le"), "rb") as b:
    stream = a.read() + b.read()[1:]
with open(os.path.join(out, "reply-then-signal"), "wb") as f:
    f.write(stream)
