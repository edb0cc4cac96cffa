"""The docs match the code: every setting of config.py is described in docs/install.md (under
its table), every command of the `cairn` command line (plugin-registered ones included) is
named in docs/, every hook of hookspecs.py is described in docs/plugins.md, and every file a
module docstring cites exists in the repository."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import typer.main

from cairn import hookspecs
from cairn.config import _SECTIONS, Settings

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SRC = ROOT / "src" / "cairn"
# Settings fields that are not config keys, and config keys stored under another name.
NOT_KEYS = {"home", "store_url"}  # store_url is `[store] url`, described with `store`
KEY_NAMES = {"vault_dir": "vault", "plugin_config": "plugin"}


def documented_settings() -> dict[str, set[str]]:
    """Table name ("" for top-level) -> keys listed as "- `key`:" (or "- `a` and `b`:",
    "- `a`, `b`, `c`:") under its heading in docs/install.md ("### Top-level keys",
    "### The [name] table")."""
    out: dict[str, set[str]] = {}
    table = None
    for line in (DOCS / "install.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            m = re.match(r"### The \[(\w+)\] table", line)
            table = m.group(1) if m else ("" if line.startswith("### Top-level keys") else None)
            continue
        m = re.match(r"- ((?:`\w+`(?:,| and|, and)? ?)+):", line)
        if table is not None and m:
            out.setdefault(table, set()).update(re.findall(r"`(\w+)`", m.group(1)))
    return out


def settings_in_code() -> dict[str, set[str]]:
    top = {KEY_NAMES.get(f.name, f.name) for f in dataclasses.fields(Settings)
           if f.name not in NOT_KEYS and f.name not in _SECTIONS}
    out = {"": top}
    defaults = Settings(home=Path("/nowhere"))
    for section in _SECTIONS:
        out[section] = {f.name for f in dataclasses.fields(getattr(defaults, section))}
    return out


def test_every_setting_is_documented_under_its_table():
    docs = documented_settings()
    missing = [f"[{t}] {k}" if t else k for t, keys in settings_in_code().items()
               for k in sorted(keys - docs.get(t, set()))]
    assert missing == [], "settings missing from docs/install.md"


def test_the_docs_list_no_setting_the_code_lacks():
    code = settings_in_code()
    extra = [f"[{t}] {k}" if t else k for t, keys in documented_settings().items()
             for k in sorted(keys - code.get(t, set()))]
    assert extra == []


def command_paths() -> list[str]:
    """"cairn X Y" for every command and sub-command, plugin-registered ones included."""
    from cairn.cli import app
    out = []

    def walk(cmd, prefix):
        for name, sub in sorted(getattr(cmd, "commands", {}).items()):
            if getattr(sub, "hidden", False):
                continue
            out.append(f"{prefix} {name}")
            walk(sub, f"{prefix} {name}")
    walk(typer.main.get_command(app), "cairn")
    return out


def docs_text() -> str:
    return re.sub(r"\s+", " ", " ".join(p.read_text(encoding="utf-8") for p in sorted(DOCS.rglob("*.md"))))


def test_every_command_is_named_in_the_docs():
    text = docs_text()
    paths = command_paths()
    assert {"cairn search", "cairn jobs retry", "cairn plugins", "cairn tool run"} <= set(paths)
    missing = [p for p in paths if p not in text]
    assert missing == [], "commands not named in docs/ (write `cairn X Y` where it is described)"


def test_every_hook_is_described_in_plugins_md():
    hooks = [n for n in dir(hookspecs) if n.startswith("register_")]
    assert len(hooks) >= 6
    text = (DOCS / "plugins.md").read_text(encoding="utf-8")
    assert [h for h in hooks if f"`{h}(" not in text] == []


def test_the_worked_example_in_plugins_md_is_the_tested_plugin():
    """docs/plugins.md shows docs/examples/cairn-hello/cairn_hello.py (the file the tests
    install), without its docstring and future import."""
    import ast
    example = (DOCS / "examples" / "cairn-hello" / "cairn_hello.py").read_text(encoding="utf-8")
    code = "\n".join(example.split("\n")[ast.parse(example).body[0].end_lineno:])
    code = code.replace("from __future__ import annotations\n\n", "").strip("\n")
    assert f"```python\n{code}\n```" in (DOCS / "plugins.md").read_text(encoding="utf-8")


def test_docstrings_cite_only_files_that_exist():
    """A module that says "see X.md" or "docs/x.md" points at a file of this repository."""
    cited = set()
    for f in SRC.rglob("*.py"):
        for m in re.finditer(r"(?<![\w./-])((?:docs|bench)/[\w./-]+\.md|[A-Z][A-Z_]+\.md)\b", f.read_text(encoding="utf-8")):
            cited.add((f.relative_to(ROOT).as_posix(), m.group(1)))
    assert cited, "the pattern finds citations"
    missing = [(f, c) for f, c in sorted(cited) if not (ROOT / c).exists()]
    assert missing == []
