"""The two shapes of `cairn.results` (see its docstring): `Record`, a dict with declared keys,
and `Items`, a list of typed items; `_json`, the JSON form of a value. Kept apart so the
result modules (`cairn.results`, `cairn.results_engine`) share them without importing each other."""

from __future__ import annotations

from typing import Any, ClassVar

def _json(value: Any) -> Any:
    """The JSON form of a value: `to_json()` where it has one, containers item by item."""
    if hasattr(value, "to_json"):
        return value.to_json()
    if isinstance(value, dict):
        return {k: _json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json(v) for v in value]
    return value


class Record(dict):
    """A dict with declared keys (the class annotations), attribute access and `to_json()`."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"{type(self).__name__} has no {name!r}") from None

    @classmethod
    def keys_declared(cls) -> list[str]:
        """The keys this result always has, in order (from the class annotations)."""
        keys: list[str] = []
        for klass in reversed(cls.__mro__):
            keys += [k for k in getattr(klass, "__annotations__", {}) if k not in keys and not k.startswith("_")]
        return keys

    def to_json(self) -> dict[str, Any]:
        """A plain dict of JSON values (nested results converted by their own to_json)."""
        return {k: _json(v) for k, v in self.items()}


class Items(list):
    """A list of typed items; `to_json()` is the list of their JSON forms."""

    item: ClassVar[str] = "item"

    def to_json(self) -> list[Any]:
        return [_json(v) for v in self]
