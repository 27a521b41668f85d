#!/usr/bin/python3
"""A GTK 4 window that is a drag source or a drop target: the real toolkit of the drag-and-drop tests.

    gtk4_dnd_peer.py source --title TITLE --offer MIME FILE [--offer MIME FILE ...] [--actions copy,move]
    gtk4_dnd_peer.py target --title TITLE --accept MIME[,MIME...] --out FILE [--actions copy,move]
                            [--prefer copy|move] [--refuse] [--chunk-delay MS]

Both modes open one window of a fixed size (--width, --height; 200x150) titled TITLE (for `xdotool search
--name`), on the display GDK_BACKEND and DISPLAY / WAYLAND_DISPLAY of the environment name. Each event is one JSON
line on standard output, flushed:

    {"event": "ready", "title": TITLE, "mode": "source"|"target"}   the window is mapped
    source: {"event": "drag-begin"}
            {"event": "drag-end", "delete_data": BOOL}   delete_data: the target performed a move
            {"event": "drag-cancel", "reason": "no-target"|"user-cancelled"|"error"}
    target: {"event": "enter", "formats": [MIME, ...], "actions": [ACTION, ...]}
            {"event": "leave"}
            {"event": "receiving", "mime": MIME}   the first bytes arrived
            {"event": "drop", "mime": MIME, "length": N, "sha256": HEX, "action": ACTION}   the whole stream was read
                                                  and written to --out
            {"event": "drop-failed", "message": TEXT}

The source offers each MIME type with the bytes of its FILE (read once, at start) and the given actions. The
target accepts a drop offering any of --accept (the first of them that the drop offers is read), proposes --prefer
when the source allows it (else copy, else the source's first action), reads the whole stream (sleeping
--chunk-delay milliseconds after each 64 KiB chunk, so a test can kill it mid-transfer), writes the bytes to --out
and finishes the drop with the proposed action. --refuse refuses every drop (drag-enter and drag-motion answer no
action). The peer exits after --timeout seconds (120) so that a test that dies leaves no window behind.
"""
import argparse
import hashlib
import json
import sys
import time

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Gdk", "4.0")
from gi.repository import Gdk, GLib, GObject, Gtk  # noqa: E402

ACTIONS = {"copy": Gdk.DragAction.COPY, "move": Gdk.DragAction.MOVE, "link": Gdk.DragAction.LINK,
           "ask": Gdk.DragAction.ASK}
CHUNK = 64 * 1024


def emit(event, **fields):
    print(json.dumps({"event": event, **fields}, sort_keys=True), flush=True)


def action_flags(names):
    flags = Gdk.DragAction(0)
    for name in names:
        flags |= ACTIONS[name]
    return flags


def action_names(flags):
    return [name for name, flag in ACTIONS.items() if flags & flag]


def make_window(arguments, label_text):
    window = Gtk.Window(title=arguments.title)
    window.set_default_size(arguments.width, arguments.height)
    window.set_resizable(False)
    label = Gtk.Label(label=label_text)
    label.set_hexpand(True)
    label.set_vexpand(True)
    window.set_child(label)
    window.connect("map", lambda _window: emit("ready", title=arguments.title, mode=arguments.mode))
    window.connect("close-request", lambda _window: loop.quit() or False)
    return window, label


def run_source(arguments):
    offers = []
    for mime, path in arguments.offer:
        with open(path, "rb") as file:
            offers.append((mime, GLib.Bytes.new(file.read())))
    if not offers:
        sys.exit("gtk4_dnd_peer: source mode needs at least one --offer")
    window, label = make_window(arguments, "drag from here")
    source = Gtk.DragSource()
    source.set_actions(action_flags(arguments.actions))

    def prepare(_source, _x, _y):
        providers = [Gdk.ContentProvider.new_for_bytes(mime, data) for mime, data in offers]
        return providers[0] if len(providers) == 1 else Gdk.ContentProvider.new_union(providers)

    def drag_cancel(_source, _drag, reason):
        names = {Gdk.DragCancelReason.NO_TARGET: "no-target", Gdk.DragCancelReason.USER_CANCELLED: "user-cancelled",
                 Gdk.DragCancelReason.ERROR: "error"}
        emit("drag-cancel", reason=names.get(reason, str(reason)))
        return False

    source.connect("prepare", prepare)
    source.connect("drag-begin", lambda _source, _drag: emit("drag-begin"))
    source.connect("drag-cancel", drag_cancel)
    source.connect("drag-end", lambda _source, _drag, delete_data: emit("drag-end", delete_data=bool(delete_data)))
    label.add_controller(source)
    return window


class Received(GObject.Object):
    """The type that dropped bytes are read as: only its deserializer's side effects count."""


