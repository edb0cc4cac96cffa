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


def test_one_upload_naming_rule_for_every_door(tmp_path):
    """REST, the web page and Telegram name uploads with cairn.uploads: never outside the folder."""
    from cairn.errors import InvalidInput
    from cairn.interfaces.rest import uploads as rest_uploads
    from cairn.interfaces.telegram import bot
    from cairn.uploads import safe_name, target
    assert rest_uploads.safe_name is safe_name and bot.safe_name is safe_name
    assert safe_name("../../etc/passwd") == "passwd" and safe_name("..\\..\\boot.ini") == "boot.ini"
    assert safe_name("..", "upload") == "upload" and safe_name('a<b>:"c|?*.md') == "abc.md"
    with pytest.raises(InvalidInput, match="no usable name"):
        safe_name("/")
    taken: set[str] = set()
    first, second = target(tmp_path, "n.md", taken), target(tmp_path, "N.md", taken)
    assert (first.name, second.name) == ("n.md", "N-2.md") and first.parent == tmp_path.resolve()
    assert len(safe_name("x" * 300 + ".pdf")) == 150 and safe_name("x" * 300 + ".pdf").endswith(".pdf")
