"""The shell tool `run_command`: run one program from an allow-list, without a shell.

Off by default (`[assistant] shell = false`: every call is refused, Forbidden). When on:
- `argv` is a list of strings; `argv[0]` must equal one entry of `[assistant] shell_allow`
  exactly (no path search widening it: "ls" allows "ls", not "/bin/ls", and the reverse);
- the program runs through subprocess with that list (never shell=True), so `;`, `|`, `$(...)`,
  globs and redirections are plain argument text;
- it runs in the vault, with an environment of PATH, HOME and LANG only (no API keys or
  tokens from Cairn's environment), stdin closed, in its own process group;
- after `shell_timeout_s` seconds the whole group is killed and the result says so;
- stdout and stderr are each kept to `shell_output_chars` characters (the rest is read and
  dropped, never held in memory), with `truncated` saying so.
The tool's risk is high: every call goes through the judge and waits for the person's
approval, whatever the model or a note asked; it runs only inside the assistant
(`cairn.tools.via_assistant`), so MCP and REST, which have no judge, cannot call it.
Errors: Forbidden (off, or not allowed), InvalidInput (empty argv, a NUL in an argument),
NotFound (the allowed program is not installed).
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading

from cairn.errors import Forbidden, InvalidInput, NotFound
from cairn.hookspecs import hookimpl
from cairn.tools import Tool

READ_CHUNK = 65_536


def check(app, argv: list[str]) -> None:
    """Raise Forbidden / InvalidInput when `argv` may not run under the home's settings."""
    cfg = app.settings.assistant
    if not cfg.shell:
        raise Forbidden("the shell tool is off ([assistant] shell = false)")
    if not argv or not argv[0]:
        raise InvalidInput("run_command: argv must name a program")
    if any("\0" in a for a in argv):
        raise InvalidInput("run_command: an argument holds a NUL character")
    if argv[0] not in cfg.shell_allow:
        allowed = ", ".join(cfg.shell_allow) or "none"
        raise Forbidden(f"{argv[0]!r} is not in [assistant] shell_allow (allowed: {allowed})")


def _drain(stream, cap: int, out: list[bytes], over: list[bool]) -> None:
    """Read `stream` to its end, keeping the first `cap` bytes."""
    kept = 0
    while True:
        chunk = stream.read(READ_CHUNK)
        if not chunk:
            break
        if kept < cap:
            out.append(chunk[:cap - kept])
        if kept + len(chunk) > cap:
            over[0] = True
        kept += len(chunk)
    stream.close()


def run(app, argv: list[str]) -> dict:
    """Run `argv` (checked by `check`) in the vault. Returns {"argv", "exit_code" (None when
    killed), "stdout", "stderr", "truncated", "timed_out"}. Forbidden outside the assistant
    (`cairn.tools.via_assistant`: MCP and REST have no judge)."""
    from cairn.tools import via_assistant
    check(app, argv)
    if not via_assistant.get():
        raise Forbidden("run_command runs only in the assistant, after the person approves it (cairn chat)")
    cfg = app.settings.assistant
    cap = max(0, int(cfg.shell_output_chars))
    env = {k: os.environ[k] for k in ("PATH", "LANG") if k in os.environ}
    env["HOME"] = str(app.settings.home)
    try:
        proc = subprocess.Popen(argv, shell=False, cwd=str(app.settings.vault), env=env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True)
    except FileNotFoundError:
        raise NotFound(f"{argv[0]!r} is allowed but not installed here") from None
    got: dict[str, list[bytes]] = {"out": [], "err": []}
    over = {"out": [False], "err": [False]}
    readers = [threading.Thread(target=_drain, args=(s, cap * 4, got[k], over[k]), daemon=True)
               for k, s in (("out", proc.stdout), ("err", proc.stderr))]
    for r in readers:
        r.start()
    timed_out = False
    try:
        proc.wait(timeout=cfg.shell_timeout_s)
    except subprocess.TimeoutExpired:
        timed_out = True
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
    for r in readers:
        r.join(5)

    def text(k: str) -> tuple[str, bool]:
        s = b"".join(got[k]).decode("utf-8", "replace")
        return s[:cap], over[k][0] or len(s) > cap

    out, cut_out = text("out")
    err, cut_err = text("err")
    return {"argv": argv, "exit_code": None if timed_out else proc.returncode, "stdout": out, "stderr": err,
            "truncated": cut_out or cut_err, "timed_out": timed_out}


TOOL = Tool("run_command", "Run one allowed program with arguments (no shell) in the vault; off unless the "
            "person turned it on ([assistant] shell, shell_allow). Always waits for approval.",
            {"type": "object", "properties": {"argv": {"type": "array", "items": {"type": "string"},
                                                       "minItems": 1, "maxItems": 64}},
             "required": ["argv"], "additionalProperties": False},
            lambda app, a: run(app, a["argv"]), risk="high", read_only=False, scope="admin",
            meta={"shell": True, "preview": lambda app, a: (check(app, a["argv"]), None)[1]})


@hookimpl
def register_tools(register):
    register(TOOL)
