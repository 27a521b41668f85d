#!/usr/bin/env python3
"""An independent reader of TransferKit archives, written from Schemas/transfer-archive.md alone.

It shares no code with TransferKit: it uses cbor2 and Python's json module, and follows the spec's sections
(cited below). `read(data)` returns the archive as plain Python values or raises SpecError with the spec's
error code. Usage: python3 Tests/Interop/spec_reader.py FILE...  (prints "valid" or the code per file)
"""
import base64
import binascii
import io
import json
import re
import sys
import unicodedata
import zlib
from collections.abc import Mapping

import cbor2

FORMAT = "transferkit-archive"
IDENTIFIER = re.compile(r"(?:[A-Za-z0-9-]+\.)*[A-Za-z0-9-]+")  # §3.1, used with fullmatch
BASE64 = re.compile(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")
LIMITS = {"name": 1024, "items": 65536, "representations": 256, "depth": 16, "metadata": 1 << 20,
          "payload": 1 << 40, "document": 64 << 20}  # §7 defaults


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


def check_identifier(text):  # §3.1
    if not isinstance(text, str):
        raise SpecError("malformed", "a type is not text")
    if not (1 <= len(text.encode("utf-8")) <= 255) or not IDENTIFIER.fullmatch(text):
        raise SpecError("invalidIdentifier", repr(text))
    return text


def check_name(name):  # §3.2
    if not isinstance(name, str):
        raise SpecError("malformed", "a name is not text")
    if len(name.encode("utf-8")) > LIMITS["name"]:
        raise SpecError("limitExceeded", "name")
    if name in ("", ".", "..") or "/" in name or "\x00" in name:
        raise SpecError("invalidName", repr(name))


def check_metadata_value(value, depth, from_json):  # §3.4; depth counts arrays and maps only (§7)
    if isinstance(value, (list, dict)) and depth > LIMITS["depth"]:
        raise SpecError("limitExceeded", "metadata nesting")
    if value is None:
        raise SpecError("malformed", "null metadata")
    if isinstance(value, bool) or isinstance(value, str) or isinstance(value, float):
        return
    if isinstance(value, int):
        if not (-(2 ** 63) <= value < 2 ** 63):
            raise SpecError("unrepresentableValue", "metadata integer")
        return
    if isinstance(value, list):
        for element in value:
            check_metadata_value(element, depth + 1, from_json)
        return
    if isinstance(value, dict):
        seen = set()
        for key, element in value.items():
            if not isinstance(key, str):
                raise SpecError("malformed", "metadata key not text")
            normalized = unicodedata.normalize("NFC", key)
            if normalized in seen:
                raise SpecError("malformed", "metadata key twice")
            seen.add(normalized)
            check_metadata_value(element, depth + 1, from_json)
        return
    raise SpecError("malformed", f"metadata value of type {type(value).__name__}")


def check_integer(value, low, high):  # §5.1: integer fields may be written 4, 4.0 or 4e0 in JSON
    if isinstance(value, bool):
        raise SpecError("malformed", "a Boolean where an integer belongs")
    if isinstance(value, float):
        if not value.is_integer():
            raise SpecError("malformed", "a fraction where an integer belongs")
        value = int(value)
    if not isinstance(value, int) or not (low <= value <= high):
        raise SpecError("malformed", "an integer out of range")
    return value


def check_archive(top, body, payload_of, from_json):
    """Checks the layout shared by both forms: format, version (§6), items, representations."""
    if top.get("format") != FORMAT:
        raise SpecError("notAnArchive", "format name")
    version = top.get("version")
    if not isinstance(version, list) or len(version) < 2:
        raise SpecError("malformed", "version")
    major = check_integer(version[0], 0, 2 ** 64)
    check_integer(version[1], 0, 2 ** 64)
    if major != 1:
        raise SpecError("unsupportedVersion", str(major))
    items = body.get("items")
    if not isinstance(items, list):
        raise SpecError("malformed", "items")
    if len(items) > LIMITS["items"]:
        raise SpecError("limitExceeded", "items")
    archive = []
    for item in items:
        if not isinstance(item, dict):
            raise SpecError("malformed", "item")
        if "name" in item:
            check_name(item["name"])
        metadata = item.get("metadata", {})
        if not isinstance(metadata, dict):
            raise SpecError("malformed", "metadata")
        check_metadata_value(metadata, 1, from_json)
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
            data = payload_of(representation)
            if len(data) > LIMITS["payload"]:
                raise SpecError("limitExceeded", "payload")
            if "checksum" not in representation:
                raise SpecError("malformed", "checksum missing")
            checksum = check_integer(representation["checksum"], 0, 0xFFFFFFFF)
            if zlib.crc32(data) != checksum:  # §3.3
                raise SpecError("checksumMismatch", identifier)
            if identifier.lower() in types:  # §3.5, ASCII case-insensitive (identifiers are ASCII)
                raise SpecError("duplicateType", identifier)
            types.add(identifier.lower())
            reps.append((identifier, data))
        archive.append({"name": item.get("name"), "metadata": metadata, "representations": reps})
    return archive


def thaw(value):
    """cbor2 may decode arrays as tuples and maps as frozen dictionaries; make them lists and dicts."""
    if isinstance(value, (list, tuple)):
        return [thaw(element) for element in value]
    if isinstance(value, Mapping):
        return {key: thaw(element) for key, element in value.items()}
    return value


def read_cbor(data):  # §4
    stream = io.BytesIO(data)
    try:
        value = cbor2.CBORDecoder(stream).decode()
    except cbor2.CBORDecodeEOF as error:
        raise SpecError("truncated", str(error))
    except (cbor2.CBORDecodeError, UnicodeDecodeError) as error:
        text = str(error)
        raise SpecError("invalidUTF8" if "utf-8" in text.lower() else "malformed", text)
    if stream.tell() != len(data):
        raise SpecError("malformed", "bytes follow the archive")
    if isinstance(value, cbor2.CBORTag) and value.tag == 55799:
        value = value.value
    # §4.2: the input must be the deterministic encoding of what it holds; re-encoding canonically must give
    # the same bytes (this also catches duplicate keys, which cbor2 merges, and non-shortest heads).
    if data[3:] != cbor2.dumps(value, canonical=True):
        raise SpecError("malformed", "not the deterministic encoding")
    value = thaw(value)
    if not isinstance(value, list) or len(value) < 3 or not isinstance(value[2], dict):
        raise SpecError("malformed", "top level")
    if value[0] != FORMAT:
        raise SpecError("notAnArchive", "format name")
    top = {"format": value[0], "version": value[1]}

    def payload(representation):
        data = representation.get("payload")
        if not isinstance(data, bytes):
            raise SpecError("malformed", "payload")
        return data

    return check_archive(top, value[2], payload, from_json=False)


def read_json(data):  # §5
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

    try:
        value = json.loads(text, object_pairs_hook=unique, parse_constant=no_constant)
    except json.JSONDecodeError as error:
        raise SpecError("truncated" if error.pos >= len(text.rstrip()) else "malformed", str(error))
    if not isinstance(value, dict):
        raise SpecError("notAnArchive", "not an object")
    if value.get("format") != FORMAT:
        raise SpecError("notAnArchive", "format name")

    def payload(representation):
        has_text, has_base64 = "text" in representation, "base64" in representation
        if has_text == has_base64:
            raise SpecError("malformed", "exactly one of text and base64")
        if has_text:
            if not isinstance(representation["text"], str):
                raise SpecError("malformed", "text")
            try:
                return representation["text"].encode("utf-8")
            except UnicodeEncodeError:  # a lone surrogate from a \u escape
                raise SpecError("invalidUTF8", "text")
        encoded = representation["base64"]
        if not isinstance(encoded, str) or not BASE64.fullmatch(encoded):
            raise SpecError("invalidBase64", "base64")
        try:
            return base64.b64decode(encoded, validate=True)
        except binascii.Error as error:
            raise SpecError("invalidBase64", str(error))

    return check_archive(value, value, payload, from_json=True)


def read(data):
    return read_cbor(data) if detect(data) == "cbor" else read_json(data)


if __name__ == "__main__":
    for path in sys.argv[1:]:
        with open(path, "rb") as file:
            try:
                read(file.read())
                print(f"{path}: valid")
            except SpecError as error:
                print(f"{path}: {error.code}")
