"""The layer order of src/cairn, enforced: imports only go down, and no import cycle exists.
Every `import` statement counts, also those inside functions and under TYPE_CHECKING (a
function-level import hides a dependency, it does not remove it). No exception is listed.

Layers, bottom first (a module may import from its own layer and the layers below it; the
prefix decides, the longest matching prefix wins):

    foundation  errors, model, config, paths, report, hookspecs, plugins, registries, audit —
                the vocabulary every layer shares. hookspecs/plugins/registries sit here so
                that any layer can consult a plugin table (llm, parse, embed); plugins.py
                reaches the built-in plugin modules only by name at run time (BUILTINS).
    store       store/ (SQLite index, keyword and vector index, jobs) and vault (the markdown
                files): the two places data lives.
    engines     parse, embed, llm, chunk, fetch, instants, lexical: turn bytes into text, text into
                vectors, prompts into replies; know nothing of notes or the service.
    domain      ingest, jobs, search, answer, memory, links, sync, watch, noteops, conflicts,
                exports, graph (the entity graph): Cairn's features, built on store + engines.
    service     service (the composition root) and ops/ (its operations by domain), results
                (their typed results), validate (its input rules), tools (the
                operations the assistant/MCP/REST expose, each a call of the service), the
                built-in plugins (builtin_plugins: they register functions of the layers below),
                assistant, apikeys, events, traces, schedule (reminders and scheduled jobs).
    interfaces  cli, interfaces/ (cli_*, REST, web, MCP, Telegram), __main__: thin adapters.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import cairn

SRC = Path(cairn.__file__).resolve().parent

LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("foundation", ("cairn", "cairn.errors", "cairn.controls", "cairn.model", "cairn.names", "cairn.jsonl", "cairn.config", "cairn.config_sections", "cairn.config_peek", "cairn.instants", "cairn.people", "cairn.paths", "cairn.redact_paths", "cairn.safe_yaml", "cairn.report", "cairn.export_formats",
                    "cairn.hookspecs", "cairn.plugins", "cairn.plugin_scan", "cairn.registries", "cairn.audit")),
    ("store", ("cairn.store", "cairn.vault")),
    ("engines", ("cairn.parse", "cairn.ner", "cairn.ner_written", "cairn.lexical", "cairn.embed", "cairn.llm", "cairn.chunk", "cairn.fetch",
                 "cairn.sources")),
    ("domain", ("cairn.ingest", "cairn.jobs", "cairn.search", "cairn.answer", "cairn.memory", "cairn.links",
                "cairn.sync", "cairn.watch", "cairn.noteops", "cairn.conflicts", "cairn.exports",
                "cairn.capture", "cairn.enrich", "cairn.notestatus", "cairn.uploads", "cairn.graph")),
    ("service", ("cairn.service", "cairn.ops", "cairn.results", "cairn.results_base", "cairn.results_engine", "cairn.validate", "cairn.tools", "cairn.builtin_plugins", "cairn.assistant",
                 "cairn.apikeys", "cairn.events", "cairn.traces", "cairn.schedule", "cairn.context",
                 "cairn.plugin_host")),
    ("interfaces", ("cairn.cli", "cairn.interfaces", "cairn.__main__")),
]
RANK = {name: i for i, (name, _) in enumerate(LAYERS)}


def modules(src: Path = SRC) -> dict[str, Path]:
    """Dotted module name -> file, for every .py file under `src` (a package is its __init__)."""
    out = {}
    for f in sorted(src.rglob("*.py")):
        parts = list(f.relative_to(src.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = f
    return out


def layer_of(module: str) -> str | None:
    """The layer of `module` by its longest matching prefix, None when no prefix matches
    ("cairn", the package's own __init__, matches only itself)."""
    best, length = None, -1
    for name, prefixes in LAYERS:
        for p in prefixes:
            if (module == p or (p != "cairn" and module.startswith(p + "."))) and len(p) > length:
                best, length = name, len(p)
    return best


def tree(path: Path) -> ast.Module:
    """The parsed source of `path`, parsed once per test run while its size and modification
    time stay the same (graph and sql_calls walk every module of src: parsing them took
    4-10 s per test under load, bench/README.md, session 21 — speed21)."""
    st = path.stat()
    return _tree(path, st.st_size, st.st_mtime_ns)


@functools.lru_cache(maxsize=None)
def _tree(path: Path, size: int, mtime_ns: int) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def imports(source: str | ast.Module, module: str, is_package: bool, known: set[str]) -> list[tuple[str, int]]:
    """(imported cairn module, line) for every import statement in `source` (text, or its
    parsed tree), at any depth. `from X import Y` counts as importing X.Y when that is a
    module, else X."""
    found = []
    for node in ast.walk(ast.parse(source) if isinstance(source, str) else source):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = module.split(".") if is_package else module.split(".")[:-1]
                pkg = pkg[:len(pkg) - (node.level - 1)]
                base = ".".join(pkg + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        for t in targets:
            if t != "cairn" and not t.startswith("cairn."):
                continue
            while t not in known and "." in t:
                t = t.rsplit(".", 1)[0]
            if t != module:
                found.append((t, node.lineno))
    return found


def graph(src: Path = SRC) -> dict[str, list[tuple[str, int]]]:
    """Module -> its (imported cairn module, line) edges, for every module under `src`;
    built once per test run while no file under `src` changes (size, modification time)."""
    mods = modules(src)
    signature = tuple((m, f.stat().st_size, f.stat().st_mtime_ns) for m, f in mods.items())
    return _graph(src, signature)


@functools.lru_cache(maxsize=None)
def _graph(src: Path, signature: tuple) -> dict[str, list[tuple[str, int]]]:
    mods = modules(src)
    known = set(mods)
    return {m: imports(tree(f), m, f.name == "__init__.py", known) for m, f in mods.items()}


def upward(g: dict[str, list[tuple[str, int]]]) -> list[str]:
    return [f"{m} ({layer_of(m)}) imports {t} ({layer_of(t)}) at line {line}"
            for m, edges in sorted(g.items()) for t, line in edges
            if layer_of(m) and layer_of(t) and RANK[layer_of(t)] > RANK[layer_of(m)]]


def cycles(g: dict[str, list[tuple[str, int]]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan's algorithm)."""
    succ = {m: sorted({t for t, _ in e if t in g}) for m, e in g.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in succ[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(succ):
        if v not in index:
            visit(v)
    return out


def test_every_module_has_a_layer():
    assert [m for m in modules() if layer_of(m) is None] == []


def test_imports_only_go_down():
    assert upward(graph()) == []


def test_no_import_cycles_function_level_imports_included():
    assert cycles(graph()) == []


def test_the_checks_see_what_they_must(tmp_path):
    """The checks themselves: an upward import inside a function, a relative import and a
    cycle hidden by a function-level import are all found."""
    pkg = tmp_path / "cairn"
    (pkg / "store").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "store" / "__init__.py").write_text("")
    (pkg / "store" / "a.py").write_text("def f():\n    from cairn.search import hybrid\n")
    (pkg / "search").mkdir()
    (pkg / "search" / "__init__.py").write_text("")
    (pkg / "search" / "hybrid.py").write_text("from . import ranks\n")
    (pkg / "search" / "ranks.py").write_text("def g():\n    import cairn.search.hybrid\n")
    g = graph(pkg)
    assert upward(g) == ["cairn.store.a (store) imports cairn.search.hybrid (domain) at line 2"]
    assert cycles(g) == [["cairn.search.hybrid", "cairn.search.ranks"]]
    assert layer_of("cairn.interfaces.rest.app") == "interfaces" and layer_of("cairn.nowhere") is None


MAX_MODULE_LINES = 500  # issue 11: small modules with one job each


def test_no_module_is_over_500_lines():
    long = {str(p.relative_to(SRC)): n for p in SRC.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert long == {}


def sql_calls(src_root: Path = SRC) -> list[str]:
    """`x.execute("...")`-style calls with a literal SQL text (plain or f-string) outside
    the store package."""
    found = []
    for p in src_root.rglob("*.py"):
        rel = p.relative_to(src_root)
        if rel.parts[0] == "store":
            continue
        for node in ast.walk(tree(p)):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("execute", "executemany", "executescript") and node.args
                    and isinstance(node.args[0], (ast.Constant, ast.JoinedStr))):
                found.append(f"{rel}:{node.lineno}")
    return found


def test_no_sql_outside_the_store(tmp_path):
    assert sql_calls() == []
    (tmp_path / "search").mkdir()
    (tmp_path / "search" / "q.py").write_text('def f(c):\n    return c.execute(f"SELECT {1}")\n')
    (tmp_path / "tools.py").write_text("def g(p, t):\n    return p.execute(t, {})\n")
    assert sql_calls(tmp_path) == ["search/q.py:2"]