def run_target(arguments):
    accepted = [mime for mime in arguments.accept.split(",") if mime]
    if not accepted or not arguments.out:
        sys.exit("gtk4_dnd_peer: target mode needs --accept and --out")
    window, label = make_window(arguments, "drop here")
    allowed = action_flags(arguments.actions)
    target = Gtk.DropTargetAsync(formats=Gdk.ContentFormats.new(accepted), actions=allowed)

    def chosen_mime(drop):
        offered = drop.get_formats()
        return next((mime for mime in accepted if offered.contain_mime_type(mime)), None)

    def proposed_action(drop):
        if arguments.refuse or chosen_mime(drop) is None:
            return Gdk.DragAction(0)
        possible = drop.get_actions() & allowed
        for name in [arguments.prefer, "copy"] + arguments.actions:
            if possible & ACTIONS[name]:
                return ACTIONS[name]
        return Gdk.DragAction(0)

    def enter(_target, drop, _x, _y):
        emit("enter", formats=list(drop.get_formats().get_mime_types() or []),
             actions=action_names(drop.get_actions()))
        return proposed_action(drop)

    def on_drop(_target, drop, _x, _y):
        mime = chosen_mime(drop)
        action = proposed_action(drop)
        if mime is None or not action:
            emit("drop-failed", message="refused")
            drop.finish(Gdk.DragAction(0))
            return False
        received["digest"], received["length"], received["done"] = hashlib.sha256(), 0, False
        received["file"] = open(arguments.out, "wb")

        def finished(drop, result):
            try:
                drop.read_value_finish(result)
            except GLib.Error as error:
                report(drop, None, action, error.message)
                return
            report(drop, received.get("mime"), action, received.get("error"))

        drop.read_value_async(Received.__gtype__, GLib.PRIORITY_DEFAULT, None, finished)
        return True

    def report(drop, mime, action, failure):
        if received["done"]:
            return
        received["done"] = True
        received["file"].close()
        if failure is None:
            emit("drop", mime=mime, length=received["length"], sha256=received["digest"].hexdigest(),
                 action=action_names(action)[0])
            drop.finish(action)
        else:
            emit("drop-failed", message=failure)
            drop.finish(Gdk.DragAction(0))

    # Gdk.Drop.read_finish crashes PyGObject on GTK 4.8 (its const out-parameter, the MIME type, is freed), so the
    # bytes arrive through a deserializer of a type of our own, which reads the stream the drop hands it.
    def deserialize(deserializer):
        received["mime"] = deserializer.get_mime_type()
        stream = deserializer.get_input_stream()

        def chunk_read(stream, result):
            try:
                chunk = stream.read_bytes_finish(result).get_data()
            except GLib.Error as error:
                received["error"] = error.message
                deserializer.return_success()
                return
            if not chunk:
                deserializer.return_success()
                return
            if received["length"] == 0:
                emit("receiving", mime=received["mime"])
            received["digest"].update(chunk)
            received["length"] += len(chunk)
            received["file"].write(chunk)
            if arguments.chunk_delay:
                time.sleep(arguments.chunk_delay / 1000)
            # The next read starts from an idle, never from inside this callback. GTK 4's X11 selection input
            # stream (4.8 here) completes a pending read from its PropertyNotify handler and only then forgets it,
            # and GTask runs this callback synchronously when the read was started in an earlier main-loop
            # iteration: a read started here is then forgotten with the old one and never completes. It bites when
            # an INCR chunk (TransferKit sends 262 108 bytes) is used up by one read, which the last, short chunk
            # of a transfer is; the target then holds every byte and waits for ever for the end (reproduced with
            # six busy loops beside the 64 MiB drag test). GTK's own readers (g_output_stream_splice) start each
            # read from a write's callback and never hit it.
            GLib.idle_add(read_next)

        def read_next():
            stream.read_bytes_async(CHUNK, GLib.PRIORITY_DEFAULT, None, chunk_read)
            return GLib.SOURCE_REMOVE

        stream.read_bytes_async(CHUNK, GLib.PRIORITY_DEFAULT, None, chunk_read)

    received = {}
    for mime in accepted:
        Gdk.content_register_deserializer(mime, Received.__gtype__, deserialize, None)

    target.connect("drag-enter", enter)
    target.connect("drag-motion", lambda _target, drop, _x, _y: proposed_action(drop))
    target.connect("drag-leave", lambda _target, _drop: emit("leave"))
    target.connect("drop", on_drop)
    label.add_controller(target)
    return window


def main():
    global loop
    parser = argparse.ArgumentParser(description="A GTK 4 drag source or drop target for the drag-and-drop tests.")
    parser.add_argument("mode", choices=["source", "target"])
    parser.add_argument("--title", required=True)
    parser.add_argument("--width", type=int, default=200)
    parser.add_argument("--height", type=int, default=150)
    parser.add_argument("--actions", type=lambda text: [name for name in text.split(",") if name],
                        default=["copy", "move"])
    parser.add_argument("--offer", action="append", nargs=2, metavar=("MIME", "FILE"), default=[], help="(source)")
    parser.add_argument("--accept", default="", help="MIME[,MIME...] (target)")
    parser.add_argument("--out", help="where the dropped bytes go (target)")
    parser.add_argument("--prefer", choices=sorted(ACTIONS), default="copy")
    parser.add_argument("--refuse", action="store_true")
    parser.add_argument("--chunk-delay", type=int, default=0)
    parser.add_argument("--timeout", type=int, default=120)
    arguments = parser.parse_args()
    for name in arguments.actions:
        if name not in ACTIONS:
            sys.exit(f"gtk4_dnd_peer: unknown action {name}")
    if not Gtk.init_check():
        sys.exit("gtk4_dnd_peer: cannot open the display")
    loop = GLib.MainLoop()
    window = run_source(arguments) if arguments.mode == "source" else run_target(arguments)
    GLib.timeout_add_seconds(arguments.timeout, loop.quit)
    window.present()
    loop.run()


loop = None
main()
