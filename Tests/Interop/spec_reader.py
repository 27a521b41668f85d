#!/usr/bin/env python3
"""An independent reader of TransferKit archives, written from Schemas/transfer-archive.md alone.

It shares no code with TransferKit and needs only Python's standard library: it walks the binary form's CBOR
itself (so that it checks RFC 8949's bytewise key order, not a library's "canonical" order, and interprets no tag)
and reads the text form with its own front-to-back scanner (§8), then the json module. It follows the spec's sections (cited below). `read(data)` returns
the archive as plain Python values or raises SpecError with the spec's error code.

Order of checks (§8): the binary form is first identified (§2, §4.1: tag, array, format name), then its whole
encoding is checked (§4.2, §7 nesting, and the counts and lengths §7 bounds, each at the head that declares it), then
its content; the text form goes through §8's passes (size, UTF-8, one front-to-back reading of the JSON text, the
length of keys outside metadata), then its content is checked in the binary form's order. Given several faults in
one binary input, this reader may report another than the first in the order of the bytes (§8), since it checks
the whole encoding before the content; the vectors with several faults (§8 names them) put them where both agree.

Usage: python3 Tests/Interop/spec_reader.py FILE...  (prints "valid" or the code per file)
"""
import base64
import binascii
import json
import math
import re
import struct
import sys
import unicodedata
import zlib

FORMAT = "transferkit-archive"
IDENTIFIER = re.compile(r"(?:[A-Za-z0-9-]+\.)*[A-Za-z0-9-]+")  # §3.1, used with fullmatch
BASE64 = re.compile(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")
NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?")
LIMITS = {"key": 256, "name": 1024, "items": 65536, "representations": 256, "depth": 16, "metadata": 1 << 20,
          "payload": 1 << 40, "document": 64 << 20, "nesting": 64, "declarations": 1024,
          "declarations size": 1 << 20}  # §7 defaults
UINT64_MAX = 2 ** 64 - 1


class SpecError(Exception):
    def __init__(self, code, detail=""):
        super().__init__(f"{code}: {detail}")
        self.code = code


def detect(data):  # §2
    if data[:3] == b"\xd9\xd9\xf7":
        return "cbor"
    stripped = data.lstrip(b" \t\r\n")
    if stripped[:1] == b"{":
        return "json"
    raise SpecError("notAnArchive", "neither form")


# --- §3: values common to both forms ---

def check_identifier(text):  # §3.1
    if not isinstance(text, str):
        raise SpecError("malformed", "a type is not text")
    if not (1 <= len(text.encode("utf-8")) <= 255) or not IDENTIFIER.fullmatch(text):
        raise SpecError("invalidIdentifier", repr(text))
    return text


def check_name(name):  # §3.2: no control character (general category Cc), no "/", not "", "." or ".."
    if not isinstance(name, str):
        raise SpecError("malformed", "a name is not text")
    if len(name.encode("utf-8")) > LIMITS["name"]:
        raise SpecError("limitExceeded", "name")
    if name in ("", ".", "..") or "/" in name or any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in name):
        raise SpecError("invalidName", repr(name))


def check_metadata_key(key, seen):  # §3.4: Unicode 3.2 repertoire, unique after NFC
    if not isinstance(key, str):
        raise SpecError("malformed", "metadata key not text")
    if any(unicodedata.ucd_3_2_0.category(c) == "Cn" for c in key):
        raise SpecError("unrepresentableValue", f"metadata key {key!r} holds a code point unassigned in Unicode 3.2")
    normalized = unicodedata.normalize("NFC", key)
    if normalized in seen:
        raise SpecError("malformed", "metadata key twice")
    seen.add(normalized)


