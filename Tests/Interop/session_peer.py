#!/usr/bin/env python3
"""Hostile and stubborn peers of the TransferKit drag session protocol (Schemas/transfer-session.md), as real
processes for the Swift tests (Tests/TransferSessionsIntegrationTests/HostilePeerTests.swift). Standard library only.

Destination roles connect to a publication:  session_peer.py ROLE SOCKET [ARGS]
Source roles listen at a path:               session_peer.py source-ROLE SOCKET
Each prints one result line on standard output (sources print "listening" first), and exits 0.
"""
import json
import os
import socket
import struct
import sys
import time


# ---- a minimal deterministic CBOR (RFC 8949): what the session's messages use
def _head(major, value):
    if value < 24:
        return bytes([major << 5 | value])
    for info, fmt in ((24, ">B"), (25, ">H"), (26, ">I"), (27, ">Q")):
        if value < (1 << (8 * struct.calcsize(fmt))):
            return bytes([major << 5 | info]) + struct.pack(fmt, value)
    raise ValueError(value)


def encode(value):
    if value is True:
        return b"\xf5"
    if value is False:
        return b"\xf4"
    if value is None:
        return b"\xf6"
    if isinstance(value, int):
        return _head(0, value) if value >= 0 else _head(1, -1 - value)
    if isinstance(value, bytes):
        return _head(2, len(value)) + value
    if isinstance(value, str):
        data = value.encode()
        return _head(3, len(data)) + data
    if isinstance(value, list):
        return _head(4, len(value)) + b"".join(encode(v) for v in value)
    if isinstance(value, dict):
        pairs = sorted((encode(k), encode(v)) for k, v in value.items())
        pairs.sort(key=lambda p: (len(p[0]), p[0]))
        return _head(5, len(pairs)) + b"".join(k + v for k, v in pairs)
    raise TypeError(value)


def decode(data, offset=0):
    first = data[offset]
    major, info = first >> 5, first & 31
    offset += 1
    if info < 24:
        value = info
    else:
        size = {24: 1, 25: 2, 26: 4, 27: 8}[info]
        value = int.from_bytes(data[offset:offset + size], "big")
        offset += size
    if major == 0:
        return value, offset
    if major == 1:
        return -1 - value, offset
    if major == 2:
        return bytes(data[offset:offset + value]), offset + value
    if major == 3:
        return bytes(data[offset:offset + value]).decode(), offset + value
    if major == 4:
        items = []
        for _ in range(value):
            item, offset = decode(data, offset)
            items.append(item)
        return items, offset
    if major == 5:
        result = {}
        for _ in range(value):
            key, offset = decode(data, offset)
            result[key], offset = decode(data, offset)
        return result, offset
    if major == 7:
        return {20: False, 21: True, 22: None}[info], offset
    raise ValueError(first)


def frame(name, fields):
    body = encode({name: fields})
    return struct.pack(">I", len(body)) + body


class Connection:
    def __init__(self, sock):
        self.sock = sock
        self.buffer = b""

    def send(self, name, fields, fds=None):
        data = frame(name, fields)
        if fds:
            socket.send_fds(self.sock, [data], fds)
        else:
            self.sock.sendall(data)

    def receive(self, timeout=None):
        """The next message as (name, fields), or None at the end of the stream."""
        self.sock.settimeout(timeout)
        while True:
            if len(self.buffer) >= 4:
                length = struct.unpack(">I", self.buffer[:4])[0]
                if len(self.buffer) >= 4 + length:
                    body, self.buffer = self.buffer[4:4 + length], self.buffer[4 + length:]
                    message, _ = decode(body)
                    (name, fields), = message.items()
                    return name, fields
            data, _, _, _ = socket.recv_fds(self.sock, 1 << 16, 8)
            if not data:
                return None
            self.buffer += data


