"""Issue 39, Salmex S7 and the shell tool: `write_file` / `edit_file` write only inside
`[assistant] write_folders` (none by default), show a unified diff for approval and refuse
hostile paths (`..`, symlinks, absolute paths elsewhere, binary files); `run_command` is off
by default, runs only allow-listed programs without a shell, with a timeout and an output cap,
and always waits for approval — through a scripted model on loopback and `chat --approve`."""

from __future__ import annotations

import os
import sys

import pytest

from cairn.assistant import Assistant, Channel, WaitingChannel
from cairn.errors import Forbidden, InvalidInput, NotFound
from cairn.service import Cairn
from cairn.tools import registry
from fakes.scripted_llm import ScriptedLLM, say, tool


@pytest.fixture(scope="module")
def llm():
    with ScriptedLLM() as server:
        yield server


@pytest.fixture(scope="module")
def app(tmp_path_factory, real_embedder):
    root = tmp_path_factory.mktemp("filetools")
    with Cairn(root / "home", embedder=real_embedder) as a:
        a.settings.assistant.approval_timeout_s = 5
        yield a


@pytest.fixture
def folder(app, tmp_path):
    d = tmp_path / "allowed"
    d.mkdir()
    app.settings.assistant.write_folders = [str(d)]
    yield d
    app.settings.assistant.write_folders = []


REG = registry()


def _call(app, name, **args):
    """The tool as the assistant runs it once its judge let the call through."""
    from cairn.tools import via_assistant
    token = via_assistant.set(True)
    try:
        return REG.call(app, name, args)
    finally:
        via_assistant.reset(token)


def test_doors_without_a_judge_cannot_call_them(app, folder, tmp_path):
    from cairn.tools.invoke import invoke
    app.settings.assistant.shell, app.settings.assistant.shell_allow = True, ["echo"]
    try:
        for name, args in (("write_file", {"path": "x.txt", "text": "hi"}), ("run_command", {"argv": ["echo", "hi"]})):
            out = invoke(app, REG, name, args, actor="mcp")  # the MCP / REST path
            assert not out.ok and out.category == "forbidden" and "only" in out.message and "assistant" in out.message
    finally:
        app.settings.assistant.shell, app.settings.assistant.shell_allow = False, []
    assert not (folder / "x.txt").exists()


def test_nothing_is_writable_by_default(app, tmp_path):
    assert app.settings.assistant.write_folders == []
    with pytest.raises(Forbidden, match="write_folders"):
        _call(app, "write_file", path=str(tmp_path / "x.txt"), text="hi")
    assert not (tmp_path / "x.txt").exists()


def test_write_and_edit_inside_the_folder_with_a_diff(app, folder):
    out = _call(app, "write_file", path="plans/todo.txt", text="buy milk\nfix gate\n")
    assert out["created"] and (folder / "plans" / "todo.txt").read_text() == "buy milk\nfix gate\n"
    assert out["diff"].startswith("--- /dev/null\n+++ b/plans/todo.txt") and "+fix gate" in out["diff"]
    out = _call(app, "edit_file", path=str(folder / "plans" / "todo.txt"), old="fix gate", new="paint gate")
    assert (folder / "plans" / "todo.txt").read_text() == "buy milk\npaint gate\n"
    assert "-fix gate\n+paint gate\n" in out["diff"] and not out["created"]
    with pytest.raises(InvalidInput, match="occurs 0 times"):
        _call(app, "edit_file", path="plans/todo.txt", old="nothing like this", new="x")
    with pytest.raises(NotFound, match="no file"):
        _call(app, "edit_file", path="plans/none.txt", old="a", new="b")


