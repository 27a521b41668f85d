#!/usr/bin/python3
"""A GTK 4 application that copies, pastes, drags or drops a file list: the real toolkit of the file-list tests.

    gtk4_files_peer.py copy --files PATH [PATH ...]
    gtk4_files_peer.py paste [--out FILE]
    gtk4_files_peer.py drag-source --title TITLE --files PATH [PATH ...]
    gtk4_files_peer.py drop-target --title TITLE [--out FILE]

It runs on the display GDK_BACKEND and DISPLAY / WAYLAND_DISPLAY of the environment name, on the session bus of
DBUS_SESSION_BUS_ADDRESS. Each event is one JSON line on standard output, flushed (keys sorted):

    copy:        {"event": "ready", "formats": [MIME, ...], "portal": BOOL}   CLIPBOARD holds the list
                 {"event": "lost"}   another client took CLIPBOARD (the peer stays up)
    paste:       {"event": "paste", "formats": [MIME, ...], "paths": [PATH, ...], "texts": [TEXT|null, ...]}
                 {"event": "paste-failed", "formats": [MIME, ...], "message": TEXT}
    drag-source: {"event": "ready", "title": TITLE, "mode": "drag-source", "formats": [MIME, ...], "portal": BOOL}
                 {"event": "drag-begin"} {"event": "drag-end", "delete_data": BOOL}
                 {"event": "drag-cancel", "reason": "no-target"|"user-cancelled"|"error"}
    drop-target: {"event": "ready", "title": TITLE, "mode": "drop-target"}
                 {"event": "enter", "formats": [MIME, ...]} {"event": "leave"}
                 {"event": "drop", "paths": [PATH, ...], "texts": [TEXT|null, ...]}
                 {"event": "drop-failed", "message": TEXT}

The list is a Gdk.FileList of Gio.Files (GTK's own type for it), so GTK picks the MIME types and the bytes, as a GTK
application does: text/uri-list and text/plain;charset=utf-8 always, and, when the xdg document portal
(org.freedesktop.portal.Documents) owned its name on the session bus while GTK initialised, the portal's
FileTransfer key first: application/vnd.portal.filetransfer, then the older application/vnd.portal.files (GTK 4.8
asks the bus once, without activating the portal: a portal that is only D-Bus-activatable, or started after the
peer, gives neither). "formats" lists the MIME types GTK serializes the list to, in GTK's order; "portal" says
whether the key is among them. The owner registers a new transfer (autostop) for each request of a key, and writes
the key's decimal digits followed by one NUL byte.

Reading (paste and drop alike), GTK asks for the key first whatever the owner's order when it knows the portal
(application/vnd.portal.filetransfer, then application/vnd.portal.files, then text/uri-list), and moves on only when
the owner refuses the conversion: a key the portal does not know fails the read (AccessDenied "Invalid transfer"),
and so do zero bytes ("Could not convert data from application/vnd.portal.filetransfer to GdkFileList"), as a GTK
owner sends when a file of its list cannot be opened. Without the portal it reads text/uri-list. "paths" are the
paths of the files GTK returned: the owner's paths for an unsandboxed reader, paths under $XDG_RUNTIME_DIR/doc/ for
a reader the portal takes for a sandbox (/.flatpak-info in its root). "texts" holds the first 200 bytes of each file
decoded as UTF-8 (invalid bytes replaced), or null when the file cannot be read. paste reads once (when CLIPBOARD's
formats are known, at most 2 s after start) and exits 0 after its event; --out writes the same JSON line to FILE.
drop-target accepts copy drops of a file list only, reports each and stays up.

The windowed modes open one window of a fixed size (--width, --height; 200x150) titled TITLE (for `xdotool search
--name`). Every mode but paste exits after --timeout seconds (120) so that a test that dies leaves no peer behind.
"""
import argparse
import json
import sys

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Gdk", "4.0")
from gi.repository import Gdk, Gio, GLib, GObject, Gtk  # noqa: E402

