"""cairn.tools.fastcheck: its "certainly valid" never disagrees with jsonschema (over every
built-in tool's schema and arguments made for each keyword), and the calls the assistant
makes with good arguments pass without importing jsonschema."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from cairn.tools import registry
from cairn.tools.fastcheck import certainly_valid

SRC = Path(__file__).resolve().parents[2] / "src"


def _sample(schema: dict):
    """A value of the schema's type (the first enum value when there is one)."""
    if "enum" in schema:
        return schema["enum"][0]
    t = schema.get("type")
    t = t[0] if isinstance(t, list) else t
    return {"string": "x" * max(1, schema.get("minLength", 1)), "integer": max(1, schema.get("minimum", 1)),
            "number": 1.5, "boolean": True, "array": [], "object": {}, "null": None}.get(t, "x")


def _instances(schema: dict) -> list:
    props = schema.get("properties", {})
    base = {k: _sample(props[k]) for k in schema.get("required", [])}
    full = {k: _sample(v) for k, v in props.items()}
    out = [None, {}, base, full, dict(base, extra_key=1), "not an object"]
    for k, v in props.items():
        for bad in (5, "", True, 2.0, 1.5, -3, [], ["a"], [1], {}, None, "http://x", "ftp://x", "a" * 300, 10_000):
            out.append(dict(base, **{k: bad}))
    return out


def _jsonschema_valid(instance, schema) -> bool:
    try:
        jsonschema.validate(instance, schema)
        return True
    except jsonschema.ValidationError:
        return False


def test_never_valid_where_jsonschema_says_invalid():
    checked = fast = 0
    for tool in registry().all():
        for inst in _instances(tool.parameters):
            if certainly_valid(inst, tool.parameters):
                fast += 1
                assert _jsonschema_valid(inst, tool.parameters), (tool.name, inst)
            checked += 1
    assert checked > 500 and fast > 60  # and most good calls take the quick path


@pytest.mark.parametrize("instance,schema,expected", [
    (True, {"type": "integer"}, False),                 # a boolean is no integer
    (2.0, {"type": "integer"}, False),                  # left to jsonschema (it says valid)
    (1, {"enum": [1, 2]}, False),                       # numbers in an enum: left to jsonschema
    ("b", {"enum": ["a", "b"]}, True),
    ("abc", {"type": "string", "minLength": "x"}, False),  # a malformed schema: jsonschema reports it
    ({"a": 1}, {"type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": False}, True),
    ({"a": 1, "b": 2}, {"type": "object", "properties": {"a": {}}, "additionalProperties": False}, False),
    ({"a": 1}, {"type": "object", "anyOf": [{}]}, False),  # a keyword not decided here
    ([1, 2], {"type": "array", "items": {"type": "integer", "minimum": 1}, "maxItems": 2}, True),
])
def test_cases(instance, schema, expected):
    assert certainly_valid(instance, schema) is expected


def test_good_calls_do_not_import_jsonschema():
    code = ("import sys; from cairn.tools import registry, validate_arguments; reg = registry(); "
            "validate_arguments(reg.get('remember'), {'text': 'my bike lock code is 4412'}); "
            "validate_arguments(reg.get('reminders'), {}); "
            "assert 'jsonschema' not in sys.modules, 'imported'; "
            "from cairn.tools import InvalidArguments\n"
            "try:\n validate_arguments(reg.get('remember'), {'text': 5})\n"
            "except InvalidArguments as exc:\n print(exc)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin", "CAIRN_LOAD_PLUGINS": ""})
    assert r.returncode == 0, r.stderr
    assert "remember: argument text: 5 is not of type 'string'" in r.stdout  # jsonschema's own words