def test_hostile_paths_are_refused_and_nothing_outside_changes(app, folder, tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me\n")
    (folder / "sub").mkdir()
    (folder / "link_out").symlink_to(tmp_path)                 # a folder link leading out
    (folder / "file_link.txt").symlink_to(outside)             # a file link leading out
    (folder / "sub" / "inner_link.txt").symlink_to(folder / "sub")  # a link that stays inside
    hostile = [
        ("../outside.txt", "'..'"),
        ("sub/../../outside.txt", "'..'"),
        (str(folder) + "/../outside.txt", "'..'"),
        (str(outside), "outside the folders"),
        ("/etc/hostname", "outside the folders"),
        ("link_out/outside.txt", "symbolic link"),
        ("file_link.txt", "symbolic link"),
        ("sub/inner_link.txt", "symbolic link"),
        (str(folder), "write folder itself"),
        ("~/../../etc/passwd", "'..'"),
    ]
    for path, why in hostile:
        with pytest.raises(Forbidden, match=why):
            _call(app, "write_file", path=path, text="pwned\n")
        with pytest.raises(Forbidden, match=why):
            _call(app, "edit_file", path=path, old="keep", new="pwned")
    with pytest.raises(Forbidden, match="not a regular file"):
        _call(app, "write_file", path="sub", text="x")
    assert outside.read_text() == "keep me\n"
    assert sorted(p.name for p in folder.iterdir()) == ["file_link.txt", "link_out", "sub"]


def test_binary_files_are_not_edited(app, folder):
    (folder / "photo.jpg").write_bytes(b"\xff\xd8\xff\xe0\0\0JFIF")
    (folder / "latin1.txt").write_bytes("caf\xe9".encode("latin-1"))
    with pytest.raises(InvalidInput, match="NUL bytes"):
        _call(app, "write_file", path="photo.jpg", text="x")
    with pytest.raises(InvalidInput, match="not UTF-8"):
        _call(app, "edit_file", path="latin1.txt", old="caf", new="x")
    with pytest.raises(InvalidInput, match="NUL character"):
        _call(app, "write_file", path="new.txt", text="a\0b")
    assert (folder / "photo.jpg").read_bytes().startswith(b"\xff\xd8") and not (folder / "new.txt").exists()


def test_the_diff_waits_for_approval_and_a_stale_diff_is_refused(app, folder, llm):
    (folder / "notes.txt").write_text("alpha\nbeta\n")
    spec = f"openai:{llm.base_url}:scripted"
    llm.script(tool("edit_file", path="notes.txt", old="beta", new="gamma"), say("It waits for you."))
    res = Assistant(app, model=spec, new=True).turn("change beta to gamma in notes.txt", Channel())
    call = res.tool_calls[0]
    assert (call.name, call.risk, call.outcome) == ("edit_file", "high", "pending")
    pending = res.pending_approvals[0]
    assert pending["diff"] == "--- a/notes.txt\n+++ b/notes.txt\n@@ -1,2 +1,2 @@\n alpha\n-beta\n+gamma\n"
    assert (folder / "notes.txt").read_text() == "alpha\nbeta\n"  # nothing written before approval
    # the file moves on after the diff was shown: the approval runs nothing
    (folder / "notes.txt").write_text("alpha\nbeta\ndelta\n")
    done = Assistant(app, channel="web", model="none", open_session=False).decide(call.approval_id, grant=True)
    assert done.tool_calls[0].outcome == "failed" and "changed since the diff" in done.tool_calls[0].error
    assert (folder / "notes.txt").read_text() == "alpha\nbeta\ndelta\n"
    # an interactive channel sees the diff in the request and the change runs once approved
    llm.script(tool("edit_file", path="notes.txt", old="delta", new="epsilon"), say("Done."))
    ui = WaitingChannel(on_ask=lambda c: ui.answer(c["id"], True))
    res = Assistant(app, model=spec, new=True).turn("change delta to epsilon in notes.txt", ui)
    assert "-delta\n+epsilon\n" in ui.asked[0]["diff"] and res.tool_calls[0].outcome == "ran"
    assert (folder / "notes.txt").read_text() == "alpha\nbeta\nepsilon\n"
    # a call that cannot run is not put to the person
    llm.script(tool("write_file", path="../escape.txt", text="x"), say("Refused."))
    ui = WaitingChannel(on_ask=lambda c: ui.answer(c["id"], True))
    res = Assistant(app, model=spec, new=True).turn("write ../escape.txt", ui)
    assert res.tool_calls[0].outcome == "failed" and "'..'" in res.tool_calls[0].error and not ui.asked


# ---------------------------------------------------------------------------- the shell tool
@pytest.fixture
def shell(app):
    cfg = app.settings.assistant
    cfg.shell, cfg.shell_allow, cfg.shell_timeout_s, cfg.shell_output_chars = True, [sys.executable, "echo"], 3, 100
    yield cfg
    cfg.shell, cfg.shell_allow, cfg.shell_timeout_s, cfg.shell_output_chars = False, [], 10.0, 4000


def test_shell_is_off_by_default(app):
    assert app.settings.assistant.shell is False
    with pytest.raises(Forbidden, match="shell = false"):
        _call(app, "run_command", argv=["echo", "hi"])


def test_shell_refusals(app, shell, tmp_path):
    for argv, why in ((["ls"], "not in \\[assistant\\] shell_allow"),
                      (["/bin/echo", "hi"], "not in"),          # exact match: a path is another entry
                      (["echo hi"], "not in"),
                      (["sh", "-c", "echo hi"], "not in"),
                      (["bash"], "not in")):
        with pytest.raises(Forbidden, match=why):
            _call(app, "run_command", argv=argv)
    with pytest.raises(InvalidInput, match="NUL"):
        _call(app, "run_command", argv=["echo", "a\0b"])
    with pytest.raises(InvalidInput, match="argv"):
        _call(app, "run_command", argv=[""])
    shell.shell_allow.append("no-such-program-xyz")
    with pytest.raises(NotFound, match="not installed"):
        _call(app, "run_command", argv=["no-such-program-xyz"])


def test_shell_has_no_shell_interpretation_a_cap_and_a_timeout(app, shell, tmp_path):
    marker = tmp_path / "m"  # short: the echoed line stays under the 100-character cap whatever tmp_path is
    out = _call(app, "run_command", argv=["echo", "a;", "touch", str(marker), "$(id)", "|", "*"])
    assert len(f"a; touch {marker} $(id) | *\n") <= 100, marker
    assert out["stdout"] == f"a; touch {marker} $(id) | *\n" and out["exit_code"] == 0
    assert not marker.exists()
    out = _call(app, "run_command", argv=[sys.executable, "-c", "import os; print(sorted(os.environ))"])
    assert set(eval(out["stdout"])) <= {"PATH", "LANG", "HOME", "LC_CTYPE"}  # no API keys from Cairn's env
    out = _call(app, "run_command", argv=[sys.executable, "-c", "print('x' * 100000)"])
    assert out["truncated"] and len(out["stdout"]) == 100 and out["exit_code"] == 0
    out = _call(app, "run_command", argv=[sys.executable, "-c", "import time; print('started', flush=True); "
                                          "time.sleep(60)"])
    assert out["timed_out"] and out["exit_code"] is None and out["stdout"] == "started\n"


def test_shell_waits_for_approval_even_when_asked(app, shell, llm):
    spec = f"openai:{llm.base_url}:scripted"
    llm.script(tool("run_command", argv=["echo", "hello"]), say("Waiting."))
    res = Assistant(app, model=spec, new=True).turn("run echo hello", Channel())
    assert (res.tool_calls[0].risk, res.tool_calls[0].outcome) == ("high", "pending")
    assert "runs a program on this machine" in res.tool_calls[0].reasons
    done = Assistant(app, channel="cli", model="none", open_session=False).decide(
        res.tool_calls[0].approval_id, grant=True)
    assert done.tool_calls[0].outcome == "ran" and done.tool_calls[0].result["stdout"] == "hello\n"
    # a program off the list is refused before anyone is asked
    llm.script(tool("run_command", argv=["rm", "-rf", "/"]), say("No."))
    ui = WaitingChannel(on_ask=lambda c: ui.answer(c["id"], True))
    res = Assistant(app, model=spec, new=True).turn("run rm", ui)
    assert res.tool_calls[0].outcome == "failed" and "shell_allow" in res.tool_calls[0].error and not ui.asked


def test_an_edited_file_keeps_its_permissions(app, folder):
    """A private (0600) file stayed private and a script stayed executable: the replacement
    took the default 0644 (review2: an edited secrets file became world-readable)."""
    import stat
    (folder / "secret.txt").write_text("token=1\n")
    os.chmod(folder / "secret.txt", 0o600)
    (folder / "run.sh").write_text("echo hi\n")
    os.chmod(folder / "run.sh", 0o750)
    _call(app, "edit_file", path="secret.txt", old="token=1", new="token=2")
    _call(app, "write_file", path="run.sh", text="echo bye\n")
    assert stat.S_IMODE(os.stat(folder / "secret.txt").st_mode) == 0o600
    assert stat.S_IMODE(os.stat(folder / "run.sh").st_mode) == 0o750
    assert (folder / "secret.txt").read_text() == "token=2\n"



def test_a_long_file_name_is_written(app, folder):
    """A 250-character name (under the 255-byte limit) failed with "File name too long": its
    temporary file's name was longer (review2)."""
    name = "n" * 246 + ".txt"
    out = _call(app, "write_file", path=name, text="long\n")
    assert out["created"] and (folder / name).read_text() == "long\n"
    assert sorted(p.name for p in folder.iterdir()) == [name]


def test_a_nul_in_a_path_is_named(app, folder):
    """A path holding a NUL failed with Python's "embedded null byte" (review2)."""
    for name in ("write_file", "edit_file"):
        args = {"text": "x"} if name == "write_file" else {"old": "a", "new": "b"}
        with pytest.raises(InvalidInput, match="path holds a NUL"):
            _call(app, name, path="a\0b.txt", **args)
    assert list(folder.iterdir()) == []


def test_the_file_tools_never_write_cairns_own_files_or_notes(app):
    """A write folder holding the whole home (or the vault) still leaves config.toml, the
    index and the notes alone: notes go through the note tools, which keep their history; a
    write folder inside the home is the person's own."""
    from cairn.tools.filewrite import target
    home = app.settings.home
    try:
        app.settings.assistant.write_folders = [str(home.parent)]
        with pytest.raises(Forbidden, match="Cairn's home"):
            target(app, str(home / "config.toml"))
        with pytest.raises(Forbidden, match="note tools"):
            target(app, str(app.settings.vault / "Shopping.md"))
        assert target(app, str(home.parent / "elsewhere.txt")) == home.parent / "elsewhere.txt"
        (home / "drafts").mkdir(exist_ok=True)
        app.settings.assistant.write_folders = ["drafts"]  # relative to the home: the person's folder
        assert target(app, "letter.txt") == home / "drafts" / "letter.txt"
        app.settings.assistant.write_folders = ["vault"]
        with pytest.raises(Forbidden, match="note tools"):
            target(app, "Shopping.md")
    finally:
        app.settings.assistant.write_folders = []


def test_read_file_decodes_utf16_and_cp1252_and_refuses_binary_data(app):
    """probe23: `read_file` read every file as UTF-8 with U+FFFD: a UTF-16 or cp1252 file came
    back as mojibake with NULs, and a vault original such as `_files/<hash>.png` as up to
    MAX_READ_CHARS of binary noise handed to the model."""
    vault = app.settings.vault
    (vault / "u16.txt").write_bytes("Locker 3-17-29\r\n".encode("utf-16"))
    (vault / "old.txt").write_bytes("café".encode("cp1252"))
    (vault / "pic.png").write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + bytes(range(256)) * 4)
    assert _call(app, "read_file", path="u16.txt")["text"] == "Locker 3-17-29\n"
    assert _call(app, "read_file", path="old.txt")["text"] == "café"
    with pytest.raises(InvalidInput, match=r"pic.png is not a text file \(binary data"):
        _call(app, "read_file", path="pic.png")
