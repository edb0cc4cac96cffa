"""Cold start: a command imports only what it uses (issue 16).

Each test runs the real `cairn` in a new process with `python -X importtime` and reads the
modules it imported from stderr. No timing is asserted (timings are bench/ingest_speed.py's
job); what is checked is which layers a command loads.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from conftest import write

# Never needed by a keyword search: the HTTP client, the LLM layer, the answer and memory
# layers, the ingest pipeline, numpy/onnxruntime (the vector side) and pydantic (typer's
# option coercion, replaced by cairn.interfaces.typer_lite), pluggy (the plugins: a built-in
# command needs none of theirs).
HEAVY = ("httpx", "cairn.llm", "cairn.llm.client", "cairn.answer", "cairn.memory", "cairn.ingest",
         "numpy", "onnxruntime", "pydantic", "importlib.metadata", "pluggy")


def imported(home, *args, env=None) -> tuple[subprocess.CompletedProcess, set[str]]:
    cmd = [sys.executable, "-X", "importtime", "-m", "cairn", "--home", str(home), *args]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env={**os.environ, **(env or {})})
    mods = {line.split("|")[-1].strip() for line in r.stderr.splitlines() if line.startswith("import time:")}
    return r, mods


@pytest.fixture(scope="module")
def kw_home(tmp_path_factory):
    root = tmp_path_factory.mktemp("cold")
    write(root / "in" / "a.md", "# Heron\n\nThe heron nests by the mill pond.\n")
    home = root / "home"
    r = subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), "ingest", str(root / "in"), "-q"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return home


def test_keyword_search_imports_no_llm_http_or_vector_layer(kw_home):
    r, mods = imported(kw_home, "search", "heron", "--mode", "keyword", "--json")
    assert r.returncode == 0, r.stderr[-2000:]
    assert '"title": "Heron"' in r.stdout
    assert "cairn.search.hybrid" in mods  # the probe sees the modules the command did load
    assert sorted(m for m in HEAVY if m in mods) == []


def test_keyword_search_as_a_table_still_imports_no_heavy_layer(kw_home):
    r, mods = imported(kw_home, "search", "heron", "--mode", "keyword")
    assert r.returncode == 0 and "Heron" in r.stdout
    assert "rich.table" in mods
    assert sorted(m for m in HEAVY if m in mods) == []


def test_status_imports_no_heavy_layer(kw_home):
    r, mods = imported(kw_home, "status", "--json")
    assert r.returncode == 0 and '"missing_vectors"' in r.stdout
    assert sorted(m for m in HEAVY if m in mods) == []


def test_hybrid_search_loads_the_vector_side_but_not_llm_or_http(kw_home):
    """Also none of what a cold `search --json` used to pay for without using it: rich (its
    warning is plain text), the plugin manager (the built-in embedder's hook is called
    directly when no plugin can load), hashlib (OpenSSL)."""
    r, mods = imported(kw_home, "search", "heron zyzzyva", "--json")
    assert r.returncode == 0 and '"title": "Heron"' in r.stdout
    assert "warning: no note contains 'zyzzyva'" in r.stderr
    assert "onnxruntime" in mods and "numpy" in mods and "cairn.registries" in mods
    assert sorted(m for m in ("httpx", "cairn.llm.client", "cairn.answer", "cairn.memory", "pydantic",
                              "importlib.metadata", "rich", "rich.console", "cairn.plugins", "hashlib")
                  if m in mods) == []


@pytest.mark.parametrize("args, message", [
    (["--k", "0"], "Input should be greater than or equal to 1"),
    (["--k", "1001"], "Input should be less than or equal to 1000"),
    (["--k", "ten"], "Input should be a valid integer"),
    (["--mode", "fuzzy"], "'fuzzy' is not one of 'hybrid', 'keyword', 'semantic'."),
])
def test_option_errors_without_pydantic_are_usage_errors(kw_home, args, message):
    r, mods = imported(kw_home, "search", "heron", *args)
    assert r.returncode == 2
    assert message in " ".join(r.stderr.replace("│", " ").split())
    assert "pydantic" not in mods


def test_repeated_enum_and_path_options_are_coerced(kw_home, tmp_path):
    batch = write(tmp_path / "q.jsonl", '{"id": "q1", "query": "heron"}\n')
    r, mods = imported(kw_home, "search", "--batch", str(batch), "--mode", "keyword",
                       "--type", "markdown", "--type", "pdf")
    assert r.returncode == 0, r.stderr[-2000:]
    assert '"query_id": "q1"' in r.stdout and "Heron" in r.stdout
    assert "pydantic" not in mods


def test_entry_point_plugins_load_only_when_a_command_needs_them(kw_home, tmp_path):
    """A third-party plugin's command works; a built-in command never scans entry points."""
    site = tmp_path / "site"
    write(site / "hello_plugin.py", textwrap.dedent('''
        import typer
        from cairn.hookspecs import hookimpl

        @hookimpl
        def register_commands(cli):
            @cli.command("hello")
            def hello(name: str = typer.Argument("world")) -> None:
                print(f"hello {name}")
    '''))
    write(site / "hello_plugin-1.0.dist-info" / "METADATA", "Metadata-Version: 2.1\nName: hello-plugin\nVersion: 1.0\n")
    write(site / "hello_plugin-1.0.dist-info" / "entry_points.txt", "[cairn.plugins]\nhello = hello_plugin\n")
    env = {"PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    r, mods = imported(kw_home, "hello", "heron", env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip() == "hello heron"
    r, mods = imported(kw_home, "plugins", "--json", env=env)
    assert r.returncode == 0 and '"hello"' in r.stdout
    r, mods = imported(kw_home, "--help", env=env)
    assert r.returncode == 0 and "hello" in r.stdout
    r, mods = imported(kw_home, "search", "heron", "--mode", "keyword", "--json", env=env)
    assert r.returncode == 0 and "importlib.metadata" not in mods


def test_saved_optimized_graph_gives_the_same_vectors(tmp_path, real_embedder):
    """The first load writes the optimized graph beside the model; later loads use it
    (onnxruntime's optimizer off) and embed exactly as the original model does."""
    import shutil

    import numpy as np
    import onnxruntime

    from cairn.embed.minilm import Embedder, _optimized_path

    src = real_embedder.model_dir
    d = tmp_path / "model"
    d.mkdir()
    for name in ("manifest.json", "model.onnx", "tokenizer.json"):
        shutil.copyfile(src / name, d / name)
    texts = ["The heron nests by the mill pond.", "Boiler pressure 1.5 bar after the service.",
             "Ödön hat die Katze gefüttert", "short"]
    first = Embedder(d, auto_export=False)
    v1 = first.embed(texts)
    opt = _optimized_path(onnxruntime, d)
    assert opt is not None and opt.is_file()
    second = Embedder(d, auto_export=False)
    v2 = second.embed(texts)
    assert second._session._model_path == str(opt)
    assert float(np.min(np.sum(v1 * v2, axis=1))) >= 0.99999
    opt.write_bytes(b"not a model")  # a damaged cache file: the original model is used
    third = Embedder(d, auto_export=False)
    assert float(np.min(np.sum(third.embed(texts) * v1, axis=1))) >= 0.99999


def _blas_threads(code: str, **env: str) -> str:
    """OPENBLAS_NUM_THREADS after running `code` in a new Python, with `env` on top of
    this environment minus any OPENBLAS_NUM_THREADS of its own."""
    full = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"} | env
    r = subprocess.run([sys.executable, "-c", code + "; import os; print(os.environ.get('OPENBLAS_NUM_THREADS'))"],
                       capture_output=True, text=True, timeout=300, env=full)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


def test_numpy_blas_runs_one_thread_unless_the_person_says_otherwise():
    """Importing cairn before numpy makes OpenBLAS use one thread (a hybrid search's BM25
    thread has the other core); a value already in the environment wins, and a program that
    loaded numpy first is left as it is."""
    assert _blas_threads("import cairn") == "1"
    assert _blas_threads("import cairn", OPENBLAS_NUM_THREADS="3") == "3"
    assert _blas_threads("import numpy, cairn") == "None"


def probe(code: str, *argv: str, env=None) -> subprocess.CompletedProcess:
    """Run `code` in a new process whose sys.argv is the `cairn` program's (argv[0] "cairn")."""
    script = f"import sys\nsys.argv = {['cairn', *argv]!r}\n" + textwrap.dedent(code)
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600,
                          env={**os.environ, **(env or {})})


