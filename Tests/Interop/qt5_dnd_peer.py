#!/usr/bin/python3
"""A Qt 5 window that is a drag source or a drop target: the second real toolkit of the drag-and-drop tests.

    qt5_dnd_peer.py source --title TITLE --offer MIME FILE [--offer MIME FILE ...] [--actions copy,move]
    qt5_dnd_peer.py target --title TITLE --accept MIME[,MIME...] --out FILE [--actions copy,move]
                           [--prefer copy|move] [--refuse]

The same command line and the same JSON lines as gtk4_dnd_peer.py (see there), with Qt's semantics: the window
(QT_QPA_PLATFORM from the environment; xcb under Xvfb) has a fixed size; the source starts a QDrag once the pointer
moved past Qt's drag distance with the first button held, and reports drag-end with delete_data true when the target
performed a move (QDrag.exec_ returned MoveAction), preceded by drag-cancel when the drop was refused or cancelled
(IgnoreAction: Qt does not tell the two apart). The target reads the data in one piece when the drop happens (Qt's
QMimeData.data is synchronous), so it prints no "receiving" event and has no --chunk-delay.
"""
import argparse
import hashlib
import json
import sys

from PyQt5.QtCore import QMimeData, Qt, QTimer
from PyQt5.QtGui import QDrag
from PyQt5.QtWidgets import QApplication, QLabel

ACTIONS = {"copy": Qt.CopyAction, "move": Qt.MoveAction, "link": Qt.LinkAction}


def emit(event, **fields):
    print(json.dumps({"event": event, **fields}, sort_keys=True), flush=True)


def action_flags(names):
    flags = Qt.DropActions()
    for name in names:
        flags |= ACTIONS[name]
    return flags


def action_names(flags):
    return [name for name, flag in ACTIONS.items() if int(flags) & int(flag)]


class Window(QLabel):
    def __init__(self, arguments, text):
        super().__init__(text)
        self.arguments = arguments
        self.setWindowTitle(arguments.title)
        self.setFixedSize(arguments.width, arguments.height)
        self.setAlignment(Qt.AlignCenter)
        self.announced = False

    def showEvent(self, event):
        super().showEvent(event)
        if not self.announced:
            self.announced = True
            emit("ready", title=self.arguments.title, mode=self.arguments.mode)


class Source(Window):
    def __init__(self, arguments, offers):
        super().__init__(arguments, "drag from here")
        self.offers = offers
        self.pressed_at = None

    def mousePressEvent(self, event):
        if event.button() == Qt.LeftButton:
            self.pressed_at = event.pos()

    def mouseReleaseEvent(self, _event):
        self.pressed_at = None

    def mouseMoveEvent(self, event):
        if self.pressed_at is None or not event.buttons() & Qt.LeftButton:
            return
        if (event.pos() - self.pressed_at).manhattanLength() < QApplication.startDragDistance():
            return
        self.pressed_at = None
        data = QMimeData()
        for mime, contents in self.offers:
            data.setData(mime, contents)
        drag = QDrag(self)
        drag.setMimeData(data)
        emit("drag-begin")
        allowed = action_flags(self.arguments.actions)
        result = drag.exec_(allowed, ACTIONS[self.arguments.actions[0]])
        if result == Qt.IgnoreAction:
            emit("drag-cancel", reason="no-target")
        emit("drag-end", delete_data=result == Qt.MoveAction)


class Target(Window):
    def __init__(self, arguments, accepted):
        super().__init__(arguments, "drop here")
        self.accepted = accepted
        self.setAcceptDrops(True)

    def chosen_mime(self, data):
        offered = list(data.formats())
        return next((mime for mime in self.accepted if mime in offered), None)

    def proposed_action(self, event):
        if self.arguments.refuse or self.chosen_mime(event.mimeData()) is None:
            return None
        possible = int(event.possibleActions()) & int(action_flags(self.arguments.actions))
        for name in [self.arguments.prefer, "copy"] + self.arguments.actions:
            if possible & int(ACTIONS[name]):
                return ACTIONS[name]
        return None

    def answer(self, event):
        action = self.proposed_action(event)
        if action is None:
            event.ignore()
        else:
            event.setDropAction(action)
            event.accept()

    def dragEnterEvent(self, event):
        emit("enter", formats=list(event.mimeData().formats()), actions=action_names(event.possibleActions()))
        self.answer(event)

    def dragMoveEvent(self, event):
        self.answer(event)

    def dragLeaveEvent(self, _event):
        emit("leave")

    def dropEvent(self, event):
        mime = self.chosen_mime(event.mimeData())
        action = self.proposed_action(event)
        if mime is None or action is None:
            emit("drop-failed", message="refused")
            event.ignore()
            return
        contents = bytes(event.mimeData().data(mime))
        with open(self.arguments.out, "wb") as file:
            file.write(contents)
        emit("drop", mime=mime, length=len(contents), sha256=hashlib.sha256(contents).hexdigest(),
             action=action_names(action)[0])
        event.setDropAction(action)
        event.accept()


def main():
    parser = argparse.ArgumentParser(description="A Qt 5 drag source or drop target for the drag-and-drop tests.")
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
    parser.add_argument("--timeout", type=int, default=120)
    arguments = parser.parse_args()
    if not arguments.actions or any(name not in ACTIONS for name in arguments.actions):
        sys.exit("qt5_dnd_peer: --actions takes copy, move and link")
    application = QApplication(sys.argv[:1])
    if arguments.mode == "source":
        offers = []
        for mime, path in arguments.offer:
            with open(path, "rb") as file:
                offers.append((mime, file.read()))
        if not offers:
            sys.exit("qt5_dnd_peer: source mode needs at least one --offer")
        window = Source(arguments, offers)
    else:
        accepted = [mime for mime in arguments.accept.split(",") if mime]
        if not accepted or not arguments.out:
            sys.exit("qt5_dnd_peer: target mode needs --accept and --out")
        window = Target(arguments, accepted)
    QTimer.singleShot(arguments.timeout * 1000, application.quit)
    window.show()
    sys.exit(application.exec_())


main()