def check_metadata_value(value, depth):  # §3.4; depth counts arrays and maps only (§7)
    if isinstance(value, (list, dict, RawMap)) and depth > LIMITS["depth"]:
        raise SpecError("limitExceeded", "metadata nesting")
    if value is None:
        raise SpecError("malformed", "null metadata")
    if isinstance(value, (bool, str, float)):
        return
    if isinstance(value, int):
        if not (-(2 ** 63) <= value < 2 ** 63):
            raise SpecError("unrepresentableValue", "metadata integer")
        return
    if isinstance(value, list):
        for element in value:
            check_metadata_value(element, depth + 1)
        return
    if isinstance(value, RawMap):
        raise SpecError("malformed", "metadata key not text")
    if isinstance(value, dict):
        seen = set()
        for key, element in value.items():
            check_metadata_key(key, seen)
            check_metadata_value(element, depth + 1)
        return
    raise SpecError("malformed", f"metadata value of type {type(value).__name__}")


def exact_integer(value, low, high):  # §5.1: the number's exact decimal value must be an integer in low...high
    if isinstance(value, Number):
        match = NUMBER.fullmatch(value.text)
        whole, fraction, exponent = match.group(1), match.group(2) or "", match.group(3) or "0"
        digits = (whole + fraction).lstrip("0").rstrip("0")
        if not digits:
            value = 0
        else:
            trailing = len((whole + fraction).rstrip("0")) - len(whole + fraction)  # zeros dropped: -count
            if len(exponent.lstrip("+-")) > 6:  # |exponent| >= 10^6: far outside any range here
                if exponent.startswith("-"):
                    raise SpecError("malformed", "a fraction where an integer belongs")
                raise SpecError("malformed", "an integer out of range")
            scale = int(exponent) - len(fraction) - trailing
            if scale < 0:
                raise SpecError("malformed", "a fraction where an integer belongs")
            if len(digits) + scale > 40:
                raise SpecError("malformed", "an integer out of range")
            value = (-1 if value.text.startswith("-") else 1) * int(digits) * 10 ** scale
    elif isinstance(value, bool) or not isinstance(value, int):
        raise SpecError("malformed", "not an integer")
    if not (low <= value <= high):
        raise SpecError("malformed", "an integer out of range")
    return value


def has_control(text):  # §3.2: general category Cc
    return any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in text)


def check_declarations(decls, size):
    """§3.6 in the binary form's order (§8): declaration by declaration, each in its key order (tags, conformsTo,
    identifier, description), then a duplicate identifier. Returns the declared identifiers."""
    if not isinstance(decls, list):
        raise SpecError("malformed", "decls is not an array")
    if len(decls) > LIMITS["declarations"]:
        raise SpecError("limitExceeded", "declarations")
    if size > LIMITS["declarations size"]:
        raise SpecError("limitExceeded", "declarations size")
    seen, identifiers = set(), []
    for declaration in decls:
        if not isinstance(declaration, dict):
            raise SpecError("malformed", "a declaration is not a map")
        tags = declaration.get("tags", {})
        if not isinstance(tags, dict):
            raise SpecError("malformed", "tags")
        for tag_class in sorted(tags, key=lambda key: (len(key.encode()), key.encode())):
            check_identifier(tag_class)
            if not isinstance(tags[tag_class], list):
                raise SpecError("malformed", "a tag list")
            for tag in tags[tag_class]:
                if not isinstance(tag, str):
                    raise SpecError("malformed", "a tag")
                if not 1 <= len(tag.encode()) <= 1024 or has_control(tag):
                    raise SpecError("invalidDeclaration", "tag")
        parents = declaration.get("conformsTo", [])
        if not isinstance(parents, list):
            raise SpecError("malformed", "conformsTo")
        for parent in parents:
            check_identifier(parent)
        if "identifier" in declaration:
            identifier = check_identifier(declaration["identifier"])
            if identifier.split(".")[0].lower() == "dyn":
                raise SpecError("invalidDeclaration", "a dynamic type")
        if "description" in declaration:
            description = declaration["description"]
            if not isinstance(description, str):
                raise SpecError("malformed", "description")
            if len(description.encode()) > 1024 or has_control(description):
                raise SpecError("invalidDeclaration", "description")
        if "identifier" not in declaration:
            raise SpecError("malformed", "a declaration without identifier")
        if identifier.lower() in seen:
            raise SpecError("invalidDeclaration", "declared twice")
        seen.add(identifier.lower())
        identifiers.append(identifier)
    return identifiers


