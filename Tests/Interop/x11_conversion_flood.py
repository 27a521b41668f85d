#!/usr/bin/python3
"""One X11 client that floods a selection's owner with conversions, in python-xlib: it asks for COUNT conversions
of SELECTION to TARGET at once, from WINDOWS windows of its own in turn, each into a property of its own, then
prints one line per SelectionNotify that comes back, `refused` (property None) or `answered`, until all COUNT have
come or 60 seconds passed; then `done`.

usage: x11_conversion_flood.py SELECTION TARGET COUNT WINDOWS
"""
import select
import sys
import time

from Xlib import X, display


def main():
    selection_name, target_name, count, window_count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    dpy = display.Display()
    root = dpy.screen().root
    windows = [root.create_window(0, 0, 1, 1, 0, X.CopyFromParent) for _ in range(window_count)]
    selection = dpy.intern_atom(selection_name)
    target = dpy.intern_atom(target_name)
    deadline = time.time() + 60
    while dpy.get_selection_owner(selection) == X.NONE:
        if time.time() > deadline:
            print("no owner", flush=True)
            return 1
        time.sleep(0.05)
    for index in range(count):
        prop = dpy.intern_atom("TK_FLOOD_%d" % index)
        windows[index % window_count].convert_selection(selection, target, prop, X.CurrentTime)
    dpy.flush()
    print("asked %d" % count, flush=True)
    seen = 0
    deadline = time.time() + 60
    while seen < count and time.time() < deadline:
        while dpy.pending_events() and seen < count:
            event = dpy.next_event()
            if event.type == X.SelectionNotify:
                seen += 1
                print("refused" if event.property == X.NONE else "answered", flush=True)
        select.select([dpy.fileno()], [], [], 0.2)
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