def connect(path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(path)
    return Connection(sock)


def hello(conn, version=2, application="hostile-peer"):
    conn.send("hello", {"version": version, "application": application, "process": os.getpid()})
    return conn.receive(timeout=150)


def wait_for_end(conn, timeout=120):
    """Seconds until the source ends the connection, and the last message's name."""
    start = time.monotonic()
    last = None
    conn.sock.settimeout(timeout)
    try:
        while True:
            message = conn.receive(timeout=timeout)
            if message is None:
                break
            last = message[0]
    except (ConnectionResetError, socket.timeout):
        pass
    return time.monotonic() - start, last


# ---- destinations
def reuse_ids(path, count, type_id):
    conn = connect(path)
    hello(conn)
    ends = 0
    for _ in range(count):
        conn.send("load", {"request": 7, "item": 0, "type": type_id})
        while True:
            message = conn.receive(timeout=150)
            if message is None:
                print(f"closed after {ends} loads")
                return
            name, fields = message
            if name in ("end", "failed") and fields.get("request") == 7:
                ends += name == "end"
                break
            if name == "finished":
                print(f"finished after {ends} loads: {fields}")
                return
    print(f"ends {ends}")


def pipelined(path, count, window, type_id):
    conn = connect(path)
    hello(conn)
    sent = ends = 0
    in_flight = set()
    while ends < count:
        while sent < count and len(in_flight) < window:
            sent += 1
            conn.send("load", {"request": sent, "item": 0, "type": type_id})
            in_flight.add(sent)
        message = conn.receive(timeout=150)
        if message is None:
            print(f"closed after {ends} loads")
            return
        name, fields = message
        if name in ("end", "failed"):
            in_flight.discard(fields["request"])
            ends += name == "end"
        elif name == "finished":
            print(f"finished after {ends} loads: {fields}")
            return
    print(f"ends {ends}")


def silent(path, count):
    conns = [connect(path) for _ in range(count)]
    start = time.monotonic()
    for conn in conns:
        wait_for_end(conn)
    print(f"closed {count} after {time.monotonic() - start:.2f} s")


def quiet_after_reserved(path, application="hostile-peer"):
    conn = connect(path)
    hello(conn, application=application)
    conn.send("drop", {"operation": "move"})
    name, _ = conn.receive(timeout=150)
    elapsed, last = wait_for_end(conn)
    print(f"after {name}: closed after {elapsed:.2f} s, last {last}")


def flood(path, count):
    """Holds as many connections as it can for a second, then lets them go."""
    conns = []
    for _ in range(count):
        try:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.setblocking(False)
            sock.connect(path)
            conns.append(sock)
        except (BlockingIOError, ConnectionRefusedError, OSError):
            sock.close()
            time.sleep(0.001)
    time.sleep(1)
    for sock in conns:
        sock.close()
    print(f"flooded {len(conns)}")


# ---- checks against the CDDL (Tests/Interop/session_cddl.py)
def _cddl(path):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import session_cddl
    return session_cddl, session_cddl.parse(open(path).read())


def check_source(path, cddl_path):
    """A well-behaved destination that checks every frame a real source sends against the CDDL."""
    cddl, rules = _cddl(cddl_path)
    conn = connect(path)
    received = []

    def take(timeout=150):
        message = conn.receive(timeout=timeout)
        if message is not None:
            cddl.check(rules, "source-message", {message[0]: message[1]})
            received.append(message)
        return message

    conn.send("hello", {"version": 2, "application": "frame-checker", "process": os.getpid()})
    name, offer_fields = take()
    assert name == "offer", name
    first_type = offer_fields["items"][0]["types"][0]
    conn.send("load", {"request": 1, "item": 0, "type": first_type})
    conn.send("load", {"request": 2, "item": 0, "type": "com.example.not-offered"})
    conn.send("load", {"request": 3, "item": 5, "type": first_type})
    ended = set()
    while len(ended) < 3:
        name, fields = take()
        if name in ("end", "failed"):
            ended.add(fields["request"])
    conn.send("drop", {"operation": "move"})
    while True:
        message = take()
        if message is None or message[0] == "finished":
            break
        if message[0] == "reserved":
            conn.send("commit", {})
    codes = sorted({fields["code"] for name, fields in received if "code" in fields})
    print(f"valid {len(received)} frames; codes {' '.join(codes)}")


def source_check(path, cddl_path):
    """A well-behaved source that checks every frame a real destination sends against the CDDL."""
    cddl, rules = _cddl(cddl_path)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(1)
    print("listening", flush=True)
    sock, _ = listener.accept()
    conn = Connection(sock)
    count = 0
    names = []
    while True:
        message = conn.receive(timeout=150)
        if message is None:
            break
        cddl.check(rules, "destination-message", {message[0]: message[1]})
        count += 1
        name, fields = message
        names.append(name)
        if name == "hello":
            conn.send("offer", {"version": 2, "session": "checked", "application": "frame-source",
                                "process": os.getpid(), "allowsMove": True, "allowsMoveToOtherApplications": True,
                                "items": [{"id": "a", "types": ["public.utf8-plain-text"]}]})
        elif name == "load":
            conn.send("begin", {"request": fields["request"], "length": 5})
            conn.send("chunk", {"request": fields["request"], "bytes": b"hello"})
            conn.send("end", {"request": fields["request"]})
        elif name == "drop":
            conn.send("reserved", {"operation": "copy", "items": ["a"]})
        elif name == "commit":
            conn.send("finished", {"operation": "copy"})
    print(f"valid {count} frames: {' '.join(names)}", flush=True)


def check_offer(cddl_path, rule="desktop-session-offer"):
    """Checks the CBOR bytes of a session offer (section 7: `desktop-session-offer`; 7.1: `clipboard-session-offer`),
    read from standard input, against the CDDL."""
    cddl, rules = _cddl(cddl_path)
    data = sys.stdin.buffer.read()
    try:
        value, end = decode(data)
        if end != len(data):
            raise ValueError(f"{len(data) - end} bytes after the item")
        cddl.check(rules, rule, value)
    except (ValueError, KeyError, IndexError) as error:
        print(f"invalid: {error}", flush=True)
        return
    print(f"valid {rule} {sorted(value)}", flush=True)


def codes(cddl_path):
    _, rules = _cddl(cddl_path)
    print(json.dumps({name: sorted(option[1] for option in rules[name][1]) for name in ("load-code", "session-code")}))


# ---- sources
def offer(conn):
    conn.receive(timeout=150)
    conn.send("offer", {"version": 2, "session": "hostile", "application": "hostile-source", "process": os.getpid(),
                        "allowsMove": True, "allowsMoveToOtherApplications": True,
                        "items": [{"id": "a", "types": ["public.plain-text"]}]})


def serve(path, behaviour):
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(1)
    print("listening", flush=True)
    sock, _ = listener.accept()
    conn = Connection(sock)
    offer(conn)
    keep = behaviour(conn)
    elapsed, _ = wait_for_end(conn)
    del keep
    print(f"destination left after {elapsed:.2f} s", flush=True)


def on_load(answer):
    def behaviour(conn):
        while True:
            message = conn.receive(timeout=150)
            if message is None:
                return None
            if message[0] == "load":
                return answer(conn, message[1]["request"])
    return behaviour


def mute(conn, request):
    return None


def file_without_descriptor(conn, request):
    conn.send("file", {"request": request, "length": 5})


def endless_pipe(conn, request):
    read_end, write_end = os.pipe()
    conn.send("file", {"request": request, "length": 100}, fds=[read_end])
    os.close(read_end)
    return write_end  # held open, never written


def big_chunk(conn, request):
    conn.send("begin", {"request": request})
    conn.send("chunk", {"request": request, "bytes": b"x" * 70000})


def no_reservation(conn):
    while True:
        message = conn.receive(timeout=150)
        if message is None or message[0] == "drop":
            return None


def full_queue(path):
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(0)
    held = []
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.connect(path)
            held.append(sock)
        except (BlockingIOError, OSError):
            sock.close()
            break
    print("listening", flush=True)
    time.sleep(60)


def main():
    role, path, *rest = sys.argv[1:]
    if role == "reuse-ids":
        reuse_ids(path, int(rest[0]), rest[1])
    elif role == "pipelined":
        pipelined(path, int(rest[0]), int(rest[1]), rest[2])
    elif role == "silent":
        silent(path, int(rest[0]))
    elif role == "quiet-after-reserved":
        quiet_after_reserved(path, *rest)
    elif role == "flood":
        flood(path, int(rest[0]))
    elif role == "check-source":
        check_source(path, rest[0])
    elif role == "source-check":
        source_check(path, rest[0])
    elif role == "codes":
        codes(path)
    elif role == "check-desktop-offer":
        check_offer(path)
    elif role == "check-clipboard-offer":
        check_offer(path, "clipboard-session-offer")
    elif role == "source-mute":
        serve(path, on_load(mute))
    elif role == "source-file-without-descriptor":
        serve(path, on_load(file_without_descriptor))
    elif role == "source-endless-pipe":
        serve(path, on_load(endless_pipe))
    elif role == "source-big-chunk":
        serve(path, on_load(big_chunk))
    elif role == "source-no-reservation":
        serve(path, no_reservation)
    elif role == "source-full-queue":
        full_queue(path)
    else:
        sys.exit(f"unknown role {role}")


if __name__ == "__main__":
    main()
