"""What the `cairn` program reads from its command line before the command-line adapter is
imported: the command's name, and whether it will embed a query (then the embedding model's
onnxruntime session is started at once, on a background thread).

Why: a cold `cairn search` (hybrid or semantic) spends most of its time importing and
starting things. Creating the model session runs outside the GIL, so started first it
overlaps typer's import and the building of the command, the service's import and the
opening of the index, instead of being waited for when the query is embedded. Nothing here
imports typer, the service or onnxruntime itself; only the `cairn` program (or
`python -m cairn`) does this, never a process that imports `cairn.cli` as a library (tests,
a plugin), since its command line is not Cairn's.

The reading here is only a guess used to start work early: the argument parser still
parses the command line, and every error is reported by the command itself.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

#: Global options (cli_common.main) that take a value.
_VALUE_OPTIONS = ("--home",)
#: Options of `chat` that make it embed nothing (print the last prompt, decide a waiting call).
_CHAT_NO_EMBED = ("--why", "--approve", "--deny")
_CHAT_NO_EMBED_EQ = ("--approve=", "--deny=")
_once: list[bool] = []  # start_early ran in this process
_started: list[threading.Thread] = []  # the threads it started


def is_program(argv: list[str] | None = None) -> bool:
    """True when this process is the `cairn` program: argv[0] is the console script
    (`cairn`, `cairn.exe`) or cairn/__main__.py (`python -m cairn`)."""
    arg0 = (sys.argv if argv is None else argv)[0] if (sys.argv if argv is None else argv) else ""
    return Path(arg0).name in ("cairn", "cairn.exe") or arg0.endswith(("cairn/__main__.py",
                                                                        "cairn\\__main__.py"))


def command_name(args: list[str]) -> str | None:
    """The command word of a command line without the program name (the first word after
    the global options: `--home DIR` or `--home=DIR`, `-v`), or None when there is none."""
    i = 0
    while i < len(args):
        a = args[i]
        if a in _VALUE_OPTIONS:
            i += 2
            continue
        if a.startswith("-"):
            i += 1
            continue
        return a
    return None


def option_value(args: list[str], name: str) -> str | None:
    """The value given to option `name` (`--mode semantic` or `--mode=semantic`; the last one
    wins, as for the parser), or None when the option is absent."""
    value = None
    for i, a in enumerate(args):
        if a == name and i + 1 < len(args):
            value = args[i + 1]
        elif a.startswith(name + "="):
            value = a[len(name) + 1:]
    return value


def home_option(args: list[str]) -> str | None:
    """The `--home` given before the command, or None (then CAIRN_HOME or ~/.cairn, as
    `cairn.config.load_settings` resolves it)."""
    command = command_name(args)
    head = args[:args.index(command)] if command is not None else args
    return option_value(head, "--home")


def embeds_query(args: list[str]) -> bool | None:
    """Whether the command line runs a command that embeds text first: None when it does
    not, True for `search` in hybrid or semantic mode (only queries: the one-thread query
    session, see cairn.embed.start_loading), False for `ask` (it starts from a hybrid
    search, and may embed more) and for `chat` (a turn's intent classifier embeds the
    message, its answer embeds sentences; one session serves both) unless it only prints
    the last prompt (`--why`) or decides a waiting call (`--approve`, `--deny`). `--help`
    anywhere means no."""
    if "--help" in args:
        return None
    command = command_name(args)
    if command == "search":
        mode = option_value(args[args.index(command) + 1:], "--mode") or "hybrid"
        return True if mode in ("hybrid", "semantic") else None
    if command == "ask":
        return False
    if command == "chat" and not any(a in _CHAT_NO_EMBED or a.startswith(_CHAT_NO_EMBED_EQ) for a in args):
        return False  # a turn embeds the message (the intent classifier) and then answers or recalls
    return None


def start_early(argv: list[str] | None = None) -> threading.Thread | None:
    """In the `cairn` program, for a command that embeds a query (`embeds_query`), start
    the home's embedder loading on a background thread and return the thread; otherwise
    return None and do nothing.

    Only the home's config.toml is read here, for the `embedder` name (cairn.config_peek:
    cairn.config's import, ~15-20 ms, would delay the session; a bad config.toml is left for
    the command to report). For the built-in model, numpy, onnxruntime and the embedder's
    module are imported here too, before the thread starts: importing holds the GIL, so in the thread it would
    share the interpreter with the command line's own imports and push back the session's
    creation, the part that runs outside the GIL and so overlaps the rest of the start-up;
    likewise usearch's compiled module before the thread that maps the HNSW graph, which
    then goes straight to the mapping (at 1M chunks ~60 ms, holding the GIL: usearch does
    not release it; bench/README.md session 17).
    The thread runs `cairn.embed.load_now`; its errors are left for the command to meet
    and report (a missing model). A second thread reads the home's vector matrix ahead
    (`cairn.store.matrix_cache.prefetch`, or maps the HNSW graph: `cairn.store.ann.prefetch`),
    then answers whether any plugin can be installed (`cairn.plugin_scan`, which the
    embedder's lookup asks; the command's thread answers it itself if it asks first). Runs
    once per process (a second call returns
    None). Not a daemon thread, for the reason given in cairn.embed.start_loading."""
    argv = sys.argv if argv is None else argv
    if not is_program(argv) or _once:
        return None
    _once.append(True)  # the program calls this, and cairn.cli again when it is imported
    args = argv[1:]
    query = embeds_query(args)
    if query is None:
        return None
    try:
        from cairn.config_peek import embedder_name, home_path
        home = home_path(home_option(args))
        name = embedder_name(home)
    except (OSError, RuntimeError):  # a home path that cannot be resolved: the command reports it
        return None
    if name is None:  # an unreadable or broken config.toml: the command reports it
        return None
    if name == "minilm":
        try:
            import numpy  # noqa: F401
            import onnxruntime  # noqa: F401

            import cairn.embed.minilm  # noqa: F401  (here too: the thread then goes straight to the session)
        except ImportError:  # reported by the embedder when the query is embedded
            return None

    def run() -> None:
        try:
            from cairn.embed import load_now
            load_now(name, query=query)
        except Exception:  # the command reports it when it embeds
            pass

    graph = (Path(home) / "vectors.usearch").is_file()  # the HNSW graph (past ANN_MIN_VECTORS)

    def read_vectors() -> None:  # the vectors the query is compared with (a SQLite home's matrix cache)
        try:
            if graph:
                from cairn.store.ann import prefetch as prefetch_graph
                prefetch_graph(home)
            else:
                from cairn.store.matrix_cache import prefetch
                prefetch(home)
        except Exception:  # only an optimisation: the search maps the file itself
            pass
        try:  # then whether a plugin can exist (mostly system calls), unless the command asked first
            from cairn.plugin_scan import may_have_entry_points
            may_have_entry_points()
        except Exception:
            pass

    thread = threading.Thread(target=run, name="cairn-early-embed", daemon=False)
    thread.start()
    if graph:  # imported here for the reason given above: the thread then goes straight to the mapping
        try:
            import cairn.store.ann  # noqa: F401
            from cairn.store.ann_view import compiled
            compiled()  # after onnxruntime (see cairn.store.ann.usearch_index)
        except Exception:  # ImportError...: the search reports it
            pass
    vectors = threading.Thread(target=read_vectors, name="cairn-early-vectors", daemon=False)
    vectors.start()
    _started.extend((thread, vectors))
    return thread


def started() -> bool:
    """Whether `start_early` started threads in this process (a command that embeds a query)."""
    return bool(_started)


def loading() -> bool:
    """Whether a thread `start_early` started is still running (the model still loading)."""
    return any(t.is_alive() for t in _started)


def join_early() -> None:
    """Wait for the threads `start_early` started (done by the time a search has used the
    model; an error before that waits here for the session being made)."""
    for t in _started:
        t.join()
