"""Every door asks the same key scope for the same operation: the tool registry's scopes
match the REST routes' for the operations both expose."""

from __future__ import annotations

import pytest

from cairn.tools import SCOPES, Tool, registry, required_scope


def test_export_needs_the_same_scope_through_mcp_and_rest():
    from cairn.interfaces.rest import deps, routes_export
    rest = {r.path: r for r in routes_export.router.routes}["/api/export"]
    scopes = {"read": deps.READ, "write": deps.WRITE, "admin": deps.ADMIN}
    rest_scope = next(name for name, dep in scopes.items() if dep in rest.dependencies)
    tool = registry().get("export")
    assert required_scope(tool) == rest_scope == "read" and not tool.read_only


def test_a_tool_scope_must_be_a_known_one():
    with pytest.raises(ValueError, match="scope 'root'"):
        Tool("x", "d", {"type": "object"}, lambda app, a: None, scope="root")
    assert set(SCOPES) == {"read", "write", "admin"}
