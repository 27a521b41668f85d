"""Checks values against Schemas/transfer-session.cddl with a reader for the part of CDDL (RFC 8610) that file
uses: rules, maps with quoted keys and optional (`?`) members, tables (`{ + key => value }`, `*` for possibly empty),
`[* type]` arrays, choices with `/`, text and unsigned integer literals,
the prelude types uint, int, tstr, bstr and bool, and the controls `.size N` and `.size (A..B)`.
Standard library only; used by session_peer.py's check roles."""
import re

PRELUDE = {"uint", "int", "tstr", "bstr", "bool"}


def _strip_comments(text):
    return "\n".join(line.split(";", 1)[0] if not line.lstrip().startswith(";") else "" for line in text.splitlines())


def parse(text):
    """Rule name -> parsed type."""
    text = _strip_comments(text)
    rules = {}
    # A rule starts at the beginning of a line: `name = …` up to the next such line.
    starts = [m for m in re.finditer(r"^([a-z][a-z0-9-]*)\s*=", text, re.MULTILINE)]
    for index, match in enumerate(starts):
        end = starts[index + 1].start() if index + 1 < len(starts) else len(text)
        body = text[match.end():end].strip()
        tokens = re.findall(r'"[^"]*"|=>|\.\.|\.size|[{}\[\]():,?*/+]|[A-Za-z0-9_-]+', body)
        parsed, rest = _type(tokens, 0)
        if rest != len(tokens):
            raise ValueError(f"cannot read rule {match.group(1)}: {tokens[rest:]}")
        rules[match.group(1)] = parsed
    return rules


def _type(tokens, i):
    choices = []
    while True:
        single, i = _single(tokens, i)
        choices.append(single)
        if i < len(tokens) and tokens[i] == "/":
            i += 1
            continue
        return (choices[0] if len(choices) == 1 else ("choice", choices)), i


def _single(tokens, i):
    token = tokens[i]
    if token == "{" and tokens[i + 1] in ("+", "*"):
        # A table: every key of one type, every value of another; `+` needs at least one entry.
        least = 1 if tokens[i + 1] == "+" else 0
        key, i = _single(tokens, i + 2)
        assert tokens[i] == "=>", tokens[i:i + 3]
        value, i = _type(tokens, i + 1)
        assert tokens[i] == "}", tokens[i:i + 3]
        return ("table", key, value, least), i + 1
    if token == "{":
        members, i = [], i + 1
        while tokens[i] != "}":
            optional = tokens[i] == "?"
            if optional:
                i += 1
            key = tokens[i].strip('"')
            assert tokens[i + 1] == ":", tokens[i:i + 3]
            value, i = _type(tokens, i + 2)
            members.append((key, optional, value))
            if tokens[i] == ",":
                i += 1
        return ("map", members), i + 1
    if token == "[":
        assert tokens[i + 1] == "*", tokens[i:i + 3]
        element, i = _type(tokens, i + 2)
        assert tokens[i] == "]"
        return ("array", element), i + 1
    if token.startswith('"'):
        return ("literal", token.strip('"')), i + 1
    if token.isdigit():
        return ("literal", int(token)), i + 1
    base = ("ref", token)
    i += 1
    if i < len(tokens) and tokens[i] == ".size":
        if tokens[i + 1] == "(":
            low, high = int(tokens[i + 2]), int(tokens[i + 4])
            return ("size", base, low, high), i + 6
        return ("size", base, None, int(tokens[i + 1])), i + 2
    return base, i


def check(rules, rule, value, path="$"):
    """Raises ValueError naming the first place where `value` breaks rule `rule`."""
    _check(rules, rules[rule], value, path)


def _check(rules, kind, value, path):
    tag = kind[0]
    if tag == "ref":
        name = kind[1]
        if name in PRELUDE:
            ok = {
                "uint": isinstance(value, int) and not isinstance(value, bool) and value >= 0,
                "int": isinstance(value, int) and not isinstance(value, bool),
                "tstr": isinstance(value, str),
                "bstr": isinstance(value, bytes),
                "bool": isinstance(value, bool),
            }[name]
            if not ok:
                raise ValueError(f"{path}: {value!r} is not {name}")
            return
        return _check(rules, rules[name], value, path)
    if tag == "literal":
        # Python's True equals 1: a bool is never an integer literal's value.
        if value != kind[1] or isinstance(value, bool) != isinstance(kind[1], bool):
            raise ValueError(f"{path}: {value!r} is not \"{kind[1]}\"")
        return
    if tag == "choice":
        errors = []
        for option in kind[1]:
            try:
                return _check(rules, option, value, path)
            except ValueError as error:
                errors.append(str(error))
        raise ValueError(f"{path}: {value!r} matches no choice ({'; '.join(errors)})")
    if tag == "size":
        _check(rules, kind[1], value, path)
        low, high = kind[2], kind[3]
        if isinstance(value, int):
            if value >= 1 << (8 * high):
                raise ValueError(f"{path}: {value} does not fit {high} bytes")
        elif not (low or 0) <= len(value) <= high:
            raise ValueError(f"{path}: {len(value)} bytes, not {low}..{high}")
        return
    if tag == "array":
        if not isinstance(value, list):
            raise ValueError(f"{path}: {value!r} is not an array")
        for index, element in enumerate(value):
            _check(rules, kind[1], element, f"{path}[{index}]")
        return
    if tag == "map":
        if not isinstance(value, dict):
            raise ValueError(f"{path}: {value!r} is not a map")
        known = {key for key, _, _ in kind[1]}
        for key in value:
            if key not in known:
                raise ValueError(f"{path}: key {key!r} is not in the CDDL")
        for key, optional, member in kind[1]:
            if key not in value:
                if not optional:
                    raise ValueError(f"{path}: required key {key!r} is missing")
                continue
            _check(rules, member, value[key], f"{path}.{key}")
        return
    if tag == "table":
        if not isinstance(value, dict):
            raise ValueError(f"{path}: {value!r} is not a map")
        if len(value) < kind[3]:
            raise ValueError(f"{path}: fewer than {kind[3]} entries")
        for key, member in value.items():
            _check(rules, kind[1], key, f"{path} key {key!r}")
            _check(rules, kind[2], member, f"{path}[{key!r}]")
        return
    raise ValueError(f"unknown kind {tag}")
