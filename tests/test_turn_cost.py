"""What a turn costs as the conversation grows (Session 18, turncost): the session log is
folded as it grows, so a turn reads only the bytes appended since the last read, never the
whole log again (SessionState.nlu / unextracted / reflected_upto, used by nlu/state.py and
turnmemory.py); the person's message is embedded once per turn although both the intent
classifier and the compiler's semantic turns (context/semantic.py) use its vector. Timings
are in bench/assistant_turns.py, not here."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest

import cairn.assistant.sessions as S
from cairn.assistant import Assistant
from cairn.assistant.nlu import state as NS
from cairn.service import Cairn
from fakes.scripted_llm import ScriptedLLM


class Recording:
    """The real embedder, recording every text it is asked to embed."""

    def __init__(self, inner):
        self.inner, self.model_name, self.dim = inner, inner.model_name, inner.dim
        self.texts: list[str] = []

    @property
    def model_id(self):
        return self.inner.model_id

    def embed(self, texts):
        self.texts += list(texts)
        return self.inner.embed(texts)


@pytest.fixture(scope="module")
def emb(real_embedder):
    return Recording(real_embedder)


@pytest.fixture(scope="module")
def capp(tmp_path_factory, emb):
    with Cairn(tmp_path_factory.mktemp("turncost") / "home", embedder=emb) as app:
        app.settings.assistant.recall_k = app.settings.assistant.notes_k = 0
        yield app


@pytest.fixture(scope="module")
def llm():
    with ScriptedLLM() as server:
        yield server


def _full_read(store, sid):
    """What the turn used to compute from the whole log."""
    events = store.events(store.path(sid))
    upto = max((int(e.get("upto", 0)) for e in events if e.get("type") == "extraction"), default=0)
    done = max((int(e.get("upto", 0)) for e in events if e.get("type") == "reflection"), default=0)
    return ([e for e in events if e.get("type") == "nlu"],
            [e for e in events if e.get("type") == "user" and int(e["seq"]) > upto],
            any(e.get("type") == "user" and int(e["seq"]) > done for e in events))


def test_the_folded_view_equals_a_full_read_at_every_step(tmp_path):
    store = S.SessionStore(tmp_path)
    sid = store.create("cli", "local", "none").id
    script = [{"type": "user", "turn": 1, "text": "a"}, {"type": "nlu", "turn": 1, "subject": "boiler"},
              {"type": "assistant", "turn": 1, "text": "ok"}, {"type": "extraction", "upto": 3, "reason": "turn"},
              {"type": "user", "turn": 2, "text": "b"}, {"type": "nlu", "turn": 2, "person": "Ana"},
              {"type": "reflection", "upto": 6}, {"type": "user", "turn": 3, "text": "c"},
              {"type": "user", "turn": 4, "text": "d"}, {"type": "extraction", "upto": 10, "reason": "turn"},
              {"type": "user", "turn": 5, "text": "e"}]
    for event in script:
        store.append(sid, event)
        st = store.load(sid)
        nlu, unextracted, unreflected = _full_read(store, sid)
        assert st.nlu == nlu and st.unextracted == unextracted
        assert (st.last_user_seq > st.reflected_upto) == unreflected
    assert [e["text"] for e in store.load(sid).unextracted] == ["e"]
    assert NS.load(store, sid).to_json()["person"] == "Ana"
    # a torn last line is not folded until it is completed, as a full read skips it
    with store.path(sid).open("ab") as f:
        f.write(b'{"seq": 13, "type": "nlu", "subject": "roof"')
    assert store.load(sid).nlu == _full_read(store, sid)[0] and NS.load(store, sid).subject == "boiler"
    with store.path(sid).open("ab") as f:
        f.write(b'}\n')
    assert NS.load(store, sid).subject == "roof" and store.load(sid).nlu == _full_read(store, sid)[0]


def _session_reads(monkeypatch, sid):
    """Offsets of every read of session `sid`'s log from now on."""
    offsets = []
    real = S.read_appended

    def spy(path, offset, size):
        if Path(path).name == f"{sid}.jsonl":
            offsets.append(offset)
        return real(path, offset, size)

    monkeypatch.setattr(S, "read_appended", spy)
    return offsets


@pytest.mark.parametrize("model", ["none", "scripted"])
def test_a_later_turn_reads_only_what_was_appended(capp, llm, monkeypatch, model):
    spec = "none" if model == "none" else f"openai:{llm.base_url}:scripted"
    bot = Assistant(capp, model=spec, new=True)
    for text in ("the heron came back to the mill pond", "what did I say about the pond?"):
        bot.turn(text)
    offsets = _session_reads(monkeypatch, bot.state.id)
    bot.turn("thanks, that is good to know")
    assert offsets and 0 not in offsets  # reads began where the last one stopped, never at the start


def test_the_message_is_embedded_once_per_turn(capp, llm, emb):
    bot = Assistant(capp, model=f"openai:{llm.base_url}:scripted", new=True)
    bot.turn("the bicycle lock is in the blue drawer")
    text = f"where did I put the lamp {secrets.token_hex(3)}?"  # never embedded before in this process
    start = len(emb.texts)
    bot.turn(text)
    assert bot._engine.vectors is not None and len(bot._engine.vectors) >= 3  # semantic turns are on
    assert emb.texts[start:].count(text) == 1