def check_archive(top, body, payload_of, metadata_of, declarations_size, minor_known, declared):
    """Checks the layout shared by both forms in the binary form's order: version (§6), declarations (§3.6, read
    when both the archive and this reader are 1.1 or later), items, representations."""
    version = top.get("version")
    if not isinstance(version, list) or len(version) < 2:
        raise SpecError("malformed", "version")
    major = exact_integer(version[0], 0, UINT64_MAX)
    minor = exact_integer(version[1], 0, UINT64_MAX)
    if major != 1:
        raise SpecError("unsupportedVersion", str(major))
    if minor >= 1 and minor_known >= 1 and "decls" in body:
        declared.extend(check_declarations(body["decls"], declarations_size()))
    items = body.get("items")
    if not isinstance(items, list):
        raise SpecError("malformed", "items")
    if len(items) > LIMITS["items"]:
        raise SpecError("limitExceeded", "items")
    archive = []
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            raise SpecError("malformed", "item")
        if "name" in item:
            check_name(item["name"])
        metadata = metadata_of(item, index)
        if not isinstance(metadata, (dict, RawMap)):
            raise SpecError("malformed", "metadata")
        check_metadata_value(metadata, 1)
        representations = item.get("representations")
        if not isinstance(representations, list):
            raise SpecError("malformed", "representations")
        if len(representations) > LIMITS["representations"]:
            raise SpecError("limitExceeded", "representations")
        types = set()
        reps = []
        for representation in representations:
            if not isinstance(representation, dict) or "type" not in representation:
                raise SpecError("malformed", "representation")
            identifier = check_identifier(representation["type"])
            if identifier.lower() in types:  # §3.5, ASCII case-insensitive (identifiers are ASCII)
                raise SpecError("duplicateType", identifier)
            types.add(identifier.lower())
            data = payload_of(representation)
            if len(data) > LIMITS["payload"]:
                raise SpecError("limitExceeded", "payload")
            if "checksum" not in representation:
                raise SpecError("malformed", "checksum missing")
            checksum = exact_integer(representation["checksum"], 0, 0xFFFFFFFF)
            if zlib.crc32(data) != checksum:  # §3.3
                raise SpecError("checksumMismatch", identifier)
            reps.append((identifier, data))
        archive.append({"name": item.get("name"), "metadata": metadata, "representations": reps})
    return archive


# --- §4: the binary form ---

class RawMap:
    """A CBOR map with a key that is not text (only allowed in ignored values)."""

    def __init__(self, pairs):
        self.pairs = pairs


class Tagged:
    def __init__(self, tag, value):
        self.tag, self.value = tag, value


class Simple:
    def __init__(self, number):
        self.number = number


def same_float(a, b):
    return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))


