"""The worked example plugin of docs/plugins.md (docs/examples/cairn-hello), installed the way
pip leaves a package (the module plus a .dist-info with entry_points.txt in a folder on the
path) and exercised through the real `cairn` command: it is listed by `cairn plugins --json`,
its command runs, its tool runs, its parser ingests a .todo file that search then finds, and
its importer runs as `cairn import lines`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import cairn

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "cairn-hello"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A folder holding the example as pip would install it."""
    site = tmp_path_factory.mktemp("site")
    shutil.copy(EXAMPLE / "cairn_hello.py", site / "cairn_hello.py")
    dist = site / "cairn_hello-0.1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: cairn-hello\nVersion: 0.1.0\n")
    # The entry point exactly as the example's pyproject.toml declares it.
    declared = (EXAMPLE / "pyproject.toml").read_text()
    assert '[project.entry-points."cairn.plugins"]\nhello = "cairn_hello"' in declared
    (dist / "entry_points.txt").write_text("[cairn.plugins]\nhello = cairn_hello\n")
    return site


def run(site: Path, home: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("CAIRN_LOAD_PLUGINS", None)
    src = str(Path(cairn.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join([str(site), src] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    return subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), *args], capture_output=True,
                          text=True, timeout=600, env=env, stdin=subprocess.DEVNULL)


def test_the_example_plugin_is_listed_and_each_of_its_hooks_works(site, tmp_path):
    home = tmp_path / "home"
    r = run(site, home, "plugins", "--json")
    assert r.returncode == 0, r.stderr
    plugins = {p["name"]: p for p in json.loads(r.stdout)["plugins"]}
    assert plugins["hello"] == {"kind": "in-process", "name": "hello", "builtin": False, "version": "0.1.0",
                                "hooks": ["register_commands", "register_importers", "register_parsers",
                                          "register_tools"]}
    assert plugins["cairn.builtin_plugins.parsers"]["builtin"] is True

    todo = tmp_path / "errands.todo"
    todo.write_text("buy lamp oil for the lighthouse\nx mend the heron net\n")
    r = run(site, home, "ingest", "--json", "--quiet", str(todo))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["added"] == 1

    r = run(site, home, "search", "--mode", "keyword", "--json", "lamp oil")
    assert r.returncode == 0, r.stderr
    hits = json.loads(r.stdout)["hits"]
    assert hits and hits[0]["title"] == "errands" and "- [ ] buy lamp oil" in hits[0]["snippet"]

    r = run(site, home, "hello", "Ada")
    assert (r.returncode, r.stdout) == (0, "hello, Ada: 1 note(s) in this Cairn\n"), r.stderr

    r = run(site, home, "tool", "run", "word_count", "--args", json.dumps({"note": "errands"}))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["words"] == len("- [ ] buy lamp oil for the lighthouse\n- [x] mend the heron net".split())

    r = run(site, home, "tools", "--json")
    assert "word_count" in {t["name"] for t in json.loads(r.stdout)["tools"]}

    lines = tmp_path / "sightings.txt"
    lines.write_text("a kingfisher at the weir\n\nan otter under the bridge\n")
    r = run(site, home, "import", "lines", "--json", "-q", str(lines))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["added"] == 2
    r = run(site, home, "search", "--mode", "keyword", "--json", "otter")
    assert [h["path"] for h in json.loads(r.stdout)["hits"]] == ["lines/an otter under the bridge.md"]


def test_without_the_plugin_its_command_is_unknown(tmp_path):
    empty = tmp_path / "site"
    empty.mkdir()
    r = run(empty, tmp_path / "home", "hello")
    assert r.returncode == 2 and "No such command" in r.stderr
