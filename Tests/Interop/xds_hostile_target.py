#!/usr/bin/python3
"""A hostile XDS (direct save) drop target, in python-xlib: while a drag owns XdndSelection, it names each given URI
in the source window's XdndDirectSave0 property and converts XdndSelection to XdndDirectSave0, as a target does at
a drop, and prints the source's answer for each as one JSON line: {"uri": ..., "answer": "S"|"E"|"F"|null}.

usage: xds_hostile_target.py SOURCE_WINDOW_HEX URI...
"""
import json
import select
import sys
import time

from Xlib import X, display


def wait_for_notify(dpy, deadline):
    while time.time() < deadline:
        while dpy.pending_events():
            event = dpy.next_event()
            if event.type == X.SelectionNotify:
                return event
        select.select([dpy.fileno()], [], [], max(0.0, min(0.2, deadline - time.time())))
    return None


def main():
    source_id = int(sys.argv[1], 16)
    uris = sys.argv[2:]
    dpy = display.Display()
    root = dpy.screen().root
    window = root.create_window(0, 0, 1, 1, 0, X.CopyFromParent)
    selection = dpy.intern_atom("XdndSelection")
    direct_save = dpy.intern_atom("XdndDirectSave0")
    text_plain = dpy.intern_atom("text/plain")
    answer_property = dpy.intern_atom("TK_HOSTILE_XDS_ANSWER")
    source = dpy.create_resource_object("window", source_id)

    deadline = time.time() + 60
    while dpy.get_selection_owner(selection) == X.NONE:
        if time.time() > deadline:
            print(json.dumps({"error": "no drag owned XdndSelection"}), flush=True)
            return 1
        time.sleep(0.05)
    print(json.dumps({"event": "owned"}), flush=True)

    for uri in uris:
        source.change_property(direct_save, text_plain, 8, uri.encode("utf-8"))
        window.delete_property(answer_property)
        window.convert_selection(selection, direct_save, answer_property, X.CurrentTime)
        dpy.flush()
        event = wait_for_notify(dpy, time.time() + 60)
        answer = None
        if event is not None and event.property != X.NONE:
            value = window.get_full_property(answer_property, X.AnyPropertyType)
            if value is not None:
                answer = bytes(value.value).decode("latin-1")
        print(json.dumps({"uri": uri, "answer": answer}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