class CBORWalker:
    """Decodes one data item, checking RFC 8949 well-formedness and validity and §4.2's deterministic encoding."""

    def __init__(self, data, position):
        self.data, self.position = data, position
        self.metadata_spans = {}  # item index -> octets of its metadata value
        self.declarations_span = 0  # octets of the body's decls value

    def take(self, count):
        if self.position + count > len(self.data):
            raise SpecError("truncated", "the input ends inside the archive")
        chunk = self.data[self.position:self.position + count]
        self.position += count
        return chunk

    def head(self):
        initial = self.take(1)[0]
        major, info = initial >> 5, initial & 31
        if info < 24:
            return major, info, info
        if info == 31:
            raise SpecError("malformed", "an indefinite length or a break (not deterministic)")
        if info > 27:
            raise SpecError("malformed", "reserved additional information")
        argument = int.from_bytes(self.take(1 << (info - 24)), "big")
        if major == 7:
            if info == 24 and argument < 32:
                raise SpecError("malformed", "a two-byte simple value below 32")
            return major, info, argument
        if argument < (24, 256, 65536, 2 ** 32)[info - 24]:
            raise SpecError("malformed", "an argument not in its shortest form")
        return major, info, argument

    def value(self, level, track=None, in_key=False):
        """`track` follows the archive's skeleton (top array, body, items, item) to record metadata spans (§7);
        `in_key` marks a map key outside metadata, whose strings are bounded (§7)."""
        major, info, argument = self.head()
        declared = {(4, "items"): "items", (4, "representations"): "representations", (3, "name"): "name",
                    (2, "payload"): "payload"}.get((major, track))
        if declared and argument > LIMITS[declared]:  # §7, §8: at the head that declares it, before what it counts
            raise SpecError("limitExceeded", declared)
        if in_key and major in (2, 3) and argument > LIMITS["key"]:
            raise SpecError("limitExceeded", "a key outside metadata longer than 256 octets")
        if major in (4, 5, 6) and level + 1 > LIMITS["nesting"]:
            raise SpecError("limitExceeded", "nesting")
        if major == 0:
            return argument
        if major == 1:
            return -1 - argument
        if major == 2:
            return bytes(self.take(argument))
        if major == 3:
            try:
                return bytes(self.take(argument)).decode("utf-8")
            except UnicodeDecodeError as error:
                raise SpecError("invalidUTF8", str(error))
        if major == 4:
            elements = []
            for index in range(argument):
                child = ("body" if track == "top" and index == 2 else ("item", index) if track == "items" else
                         "representation" if track == "representations" else None)
                elements.append(self.value(level + 1, "metadata" if track == "metadata" else child, in_key))
            return elements
        if major == 5:
            pairs, previous = [], None
            for _ in range(argument):
                start = self.position
                key = self.value(level + 1, in_key=track != "metadata")
                encoding = self.data[start:self.position]
                if previous is not None and not previous < encoding:  # bytewise, RFC 8949 §4.2.1
                    raise SpecError("malformed", "map keys out of order or twice")
                previous = encoding
                start = self.position
                child = ("items" if track == "body" and key == "items" else
                         "metadata" if track == "metadata" or (isinstance(track, tuple) and key == "metadata") else
                         key if isinstance(track, tuple) and key in ("name", "representations") else
                         "payload" if track == "representation" and key == "payload" else None)
                pairs.append((key, self.value(level + 1, child, in_key)))
                if isinstance(track, tuple) and key == "metadata":
                    self.metadata_spans[track[1]] = self.position - start
                if track == "body" and key == "decls":
                    self.declarations_span = self.position - start
            if all(isinstance(key, str) for key, _ in pairs):
                return dict(pairs)
            return RawMap(pairs)
        if major == 6:
            return Tagged(argument, self.value(level + 1, None, in_key))
        return self.simple_or_float(info, argument)

    @staticmethod
    def simple_or_float(info, argument):
        if info < 24 or info == 24:
            return {20: False, 21: True, 22: None}.get(argument, Simple(argument))
        if info == 25:
            value = struct.unpack(">e", argument.to_bytes(2, "big"))[0]
            if math.isnan(value) and argument != 0x7E00:
                raise SpecError("malformed", "NaN not written f9 7e 00")
            return value
        if info == 26:
            value = struct.unpack(">f", argument.to_bytes(4, "big"))[0]
        else:
            value = struct.unpack(">d", argument.to_bytes(8, "big"))[0]
        shorter = (">e",) if info == 26 else (">e", ">f")
        for form in shorter:
            try:
                if same_float(struct.unpack(form, struct.pack(form, value))[0], value):
                    raise SpecError("malformed", "a float not in its shortest form")
            except (OverflowError, struct.error):
                pass
        return value


