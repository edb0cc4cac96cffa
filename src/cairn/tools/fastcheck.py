"""A quick exact check that a tool call's arguments are valid against its JSON Schema, for
the keywords Cairn's tools use, so a call with good arguments does not import `jsonschema`
(its import, with attrs and referencing, is ~0.1 s of CPU and up to 0.5 s of wall time of a
one-shot `cairn chat` turn on the shared 2-core machine; bench/README.md, "Session 15 — turn").

`certainly_valid(instance, schema)` answers True only when the instance is valid by the
JSON Schema rules of every keyword it meets (Draft 2020-12 semantics, as `jsonschema`
applies them); anything else (an invalid value, a keyword outside KEYWORDS, a case this
check does not decide, such as a float given for an integer or an enum of numbers) is
False, and the caller then validates with `jsonschema` itself, which also words the error.
So a verdict of this module never differs from `jsonschema`'s: it only skips it when the
answer is certainly "valid".
"""

from __future__ import annotations

import re
from typing import Any

#: Keywords decided here; annotations (ANNOTATIONS) are ignored, as validation ignores them.
KEYWORDS = frozenset({"type", "properties", "additionalProperties", "required", "enum", "minLength",
                      "maxLength", "pattern", "minimum", "maximum", "items", "minItems", "maxItems"})
ANNOTATIONS = frozenset({"description", "title", "default", "examples", "$comment"})
_TYPES = {"string": str, "array": list, "object": dict}


def _is_type(value: Any, name: str) -> bool | None:
    """Whether `value` is of JSON type `name`; None when not decided here."""
    if name in _TYPES:
        return isinstance(value, _TYPES[name])
    if name == "boolean":
        return isinstance(value, bool)
    if name == "null":
        return value is None
    if isinstance(value, bool):
        return False  # a boolean is neither an integer nor a number in JSON Schema
    if name == "integer":
        return True if isinstance(value, int) else (None if isinstance(value, float) else False)
    if name == "number":
        return isinstance(value, (int, float))
    return None


def certainly_valid(instance: Any, schema: Any) -> bool:
    """True only when `instance` is valid against `schema` (module docstring). A malformed
    schema ("minLength": "a", a bad pattern) is False here: jsonschema reports it."""
    try:
        return _valid(instance, schema)
    except (TypeError, ValueError, re.error, RecursionError):
        return False


def _valid(instance: Any, schema: Any) -> bool:
    if schema is True or schema == {}:
        return True
    if not isinstance(schema, dict) or not set(schema) <= KEYWORDS | ANNOTATIONS:
        return False
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_is_type(instance, n) for n in names):
            return False
    if "enum" in schema:
        if not isinstance(instance, str) or not any(isinstance(e, str) and e == instance for e in schema["enum"]):
            return False  # strings only: JSON equality of numbers and booleans is left to jsonschema
    if isinstance(instance, str):
        if len(instance) < schema.get("minLength", 0) or len(instance) > schema.get("maxLength", len(instance)):
            return False
        if "pattern" in schema and not re.search(schema["pattern"], instance):
            return False
    if isinstance(instance, (int, float)) and not isinstance(instance, bool):
        if ("minimum" in schema and not instance >= schema["minimum"]) or \
                ("maximum" in schema and not instance <= schema["maximum"]):
            return False
    if isinstance(instance, list):
        if len(instance) < schema.get("minItems", 0) or len(instance) > schema.get("maxItems", len(instance)):
            return False
        if "items" in schema and not all(_valid(x, schema["items"]) for x in instance):
            return False
    if isinstance(instance, dict):
        props = schema.get("properties", {})
        if not isinstance(props, dict) or any(k not in instance for k in schema.get("required", [])):
            return False
        extra = schema.get("additionalProperties", True)
        for k, v in instance.items():
            if k in props:
                if not _valid(v, props[k]):
                    return False
            elif not _valid(v, extra):
                return False
    return True
