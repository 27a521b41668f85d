#!/usr/bin/python3
"""A GTK 3 application that copies text and HTML, hands the clipboard to the clipboard manager and exits.

The clipboard-manager tests run it under Xvfb: it is what a GTK application does at exit
(gtk_clipboard_store: SAVE_TARGETS on CLIPBOARD_MANAGER, serving the manager's reads until it answers).

    gtk3_clipboard_peer.py TEXT HTML [--targets NAME,NAME]

--targets lists the names to save (gtk_clipboard_set_can_store with those targets: a list in the request's
property); without it every target is saved (no property). It prints "stored" once gtk_clipboard_store returned.
PyGObject cannot call gtk_clipboard_set_with_data (its callbacks are not introspectable), so that call and the ones
around it go through ctypes into the same libgtk-3 that gi loaded.
"""
import ctypes
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gtk  # noqa: E402  (initialises GTK on the default display)

if not Gtk.init_check(sys.argv)[0]:
    sys.exit("gtk3_clipboard_peer: cannot open the display")

gtk = ctypes.CDLL("libgtk-3.so.0")
gdk = ctypes.CDLL("libgdk-3.so.0")


class TargetEntry(ctypes.Structure):
    _fields_ = [("target", ctypes.c_char_p), ("flags", ctypes.c_uint), ("info", ctypes.c_uint)]


GET = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint, ctypes.c_void_p)
CLEAR = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)

gdk.gdk_atom_intern.restype = ctypes.c_void_p
gdk.gdk_atom_intern.argtypes = [ctypes.c_char_p, ctypes.c_int]
gtk.gtk_clipboard_get.restype = ctypes.c_void_p
gtk.gtk_clipboard_get.argtypes = [ctypes.c_void_p]
gtk.gtk_selection_data_get_target.restype = ctypes.c_void_p
gtk.gtk_selection_data_get_target.argtypes = [ctypes.c_void_p]
gtk.gtk_selection_data_set.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int]
gtk.gtk_clipboard_set_with_data.restype = ctypes.c_int
gtk.gtk_clipboard_set_with_data.argtypes = [
    ctypes.c_void_p, ctypes.POINTER(TargetEntry), ctypes.c_uint, GET, CLEAR, ctypes.c_void_p]
gtk.gtk_clipboard_set_can_store.argtypes = [ctypes.c_void_p, ctypes.POINTER(TargetEntry), ctypes.c_int]
gtk.gtk_clipboard_store.argtypes = [ctypes.c_void_p]


def main():
    text, html = sys.argv[1].encode(), sys.argv[2].encode()
    saved = None
    if len(sys.argv) > 4 and sys.argv[3] == "--targets":
        saved = sys.argv[4].split(",")
    contents = [(b"UTF8_STRING", text), (b"text/plain;charset=utf-8", text), (b"text/html", html)]
    entries = (TargetEntry * len(contents))(*[TargetEntry(name, 0, index) for index, (name, _) in enumerate(contents)])

    @GET
    def get(_clipboard, selection_data, info, _data):
        value = contents[info][1]
        target = gtk.gtk_selection_data_get_target(selection_data)
        gtk.gtk_selection_data_set(selection_data, target, 8, value, len(value))

    @CLEAR
    def clear(_clipboard, _data):
        pass

    clipboard = gtk.gtk_clipboard_get(gdk.gdk_atom_intern(b"CLIPBOARD", 0))
    if not gtk.gtk_clipboard_set_with_data(clipboard, entries, len(contents), get, clear, None):
        sys.exit("gtk3_clipboard_peer: could not take the clipboard")
    if saved is None:
        gtk.gtk_clipboard_set_can_store(clipboard, None, 0)
    else:
        storable = (TargetEntry * len(saved))(*[TargetEntry(name.encode(), 0, 0) for name in saved])
        gtk.gtk_clipboard_set_can_store(clipboard, storable, len(saved))
    print("owned", flush=True)
    gtk.gtk_clipboard_store(clipboard)
    print("stored", flush=True)


main()