def read_cbor(data, minor_known, declared):  # §4
    walker = CBORWalker(data, 3)
    # §2, §4.1: the tag, then an array whose first element is the format name, or it is another format.
    major, _, count = walker.head()
    if major != 4 or count == 0:
        raise SpecError("notAnArchive", "the tag's content is not an array starting with the format name")
    first = CBORWalker(data, walker.position)
    name_major, _, name_length = first.head()
    if name_major != 3 or name_length != len(FORMAT) or bytes(first.take(name_length)) != FORMAT.encode():
        raise SpecError("notAnArchive", "format name")
    whole = CBORWalker(data, 3)
    value = whole.value(0, "top")
    if whole.position != len(data):
        raise SpecError("malformed", "bytes follow the archive")
    if len(value) < 3 or not isinstance(value[2], dict):
        raise SpecError("malformed", "top level")
    top = {"format": value[0], "version": value[1]}

    def payload(representation):
        data = representation.get("payload")
        if not isinstance(data, bytes):
            raise SpecError("malformed", "payload")
        return data

    def metadata(item, index):
        if whole.metadata_spans.get(index, 0) > LIMITS["metadata"]:
            raise SpecError("limitExceeded", "metadata size")
        return item.get("metadata", {})

    return check_archive(top, value[2], payload, metadata, lambda: whole.declarations_span, minor_known, declared)


# --- §5: the text form ---

class Number:
    """A JSON number as written; its kind (integer or float, §5.1) depends on its spelling."""

    def __init__(self, text):
        self.text = text

    def metadata_value(self):
        if any(c in self.text for c in ".eE"):
            value = float(self.text)  # correctly rounded; an underflow gives 0.0 or a subnormal (§5.1)
            if math.isinf(value):
                raise SpecError("unrepresentableValue", f"{self.text} overflows binary64")
            return value
        if len(self.text.lstrip("-")) > 19:
            raise SpecError("unrepresentableValue", "metadata integer")
        return int(self.text)