PORTAL_MIMES = ("application/vnd.portal.filetransfer", "application/vnd.portal.files")
TEXT_LIMIT = 200


def emit(event, **fields):
    line = json.dumps({"event": event, **fields}, sort_keys=True)
    print(line, flush=True)
    return line


def file_list_provider(paths):
    files = Gdk.FileList.new_from_list([Gio.File.new_for_path(path) for path in paths])
    return Gdk.ContentProvider.new_for_value(GObject.Value(Gdk.FileList, files))


def offered_mimes(provider):
    """The MIME types GTK serializes the provider's value to, in GTK's order (GTypes left out)."""
    return list(provider.ref_formats().union_serialize_mime_types().get_mime_types() or [])


def mimes_of(formats):
    return list(formats.get_mime_types() or []) if formats is not None else []


def file_report(value):
    files = value.get_files() if isinstance(value, Gdk.FileList) else []
    paths, texts = [], []
    for file in files:
        paths.append(file.get_path() or file.get_uri())
        try:
            with open(file.get_path(), "rb") as stream:
                texts.append(stream.read(TEXT_LIMIT).decode("utf-8", errors="replace"))
        except (OSError, TypeError):
            texts.append(None)
    return paths, texts


def run_copy(arguments):
    clipboard = Gdk.Display.get_default().get_clipboard()
    provider = file_list_provider(arguments.files)
    clipboard.set_content(provider)
    formats = offered_mimes(provider)
    state = {"lost": False}

    def changed(clipboard):
        if not state["lost"] and not clipboard.is_local():
            state["lost"] = True
            emit("lost")

    clipboard.connect("changed", changed)
    emit("ready", formats=formats, portal=any(mime in formats for mime in PORTAL_MIMES))


def run_paste(arguments):
    clipboard = Gdk.Display.get_default().get_clipboard()
    state = {"started": False}

    def finish(event, **fields):
        line = emit(event, **fields)
        if arguments.out:
            with open(arguments.out, "w") as out:
                out.write(line + "\n")
        loop.quit()

    def read_done(clipboard, result):
        formats = mimes_of(clipboard.get_formats())
        try:
            value = clipboard.read_value_finish(result)
        except GLib.Error as error:
            finish("paste-failed", formats=formats, message=error.message)
            return
        paths, texts = file_report(value)
        finish("paste", formats=formats, paths=paths, texts=texts)

    def start(*_ignored):
        if not state["started"]:
            state["started"] = True
            clipboard.read_value_async(Gdk.FileList.__gtype__, GLib.PRIORITY_DEFAULT, None, read_done)
        return GLib.SOURCE_REMOVE

    # GTK learns CLIPBOARD's formats from the X server after it starts: a read before that finds no format.
    if mimes_of(clipboard.get_formats()):
        GLib.idle_add(start)
    else:
        clipboard.connect("changed", start)
        GLib.timeout_add(2000, start)


def make_window(arguments, label_text, **ready_fields):
    window = Gtk.Window(title=arguments.title)
    window.set_default_size(arguments.width, arguments.height)
    window.set_resizable(False)
    label = Gtk.Label(label=label_text)
    label.set_hexpand(True)
    label.set_vexpand(True)
    window.set_child(label)
    window.connect("map", lambda _window: emit("ready", title=arguments.title, mode=arguments.mode, **ready_fields))
    window.connect("close-request", lambda _window: loop.quit() or False)
    return window, label


def run_drag_source(arguments):
    formats = offered_mimes(file_list_provider(arguments.files))
    window, label = make_window(arguments, "drag files from here", formats=formats,
                                portal=any(mime in formats for mime in PORTAL_MIMES))
    source = Gtk.DragSource()
    source.set_actions(Gdk.DragAction.COPY)

    def drag_cancel(_source, _drag, reason):
        names = {Gdk.DragCancelReason.NO_TARGET: "no-target", Gdk.DragCancelReason.USER_CANCELLED: "user-cancelled",
                 Gdk.DragCancelReason.ERROR: "error"}
        emit("drag-cancel", reason=names.get(reason, str(reason)))
        return False

    source.connect("prepare", lambda _source, _x, _y: file_list_provider(arguments.files))
    source.connect("drag-begin", lambda _source, _drag: emit("drag-begin"))
    source.connect("drag-cancel", drag_cancel)
    source.connect("drag-end", lambda _source, _drag, delete_data: emit("drag-end", delete_data=bool(delete_data)))
    label.add_controller(source)
    return window


