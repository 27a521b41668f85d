#!/usr/bin/python3
"""A hostile XDND (version 5) drop target, in python-xlib: a mapped window with XdndAware that accepts every drag
with the action it is given, and on the drop misbehaves by MODE:

  no-read            answers XdndFinished (success, the action) without reading a byte
  incr-never-delete  converts XdndSelection to TYPE, and when the answer is INCR never deletes the property but
                     keeps changing it (each change a PropertyNotify), and never finishes
  read-forever       converts XdndSelection to TYPE again every second (reading each answer), and never finishes

It prints one JSON line per event: {"event": "ready"|"drop"|"finished"|"incr"|"touching", ...}.

usage: xdnd_hostile_target.py --title TITLE --mode MODE [--action move|copy] [--type TYPE] [--seconds N]
(it exits after N seconds, 120 by default)
"""
import argparse
import json
import select
import sys
import time

from Xlib import X, Xatom, display
from Xlib.protocol import event as xevent


def say(**fields):
    print(json.dumps(fields), flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--title", required=True)
    parser.add_argument("--mode", required=True, choices=["no-read", "incr-never-delete", "read-forever"])
    parser.add_argument("--action", default="move")
    parser.add_argument("--type", default="text/plain;charset=utf-8")
    parser.add_argument("--seconds", type=float, default=120)
    options = parser.parse_args()

    dpy = display.Display()
    root = dpy.screen().root
    window = root.create_window(
        0, 0, 200, 150, 0, X.CopyFromParent, background_pixel=dpy.screen().white_pixel,
        event_mask=X.StructureNotifyMask | X.PropertyChangeMask)
    atom = dpy.intern_atom
    window.set_wm_name(options.title)
    window.change_property(atom("XdndAware"), Xatom.ATOM, 32, [5])
    window.map()
    dpy.sync()
    say(event="ready")

    action = atom("XdndAction" + options.action.capitalize())
    names = {atom(n): n for n in ["XdndEnter", "XdndPosition", "XdndLeave", "XdndDrop"]}
    status, finished = atom("XdndStatus"), atom("XdndFinished")
    selection, incr = atom("XdndSelection"), atom("INCR")
    data_property = atom("TK_HOSTILE_XDND_DATA")

    def send(source, kind, values):
        message = xevent.ClientMessage(
            window=source, client_type=kind, data=(32, (values + [0, 0, 0, 0, 0])[:5]))
        dpy.create_resource_object("window", source).send_event(message, event_mask=0)
        dpy.flush()

    touching_until = None
    reading = None  # (the drop's time, when to ask again) in read-forever mode
    deadline = time.time() + options.seconds
    while time.time() < deadline:
        if reading is not None and time.time() >= reading[1]:
            window.convert_selection(selection, atom(options.type), data_property, reading[0])
            dpy.flush()
            reading = (reading[0], time.time() + 1.0)
            say(event="asked")
        if touching_until is not None and time.time() < touching_until:
            # Never delete the INCR property: write it again, which the owner sees as PropertyNotify (new value).
            window.change_property(data_property, Xatom.STRING, 8, b"x")
            dpy.flush()
        while dpy.pending_events():
            ev = dpy.next_event()
            if ev.type == X.ClientMessage and ev.client_type in names:
                kind = names[ev.client_type]
                source = ev.data[1][0]
                if kind == "XdndPosition":
                    send(source, status, [window.id, 1, 0, 0, action])
                elif kind == "XdndDrop":
                    say(event="drop")
                    if options.mode == "no-read":
                        send(source, finished, [window.id, 1, action])
                        say(event="finished")
                    elif options.mode == "read-forever":
                        reading = (ev.data[1][2], time.time())
                    else:
                        window.convert_selection(selection, atom(options.type), data_property, ev.data[1][2])
                        dpy.flush()
            elif ev.type == X.SelectionNotify and options.mode == "read-forever":
                window.get_property(data_property, X.AnyPropertyType, 0, 1 << 16, True)
                dpy.flush()
            elif ev.type == X.SelectionNotify and options.mode == "incr-never-delete":
                value = window.get_property(data_property, X.AnyPropertyType, 0, 4, False)
                is_incr = value is not None and value.property_type == incr
                say(event="incr" if is_incr else "answer")
                if is_incr:
                    touching_until = time.time() + options.seconds
                    say(event="touching")
        select.select([dpy.fileno()], [], [], 0.2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