class JSONScanner:
    """§8's reading of the JSON text, front to back, reporting the first fault met: not JSON (`malformed`), the end of
    the text where JSON could go on (`truncated`), a key twice in an object, compared as decoded characters without
    NFC (`malformed`, §5.1), a `\\u` escape of a lone surrogate (`invalidUTF8`), an array or object at level 65
    (`limitExceeded`, §7). Everywhere, ignored values included."""

    ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}

    def __init__(self, text):
        self.text, self.i = text, 0

    def peek(self):
        if self.i >= len(self.text):
            raise SpecError("truncated", "the text ends where JSON could go on")
        return self.text[self.i]

    def white(self):
        while self.i < len(self.text) and self.text[self.i] in " \t\r\n":
            self.i += 1

    def digits(self):
        if not self.peek().isascii() or not self.peek().isdigit():
            raise SpecError("malformed", "a number without digits")
        while self.i < len(self.text) and self.text[self.i] in "0123456789":
            self.i += 1

    def document(self):
        self.white()
        self.value(1)
        self.white()
        if self.i != len(self.text):
            raise SpecError("malformed", "text after the document")

    def value(self, level):
        c = self.peek()
        if c in "{[":
            if level > LIMITS["nesting"]:
                raise SpecError("limitExceeded", "nesting")
            self.container(c, level)
        elif c == '"':
            self.string()
        elif c in "-0123456789":
            if c == "-":
                self.i += 1
            if self.peek() == "0":
                self.i += 1
            else:
                self.digits()
            if self.i < len(self.text) and self.text[self.i] == ".":
                self.i += 1
                self.digits()
            if self.i < len(self.text) and self.text[self.i] in "eE":
                self.i += 1
                if self.peek() in "+-":
                    self.i += 1
                self.digits()
        else:
            word = {"t": "true", "f": "false", "n": "null"}.get(c)
            if word is None:
                raise SpecError("malformed", f"unexpected {c!r}")
            for expected in word:
                if self.peek() != expected:
                    raise SpecError("malformed", f"not {word}")
                self.i += 1

    def container(self, opening, level):
        closing = "}" if opening == "{" else "]"
        self.i += 1
        self.white()
        if self.peek() == closing:
            self.i += 1
            return
        keys = set()
        while True:
            self.white()
            if opening == "{":
                if self.peek() != '"':
                    raise SpecError("malformed", "a key is not a string")
                key = self.string()
                if key in keys:
                    raise SpecError("malformed", "a key twice in one object")
                keys.add(key)
                self.white()
                if self.peek() != ":":
                    raise SpecError("malformed", "no ':' after a key")
                self.i += 1
                self.white()
            self.value(level + 1)
            self.white()
            c = self.peek()
            self.i += 1
            if c == closing:
                return
            if c != ",":
                raise SpecError("malformed", f"{c!r} where ',' or {closing!r} belongs")

    def hex4(self):
        value = 0
        for _ in range(4):
            c = self.peek()
            if c not in "0123456789abcdefABCDEF":
                raise SpecError("malformed", "a \\u escape without four hex digits")
            value = value * 16 + int(c, 16)
            self.i += 1
        return value

    def string(self):
        """The string at `i` with its escapes undone."""
        self.i += 1
        out = []
        while True:
            c = self.peek()
            self.i += 1
            if c == '"':
                return "".join(out)
            if c < " ":
                raise SpecError("malformed", "a raw control character in a string")
            if c != "\\":
                out.append(c)
                continue
            e = self.peek()
            self.i += 1
            if e in self.ESCAPES:
                out.append(self.ESCAPES[e])
                continue
            if e != "u":
                raise SpecError("malformed", "an unknown escape")
            code = self.hex4()
            if 0xD800 <= code < 0xDC00:
                for expected in "\\u":
                    if self.peek() != expected:
                        raise SpecError("invalidUTF8", "a lone surrogate")
                    self.i += 1
                low = self.hex4()
                if not 0xDC00 <= low < 0xE000:
                    raise SpecError("invalidUTF8", "a lone surrogate")
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            elif 0xDC00 <= code < 0xE000:
                raise SpecError("invalidUTF8", "a lone surrogate")
            out.append(chr(code))


def json_key_lengths(value, place):
    """§7: keys outside item metadata have at most 256 octets."""
    if isinstance(value, dict):
        for key, element in value.items():
            if len(key.encode("utf-8")) > LIMITS["key"]:
                raise SpecError("limitExceeded", "a key outside metadata longer than 256 octets")
            if place == "item" and key == "metadata":
                continue
            json_key_lengths(element, "items" if place == "root" and key == "items" else None)
    elif isinstance(value, list):
        for element in value:
            json_key_lengths(element, "item" if place == "items" else None)


def skip_json(text, i):
    """The index just after the JSON value (already known to be valid) that starts at `i`."""
    if text[i] == '"':
        i += 1
        while text[i] != '"':
            i += 2 if text[i] == "\\" else 1
        return i + 1
    if text[i] in "{[":
        close = "}" if text[i] == "{" else "]"
        i = skip_white(text, i + 1)
        while text[i] != close:
            if close == "}":
                i = skip_white(text, skip_white(text, skip_json(text, i)) + 1)
            i = skip_white(text, skip_json(text, i))
            if text[i] == ",":
                i = skip_white(text, i + 1)
        return i + 1
    while i < len(text) and text[i] not in ",]} \t\r\n":
        i += 1
    return i


def skip_white(text, i):
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    return i


def members(text, i):
    """(key, value start, value end) of the object at `i`."""
    i = skip_white(text, i + 1)
    while text[i] != "}":
        key_end = skip_json(text, i)
        key = json.loads(text[i:key_end])
        start = skip_white(text, skip_white(text, key_end) + 1)
        end = skip_json(text, start)
        yield key, start, end
        i = skip_white(text, end)
        if text[i] == ",":
            i = skip_white(text, i + 1)