def run_drop_target(arguments):
    window, label = make_window(arguments, "drop files here")
    # GtkDropTargetAsync rather than GtkDropTarget: GtkDropTarget reports a failed read only as a warning on standard
    # error, this one hands the error to the peer, which reports it as drop-failed.
    target = Gtk.DropTargetAsync(formats=Gdk.ContentFormats.new_for_gtype(Gdk.FileList.__gtype__),
                                 actions=Gdk.DragAction.COPY)

    def action(drop):
        return Gdk.DragAction.COPY if drop.get_actions() & Gdk.DragAction.COPY else Gdk.DragAction(0)

    def enter(_target, drop, _x, _y):
        emit("enter", formats=mimes_of(drop.get_formats()))
        return action(drop)

    def finish(event, **fields):
        line = emit(event, **fields)
        if arguments.out:
            with open(arguments.out, "w") as out:
                out.write(line + "\n")

    def on_drop(_target, drop, _x, _y):
        def read_done(drop, result):
            try:
                value = drop.read_value_finish(result)
            except GLib.Error as error:
                finish("drop-failed", message=error.message)
                drop.finish(Gdk.DragAction(0))
                return
            if not isinstance(value, Gdk.FileList):
                finish("drop-failed", message=f"not a file list: {type(value).__name__}")
                drop.finish(Gdk.DragAction(0))
                return
            paths, texts = file_report(value)
            finish("drop", paths=paths, texts=texts)
            drop.finish(Gdk.DragAction.COPY)

        if not action(drop):
            finish("drop-failed", message="the source does not allow copy")
            drop.finish(Gdk.DragAction(0))
            return False
        drop.read_value_async(Gdk.FileList.__gtype__, GLib.PRIORITY_DEFAULT, None, read_done)
        return True

    target.connect("drag-enter", enter)
    target.connect("drag-motion", lambda _target, drop, _x, _y: action(drop))
    target.connect("drag-leave", lambda _target, _drop: emit("leave"))
    target.connect("drop", on_drop)
    label.add_controller(target)
    return window


def main():
    global loop
    parser = argparse.ArgumentParser(description="A GTK 4 peer that copies, pastes, drags or drops a file list.")
    parser.add_argument("mode", choices=["copy", "paste", "drag-source", "drop-target"])
    parser.add_argument("--files", nargs="+", default=[], metavar="PATH", help="(copy, drag-source)")
    parser.add_argument("--title", help="window title (drag-source, drop-target)")
    parser.add_argument("--out", help="also write the paste or drop event to FILE")
    parser.add_argument("--width", type=int, default=200)
    parser.add_argument("--height", type=int, default=150)
    parser.add_argument("--timeout", type=int, default=120)
    arguments = parser.parse_args()
    if arguments.mode in ("copy", "drag-source") and not arguments.files:
        sys.exit(f"gtk4_files_peer: {arguments.mode} needs --files")
    if arguments.mode in ("drag-source", "drop-target") and not arguments.title:
        sys.exit(f"gtk4_files_peer: {arguments.mode} needs --title")
    if not Gtk.init_check():
        sys.exit("gtk4_files_peer: cannot open the display")
    loop = GLib.MainLoop()
    window = None
    if arguments.mode == "copy":
        run_copy(arguments)
    elif arguments.mode == "paste":
        run_paste(arguments)
    elif arguments.mode == "drag-source":
        window = run_drag_source(arguments)
    else:
        window = run_drop_target(arguments)
    GLib.timeout_add_seconds(arguments.timeout, loop.quit)
    if window is not None:
        window.present()
    loop.run()


loop = None
main()