NAMES = """
import cairn.cli as c
print(sorted((x.name or x.callback.__name__) for x in c.app.registered_commands))
print(sorted(g.name for g in c.app.registered_groups))
"""


def test_the_program_builds_only_the_command_it_was_asked_for(kw_home):
    r = probe(NAMES, "--home", str(kw_home), "status", "--json")
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.splitlines() == ["['status']", "[]"]
    r = probe(NAMES, "--home", str(kw_home), "jobs", "retry", "3")  # a group: only that group stays
    assert r.stdout.splitlines() == ["[]", "['jobs']"]


@pytest.mark.parametrize("argv, env", [
    (["status", "--help"], None),          # help lists what it lists today
    (["frobnicate"], None),                # an unknown name: the parser reports it among all commands
    ([], None),
    (["status"], {"_CAIRN_COMPLETE": "complete_bash"}),  # shell completion lists every command
])
def test_every_command_stays_when_the_command_line_may_need_them(kw_home, argv, env):
    r = probe(NAMES, "--home", str(kw_home), *argv, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    commands = r.stdout.splitlines()[0]
    assert "'search'" in commands and "'status'" in commands and "'ingest'" in commands


def test_an_unknown_command_is_still_a_usage_error_naming_it(kw_home):
    r = subprocess.run([sys.executable, "-m", "cairn", "--home", str(kw_home), "frobnicate"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 2 and "frobnicate" in r.stderr


EARLY = """
import cairn.cli
from cairn.interfaces import cli_start
early = [t for t in cli_start._started if t.name == "cairn-early-embed"]  # live or done
print("service imported before the command ran:", "cairn.service" in sys.modules)
print("early threads:", len(early))
for t in early:
    t.join()
from cairn.embed import shared_minilm
e = shared_minilm()
print("query session:", e._query_session is not None, "batch session:", e._session is not None)
"""


@pytest.mark.parametrize("argv, threads, sessions", [
    (["search", "heron"], 1, "query session: True batch session: False"),
    (["search", "heron", "--mode=semantic", "--json"], 1, "query session: True batch session: False"),
    (["search", "heron", "--mode", "keyword"], 0, "query session: False batch session: False"),
    (["search", "--help"], 0, "query session: False batch session: False"),
    (["ask", "where does the heron nest?"], 1, "query session: False batch session: True"),
    (["chat", "--message", "where does the heron nest?", "--json"], 1, "query session: False batch session: True"),
    (["chat", "--why", "--json"], 0, "query session: False batch session: False"),
    (["status"], 0, "query session: False batch session: False"),
])
def test_a_command_that_embeds_a_query_starts_the_model_before_anything_else(kw_home, argv, threads, sessions):
    r = probe(EARLY, "--home", str(kw_home), *argv)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.splitlines() == ["service imported before the command ran: False",
                                     f"early threads: {threads}", sessions]


def test_a_broken_config_is_reported_by_a_search_that_started_early(tmp_path):
    home = tmp_path / "home"
    write(home / "config.toml", "[search\nk = 3\n")
    r = subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), "search", "heron"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 1
    assert "config.toml" in r.stderr and "not valid TOML" in r.stderr
    assert "Traceback" not in r.stderr
    write(home / "config.toml", 'embedder = "no-such-model"\n')
    r = subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), "search", "heron"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode != 0 and "no-such-model" in r.stderr and "Traceback" not in r.stderr


def test_a_broken_model_is_reported_by_a_search_that_started_early(kw_home, tmp_path, real_embedder):
    """The early thread fails to load a damaged model and leaves the error to the search,
    which reports the damaged file (exit 1, the path named, no traceback)."""
    import shutil
    bad = tmp_path / "model"
    bad.mkdir()
    for name in ("manifest.json", "tokenizer.json", "vocab.txt"):
        if (real_embedder.model_dir / name).exists():
            shutil.copy(real_embedder.model_dir / name, bad / name)
    (bad / "model.onnx").write_bytes(b"not an onnx graph")
    r = subprocess.run([sys.executable, "-m", "cairn", "--home", str(kw_home), "search", "heron", "--json"],
                       capture_output=True, text=True, timeout=300, env={**os.environ, "CAIRN_MODEL_DIR": str(bad)})
    assert r.returncode == 1
    assert f"cannot load {bad / 'model.onnx'}" in r.stderr and "Traceback" not in r.stderr


def test_a_plain_search_runs_without_typer(kw_home):
    """The program reads a plain `search` command line itself (cli_fast); help and anything
    it does not fully understand still go to typer."""
    for args in (["search", "heron", "--json"], ["search", "heron", "--mode", "keyword"]):
        r, mods = imported(kw_home, *args)
        assert r.returncode == 0 and "Heron" in r.stdout, r.stderr[-2000:]
        assert "typer" not in mods and "cairn.cli" not in mods
    r, mods = imported(kw_home, "search", "--help")
    assert r.returncode == 0 and "--mode" in r.stdout and "typer" in mods
    r, mods = imported(kw_home, "search", "heron", "--k", "0")
    assert r.returncode == 2 and "greater than or equal to 1" in r.stderr and "typer" in mods


TYPER_ONLY = "import sys\nfrom cairn.cli import app\napp(sys.argv[1:], prog_name='cairn')\n"


@pytest.mark.parametrize("args", [
    ["search", "heron", "--since", "last spring"],          # the service's rule, a usage error (2)
    ["search", "heron", "--entity", "Nobody Known", "--json"],  # NotFound (1)
    ["search", ""],                                         # an empty query: a warning, no results
])
def test_the_fast_path_reports_what_typer_reports(kw_home, args):
    fast = subprocess.run([sys.executable, "-m", "cairn", "--home", str(kw_home), *args],
                          capture_output=True, text=True, timeout=600)
    slow = subprocess.run([sys.executable, "-c", TYPER_ONLY, "--home", str(kw_home), *args],
                          capture_output=True, text=True, timeout=600)
    assert (fast.returncode, fast.stdout, fast.stderr) == (slow.returncode, slow.stdout, slow.stderr)
    assert "Traceback" not in fast.stderr


def test_an_empty_home_is_refused_on_the_fast_path(tmp_path):
    r = subprocess.run([sys.executable, "-m", "cairn", "--home", "", "search", "heron"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 1 and "--home is empty" in r.stderr
    home_file = tmp_path / "a-file"
    home_file.write_text("not a folder")
    r = subprocess.run([sys.executable, "-m", "cairn", "--home", str(home_file), "search", "heron", "--json"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 1 and str(home_file) in r.stderr and "Traceback" not in r.stderr