def metadata_spans(text):
    """§7: the octets of each item's metadata value as written (white space and escapes inside it included)."""
    spans = {}
    for key, start, _ in members(text, skip_white(text, 0)):
        if key == "items" and text[start] == "[":
            i, index = skip_white(text, start + 1), 0
            while text[i] != "]":
                end = skip_json(text, i)
                if text[i] == "{":
                    for item_key, value_start, value_end in members(text, i):
                        if item_key == "metadata":
                            spans[index] = len(text[value_start:value_end].encode("utf-8"))
                i, index = skip_white(text, end), index + 1
                if text[i] == ",":
                    i = skip_white(text, i + 1)
    return spans


def metadata_from_json(value):
    if isinstance(value, Number):
        return value.metadata_value()
    if isinstance(value, list):
        return [metadata_from_json(element) for element in value]
    if isinstance(value, dict):
        return {key: metadata_from_json(element) for key, element in value.items()}
    return value


def declarations_span(text):
    """§7: the octets of the decls value as written."""
    for key, start, end in members(text, skip_white(text, 0)):
        if key == "decls":
            return len(text[start:end].encode("utf-8"))
    return 0


def read_json(data, minor_known, declared):  # §5
    if len(data) > LIMITS["document"]:
        raise SpecError("limitExceeded", "document")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise SpecError("invalidUTF8", str(error))

    def unique(pairs):
        keys = [key for key, _ in pairs]
        if len(keys) != len(set(keys)):
            raise SpecError("malformed", "duplicate key")
        return dict(pairs)

    def no_constant(name):
        raise SpecError("malformed", f"{name} is not JSON")

    JSONScanner(text).document()  # §8: syntax, the end, duplicate keys, lone surrogates, nesting, front to back
    value = json.loads(text, object_pairs_hook=unique, parse_constant=no_constant, parse_int=Number,
                       parse_float=Number)
    json_key_lengths(value, "root")
    if not isinstance(value, dict) or value.get("format") != FORMAT:
        raise SpecError("notAnArchive", "format name")
    spans = metadata_spans(text)

    def metadata(item, index):
        if spans.get(index, 0) > LIMITS["metadata"]:
            raise SpecError("limitExceeded", "metadata size")
        raw = item.get("metadata", {})
        return metadata_from_json(raw) if isinstance(raw, dict) else raw

    def payload(representation):
        has_text, has_base64 = "text" in representation, "base64" in representation
        if has_text == has_base64:
            raise SpecError("malformed", "exactly one of text and base64")
        if has_text:
            if not isinstance(representation["text"], str):
                raise SpecError("malformed", "text")
            return representation["text"].encode("utf-8")
        encoded = representation["base64"]
        if not isinstance(encoded, str) or not BASE64.fullmatch(encoded):
            raise SpecError("invalidBase64", "base64")
        try:
            decoded = base64.b64decode(encoded, validate=True)
        except binascii.Error as error:
            raise SpecError("invalidBase64", str(error))
        if base64.b64encode(decoded).decode() != encoded:  # §5.1: padding bits must be zero
            raise SpecError("invalidBase64", "non-zero padding bits")
        return decoded

    return check_archive(value, value, payload, metadata, lambda: declarations_span(text), minor_known, declared)


def read_with_declarations(data, minor_known=1):
    """The archive's items and the identifiers it declares (§3.6). `minor_known` is the minor version this reader
    implements: with 0 it reads as a reader of version 1.0 does, ignoring `decls` (§6)."""
    declared = []
    items = (read_cbor if detect(data) == "cbor" else read_json)(data, minor_known, declared)
    return items, declared


def read(data, minor_known=1):
    return read_with_declarations(data, minor_known)[0]


if __name__ == "__main__":
    for path in sys.argv[1:]:
        with open(path, "rb") as file:
            try:
                read(file.read())
                print(f"{path}: valid")
            except SpecError as error:
                print(f"{path}: {error.code}")
