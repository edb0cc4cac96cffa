"""Cheap option coercion for typer, so a command does not import pydantic to read its options.

typer 0.29 coerces every parameter of the invoked command through a pydantic `TypeAdapter`
(typer._adapters): importing pydantic and building the adapters cost ~0.2 s of a cold
`cairn search` (measured with `python -X importtime` and cProfile on the 2-core machine:
typer._adapters 192 ms cumulative import, about as much as `import numpy`). Cairn's options
only use a few plain types, so `install()` puts a converter in front of typer's
`build_runtime_param` that handles them without pydantic:

    str, int and float (with min/max, no clamp), bool (also given as text: 1/0, yes/no, ...), pathlib.Path
    (typer's own path checks: exists, file_okay, ...), Enum choices, and list[...] of these.

Anything else (a custom `parser`, datetime, tuples, files, clamp) goes to typer's own
builder unchanged, so a plugin's command with an unusual type still works. Error messages
keep typer's wording for choices ("'x' is not one of 'a', 'b'.") and pydantic's for numbers
("Input should be greater than or equal to 1"), so usage errors read as before (exit 2).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Callable, get_args, get_origin

from typer import core as _core
from typer._click.exceptions import BadParameter
from typer._coercion import RuntimeParam
from typer._param_types import coerce_cli_choice, coerce_cli_path, lenient_issubclass, routes_to_path

_ORIGINAL = _core.build_runtime_param


@dataclass(frozen=True)
class LiteRuntimeParam(RuntimeParam):
    """A RuntimeParam whose coercion is a plain function(value, param, ctx) -> value."""

    convert: Callable[[Any, Any, Any], Any]

    def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
        try:
            return self.convert(value, param, ctx)
        except BadParameter:
            raise
        except (TypeError, ValueError) as exc:
            raise BadParameter(str(exc), ctx=ctx, param=param) from exc


def _number(kind: type, info) -> Callable | None:
    if info.clamp:
        return None
    label = "an integer" if kind is int else "a number"

    def convert(value, param, ctx):
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise ValueError(f"Input should be a valid {label[2:] if kind is float else 'integer'}")
        try:
            number = kind(value.strip() if isinstance(value, str) else value)
        except ValueError:
            raise ValueError(f"Input should be a valid {'integer' if kind is int else 'number'}, "
                             f"unable to parse string as {label}") from None
        if info.min is not None and number < info.min:
            raise ValueError(f"Input should be greater than or equal to {info.min}")
        if info.max is not None and number > info.max:
            raise ValueError(f"Input should be less than or equal to {info.max}")
        return number
    return convert


def _str(value, param, ctx):
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


_TRUE = {"1", "on", "t", "true", "y", "yes"}
_FALSE = {"0", "off", "f", "false", "n", "no", ""}


def _bool(value, param, ctx):
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE or text in _FALSE:
        return text in _TRUE
    raise ValueError("Input should be a valid boolean, unable to interpret input")


def _leaf(annotation: Any, info) -> Callable | None:
    """A converter for one plain annotation, or None when typer's own builder must do it."""
    if info.parser is not None:
        return None
    if lenient_issubclass(annotation, Enum):
        choices = list(annotation)
        return lambda v, p, c: coerce_cli_choice(v, choices=choices, case_sensitive=info.case_sensitive, ctx=c)
    if annotation is bool:
        return _bool
    if annotation is int or annotation is float:
        return _number(annotation, info)
    if annotation is str and not routes_to_path(annotation, info):
        return _str
    if lenient_issubclass(annotation, Path) and info.path_type in (None, annotation):
        return lambda v, p, c: coerce_cli_path(v if isinstance(v, Path) else annotation(v), info,
                                               path_type=annotation, param=p, ctx=c)
    return None


def build_runtime_param(descriptor) -> RuntimeParam:
    """typer's `build_runtime_param` with a pydantic-free path for Cairn's plain option types."""
    annotation, info = descriptor.annotation, descriptor.parameter_info
    if descriptor.file_annotation is None:
        convert = None
        if get_origin(annotation) is list:
            args = get_args(annotation)
            item = _leaf(args[0], info) if len(args) == 1 else None
            if item is not None:
                def convert(value, param, ctx, item=item):
                    values = value if isinstance(value, (list, tuple)) else [value]
                    return [item(v, param, ctx) for v in values]
        else:
            convert = _leaf(annotation, info)
        if convert is not None:
            return LiteRuntimeParam(parameter_info=info, annotation=annotation, convert=convert)
    return _ORIGINAL(descriptor)


def install() -> None:
    """Route typer's parameter coercion through `build_runtime_param` (idempotent)."""
    _core.build_runtime_param = build_runtime_param
