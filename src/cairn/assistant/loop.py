"""The assistant loop: reason, act, observe — one turn of the person at a time.

    from cairn.assistant import Assistant, Channel
    with Cairn(home) as app:
        bot = Assistant(app, channel="cli", person="local")
        result = bot.turn("remember that my sister is called Ana", Channel())
        result.to_json()   # {"reply", "tool_calls", "pending_approvals", "session", ...}

Each step sends the context (prompt.py), the recent turns and the tool schemas to the model
(models.py). Every proposed call goes through the judge (judge.py) and then: low runs;
medium runs after the channel's veto window; high waits for the channel's approval (timeout =
denied) or, in a channel that cannot ask (the one-shot CLI), comes back pending until
`approve(ID)` / `deny(ID)`. Results are fed back as untrusted data. A failing tool is retried
with exponential back-off, then skipped and reported to the person. The loop stops at the
step limit or when the budget (budget.py) runs out, with a clear message. A model that
cannot call tools gets the understanding layer (understood.py over nlu/), and the person is
told. Every model reply is checked for sentences claiming an action no call of the turn
performed (claims.py): redrafted once, else replaced by what ran. Each turn's facts go to
memory after the turn (turnmemory.py).
Every decision goes to the audit log; every event to the session log (sessions.py).
"""

from __future__ import annotations

import json
import secrets
import time
from datetime import datetime, timezone

from cairn.assistant import judge as J
from cairn.assistant import prompt as P
from cairn.assistant.budget import Budget, BudgetExceeded, Limits
from cairn.assistant.models import ChatModel, ToolCall, estimate_tokens, get_model
from cairn.assistant.results import (CallRecord, Channel, TurnResult, WaitingChannel,  # noqa: F401
                                     _message, _pending_json, _summary, describe)
from cairn.assistant.decisions import Decisions
from cairn.assistant.message import clean as clean_message
from cairn.assistant.understood import Understood
from cairn.assistant.sessions import MemorySessionStore, SessionStore
from cairn.errors import Conflict, Forbidden, InvalidInput, NotFound
from cairn.llm.errors import LLMContextOverflow, LLMError

ROUTER_NOTICE = ("This model cannot call tools, so Cairn's own offline understanding (an intent "
                 "classifier, cairn.assistant.nlu) reads your requests and runs them through the same "
                 "tools and approvals; `cairn chat --why` shows how each turn was understood.")
HISTORY_TURNS = 6  # earlier turns a small model's plain reply sees (the compiler decides for the rest)
OVERFLOW_SQUEEZE = 0.5  # after a provider's context-overflow error the prompt is recompiled this much smaller
_NO_RETRY = (InvalidInput, NotFound, Conflict, Forbidden, ValueError, KeyError, TypeError)


class Assistant(Decisions, Understood):
    """The assistant for one person on one channel, bound to one session.

    app: the `cairn.service.Cairn`. session_id: continue that session (from any channel);
    new: start a fresh one; otherwise the current session of (channel, person) is continued
    (after the memory extraction of what it said while idle, when it was idle). model: a spec
    (models.py; default `[assistant] model`, then `llm`, then `none`: the understanding layer).
    incognito: nothing is written (no session file, no memories, no extraction; write tools
    are refused). tools: a ToolRegistry (default: every registered tool). open_session=False:
    no session is created when none is current (for deciding approvals only). scope: the
    caller's API-key scope (cairn.tools.SCOPES); a tool needing more is refused, approved or not."""

    def __init__(self, app, *, channel: str = "cli", person: str = "local", session_id: str | None = None,
                 new: bool = False, model: str | ChatModel | None = None, incognito: bool = False,
                 tools=None, open_session: bool = True, scope: str = "admin"):
        from cairn.tools import registry
        self.app = app
        self.cfg = app.settings.assistant
        self.channel, self.person = channel, person
        self.incognito = incognito
        self.scope = scope  # the caller's key scope (REST): tools beyond it are refused
        self.tools = tools or registry(app.settings)  # subprocess plugins of this home too
        self.store: SessionStore = MemorySessionStore() if incognito else SessionStore(app.settings.home)
        self._model: ChatModel | None = model if isinstance(model, ChatModel) else None
        self._spec = model if isinstance(model, str) else None
        self.last_context: P.Context | None = None
        self._engine = None  # cairn.context.compiler.Engine of the current session
        self.notices: list[str] = []
        self.hint: str | None = None  # the router's understanding of this turn (turn(hint=))
        from cairn.tools import current_person
        person_of_app = getattr(app.settings, "owner", None)
        # the person (cairn.people) this assistant acts for: the service's, else the request's
        self.owner = person_of_app if person_of_app is not None else current_person.get()
        self.store.viewer = self.owner  # another person's sessions and approvals are not found
        from cairn.assistant.sessions import current_key
        sid = session_id or (None if new else self.store.current(channel, current_key(person, self.owner)))
        if new and not session_id and open_session:  # `--new` ends the current session (extraction runs)
            from cairn.assistant.turnmemory import end_current
            self.notices += end_current(self)
        if sid and self.owner is not None and not self._mine(sid):
            if session_id:  # another person's session: not found (its existence is not revealed)
                from cairn.errors import NotFound
                raise NotFound(f"no session {session_id!r}")
            sid = None
        if sid:
            self.state = self.store.load(sid)
            if session_id:
                self.store.set_current(channel, current_key(person, self.owner), sid)
            if self._idle(self.state):
                from cairn.assistant.turnmemory import catch_up
                self.notices += self._extract("idle") + catch_up(self)
        elif not open_session:  # only deciding approvals: no new session file
            from cairn.assistant.sessions import SessionState
            self.state = SessionState(id="")
        else:
            self.state = self.store.create(channel, person, self.model_spec, self.owner)
            self._carry_over()
        chosen = self._model.name if self._model is not None else self._spec
        if chosen and self.state.id and chosen != self.state.model:  # an explicit model for a continued session
            self.store.append(self.state.id, {"type": "model_switch", "model": chosen})
            self.state = self.store.load(self.state.id)
        self.budget = Budget(None if incognito else app.settings.home, self.state.id,
                             Limits.from_settings(self.cfg), self.state.usage)

    # -- model ---------------------------------------------------------------------------
    @property
    def model_spec(self) -> str:
        if self._model is not None:
            return self._model.name
        if self._spec:
            return self._spec
        st = getattr(self, "state", None)
        if st is not None and st.model:
            return st.model
        from cairn.llm import default_llm_spec
        return self.cfg.model or self.app.settings.llm or default_llm_spec()

    @property
    def model(self) -> ChatModel:
        if self._model is None:
            self._model = get_model(self.model_spec, self.cfg.tools)
        return self._model

    def switch_model(self, spec: str) -> str:
        """Use model `spec` from now on in this session (ValueError for a bad spec)."""
        new = get_model(spec, self.cfg.tools)
        self._model, self._spec = new, spec
        self.store.append(self.state.id, {"type": "model_switch", "model": new.name})
        self.state = self.store.load(self.state.id)
        return new.name

    # -- sessions ------------------------------------------------------------------------
    def _mine(self, sid: str) -> bool:
        """Whether session `sid` exists and belongs to this assistant's owner."""
        from cairn.assistant.sessions import SessionNotFound
        try:
            from cairn.people import same_person
            return same_person(self.store.load(sid).owner, self.owner)
        except SessionNotFound:
            return False

    def _idle(self, state) -> bool:
        if not state.last or state.ended or self.incognito:
            return False
        last = datetime.fromisoformat(state.last)
        return (datetime.now(timezone.utc) - last).total_seconds() > self.cfg.idle_minutes * 60

    def new_session(self) -> str:
        """End this session (memory extraction runs on it) and start a new one; returns its id.
        What the extraction did is in `self.notices` (shown with the next reply)."""
        self.notices += self.end("new session")
        self.state = self.store.create(self.channel, self.person, self.model_spec, self.owner)
        self._carry_over()
        self.budget = Budget(None if self.incognito else self.app.settings.home, self.state.id,
                             Limits.from_settings(self.cfg))
        return self.state.id

    def resume(self, sid: str) -> None:
        """Continue session `sid` here (SessionNotFound for an unknown id)."""
        self.state = self.store.load(sid)
        from cairn.assistant.sessions import current_key
        self.store.set_current(self.channel, current_key(self.person, self.owner), sid)
        self.budget = Budget(None if self.incognito else self.app.settings.home, sid,
                             Limits.from_settings(self.cfg), self.state.usage)

    def end(self, reason: str = "ended") -> list[str]:
        """End the session: the grounded extraction runs on what the person said since the
        last extraction (not in incognito). Returns notices."""
        notes = self._extract(reason)
        from cairn.assistant.turnmemory import catch_up
        notes += catch_up(self)  # the entities of notes written in the session (noteops.graph_later)
        if not self.incognito:  # what it was doing and what is next, for the next session
            from cairn.context.checkpoint import write
            write(self.store, self.state.id, "end")
        self.store.append(self.state.id, {"type": "end", "reason": reason})
        self.state = self.store.load(self.state.id)
        return notes

    def _carry_over(self) -> None:
        """The new session starts from the checkpoint of the person's last one (context/checkpoint.py)."""
        from cairn.context.checkpoint import carry_over
        if carry_over(self.store, self.state.id, self.owner) is not None:
            self.state = self.store.load(self.state.id)

    def _extract(self, reason: str, reflect: bool = True) -> list[str]:
        """Extract what the person said since the last extraction, then (reflect) run the
        reflection pass (turnmemory.extract). Returns notices."""
        from cairn.assistant.turnmemory import extract
        return extract(self, reason, reflect)

    def person_name(self) -> str:
        """The person's name for extraction: the core block `name`, else "The person"."""
        try:
            name = (self.app.core().blocks.get("name") or "").strip()
        except Exception:
            name = ""
        return name.splitlines()[0][:40] if name else "The person"

    # -- one turn ------------------------------------------------------------------------
    def turn(self, text: str, ui: Channel | None = None, hint: str | None = None) -> TurnResult:
        """Answer one message of the person. Raises InvalidInput for an empty message; model
        failures end the turn with a clear reply (never a traceback). hint: how the request
        was understood, put in the prompt as a pinned unit the model may overrule
        (context/clock.hint_text); None: for a model that calls tools, the understanding
        layer's own reading (intents, slots, resolved references: nlu/hint.py). The message is
        read and stored cleaned (cairn.assistant.message.clean)."""
        ui = ui or Channel()
        self.hint = hint
        text = clean_message(text)  # no NUL, control or bidi characters, no lone surrogates (message.py)
        if not text:
            raise InvalidInput("the message is empty")
        sid = self.state.id
        turn_no = self.state.turns + 1
        self.store.append(sid, {"type": "user", "turn": turn_no, "text": text})
        self._turn_text = (turn_no, text)  # the message, an input of the turn's tool outputs (artifacts.py)
        history = self.state.history[-2 * HISTORY_TURNS - 1:-1]
        res = TurnResult("", sid, notices=list(self.notices))
        self.notices = []
        try:
            model = self.model
        except (LLMError, ValueError) as exc:
            res.notices.append(f"model {self.model_spec!r} unavailable ({exc}); using the offline understanding layer")
            from cairn.assistant.models import NoModel
            model = self._model = NoModel()
        res.model = model.name
        understood = self._understand(text) if model.tools_mode == "none" else None
        if understood is None and hint is None:  # a model that calls tools gets the reading as a hint
            self.hint = self._hint(text)
        if understood is not None:  # the understanding layer reads no notes into a prompt
            ctx = P.Context(P.RULES, [P.PromptUnit("rules", "rules", P.RULES, "always")])
            from cairn.context.routed import routed_why
            from cairn.context.session import save_why
            save_why(self.store, self.state.id, routed_why(self.app, text, P.RULES))  # `/why`: clock, memories
        else:
            ctx = self._compile(text, turn_no, model)
        self.last_context = ctx
        if ctx.untrusted:
            self._audit("assistant.context", None, "ok", {
                "session": sid, "turn": turn_no, "untrusted": [u.id for u in ctx.units if u.untrusted],
                "suspicious": [u.id for u in ctx.units if u.untrusted and P.is_suspicious(u.text)],
                "wrapped_as": "data"})
        try:
            if understood is not None:
                self._act(*understood, model, text, None, history, res, ui, turn_no)
                if (turn_no == 1 or res.tool_calls) and ROUTER_NOTICE not in res.notices:
                    res.notices.append(ROUTER_NOTICE)  # told at the start and whenever it acts
            else:
                self._reason_act(model, text, ctx, history, res, ui, turn_no)
        except BudgetExceeded as exc:
            res.stopped = "budget"
            res.reply = (res.reply + "\n\n" if res.reply else "") + str(exc)
        except LLMContextOverflow as exc:
            res.stopped = "context"
            res.reply = (res.reply + "\n\n" if res.reply else "") + (
                f"The conversation is too long for this model's context even after compacting ({exc}). "
                "Lower [assistant] context_tokens to the model's real window, or start a new session (/new).")
        except LLMError as exc:
            res.stopped = "model"
            res.reply = (res.reply + "\n\n" if res.reply else "") + f"The model failed: {exc}"
        res.reply, hidden = P.redact_secrets(res.reply)
        if hidden:
            res.notices.append(f"{hidden} secret value(s) from your notes hidden in the reply "
                               "(`cairn note show` shows them)")
        from cairn.assistant.turnmemory import after_turn
        res.notices += after_turn(self, res)  # this turn's facts reach memory now (turnmemory.py)
        from cairn.assistant.nudge import offer_constraint
        res.notices += offer_constraint(self, text, turn_no, res)  # a stated rule: offered, never kept unasked
        res.pending_approvals = _pending_json(self.store.load(sid).pending)
        self.store.append(sid, {"type": "assistant", "turn": turn_no, "text": res.reply, "notices": res.notices})
        self.state = self.store.load(sid)
        self.store.append(sid, {"type": "checkpoint", "turns": self.state.turns, "model": model.name,
                                "pending": sorted(self.state.pending), "usage": self.state.usage})
        self.state = self.store.load(sid)
        res.usage = self.budget.to_json()
        return res

    def _call_model(self, model: ChatModel, messages, tools, ui: Channel, res: TurnResult,
                    max_tokens: int | None = None):
        max_tokens = min(max_tokens or self.cfg.max_reply_tokens, self.cfg.max_reply_tokens)
        need = estimate_tokens(json.dumps(messages, ensure_ascii=False)) + max_tokens
        self.budget.check(need)
        stream = P.RedactingStream(ui.delta)
        comp = model.complete(messages, tools, max_tokens=max_tokens, on_delta=stream)
        stream.flush()
        used = self.budget.add(model.model_id, model.local, comp.usage["prompt_tokens"],
                               comp.usage["completion_tokens"])
        self.store.append(self.state.id, {"type": "usage", "model": model.name, **used})
        return comp

    def _reason_act(self, model, text, ctx, history, res, ui, turn_no) -> None:
        schemas = [t.openai_schema() for t in self.tools.all()]
        compiled = getattr(ctx, "compiled", None)
        messages = ([dict(m) for m in compiled.messages] if compiled is not None else
                    [{"role": "system", "content": ctx.system}, *history, {"role": "user", "content": text}])
        untrusted = ctx.untrusted
        retried = False
        for step in range(self.cfg.step_limit):
            # A small JSON-mode model calls one round of tools, then answers in plain text
            # (given the choice again it tends to repeat the call until the step limit).
            offer = None if (model.tools_mode == "json" and res.tool_calls) else schemas
            try:
                comp = self._call_model(model, messages, offer, ui, res)
            except LLMContextOverflow as exc:
                if retried or compiled is None:
                    raise
                retried = True  # compact harder and retry once
                tail = messages[len(compiled.messages):]
                ctx = self._compile(text, turn_no, model, squeeze=OVERFLOW_SQUEEZE, overflow=str(exc))
                compiled = ctx.compiled
                messages = [dict(m) for m in compiled.messages] + self._distilled_tail(tail)
                res.notices.append(f"the model's context overflowed ({exc}); the prompt was compacted to "
                                   f"{compiled.total_tokens} tokens and sent again")
                continue
            if not comp.tool_calls:  # no sentence may claim an action no call performed (claims.py)
                from cairn.assistant.claims import honest_reply
                res.reply = honest_reply(self, model, messages, self._verified(comp.content, ctx, res), res, ui)
                return
            messages.append({"role": "assistant", "content": comp.content or None,
                             "tool_calls": [c.to_openai() for c in comp.tool_calls]})
            for call in comp.tool_calls:
                rec = self._handle(call, text, untrusted, ui, turn_no)
                res.tool_calls.append(rec)
                if rec.outcome == "ran":
                    from cairn.context.distill import distill
                    content = P.wrap_data(distill(rec.name, rec.result, text, call.id), source=f"tool:{rec.name}")
                    untrusted = True
                elif rec.outcome == "pending":
                    content = (f"Waiting for the person's approval (id {rec.approval_id}); it has not run. "
                               "Tell the person what is waiting.")
                else:
                    content = f"Not run: {rec.outcome}" + (f" ({rec.error})" if rec.error else "")
                messages.append({"role": "tool", "tool_call_id": call.id, "content": content})
        res.stopped = "step_limit"
        res.reply = (f"I stopped after {self.cfg.step_limit} steps (the step limit, [assistant] step_limit) "
                     "without a final answer. " + _summary(res.tool_calls)).strip()

    def _verified(self, reply: str, ctx: P.Context, res: TurnResult) -> str:
        """A reply citing the notes goes through the verifier: unsupported sentences dropped."""
        import re
        if not ctx.evidence or not re.search(r"\[\d+\]", reply or ""):
            return reply
        from cairn.answer.verify import verify
        ver = verify(reply, ctx.evidence)
        if ver.verdict == "pass":
            return reply
        if ver.verdict == "revise":
            res.notices.append("some sentences were dropped: the cited notes do not support them")
            return ver.answer_text()
        res.notices.append("the reply cited notes that do not support it, so it was withheld")
        return "I could not find support for an answer in your notes."

    # -- one call ------------------------------------------------------------------------
    def _handle(self, call: ToolCall, user_text: str, untrusted: bool, ui: Channel, turn_no: int) -> CallRecord:
        sid = self.state.id
        if call.name not in self.tools or "_raw" in call.arguments:
            why = (f"unknown tool {call.name!r}" if call.name not in self.tools
                   else "its arguments were not valid JSON")
            rec = CallRecord(call.name, call.arguments, "none", "failed", [why], error=why)
            self._log_call(call, rec, turn_no)
            return rec
        tool = self.tools.get(call.name)
        opinion = J.llm_second_opinion(self.model) if self.cfg.llm_judge else None
        dec = J.classify(tool, call.arguments, user_text=user_text, untrusted_in_context=untrusted,
                         vault=self.app.settings.vault, second_opinion=opinion)
        rec = CallRecord(call.name, call.arguments, dec.risk, "pending", dec.reasons, dec.provenance)
        shown = {"name": call.name, "arguments": call.arguments, "risk": dec.risk, "reasons": dec.reasons,
                 "provenance": dec.provenance}
        if tool.meta.get("preview"):  # e.g. a file tool's unified diff, shown for approval
            try:
                diff = tool.meta["preview"](self.app, call.arguments)
                if diff:
                    shown["diff"] = rec.preview = diff
            except Exception as exc:  # a call that cannot run is not put to the person
                rec.outcome, rec.error = "failed", _message(exc)
                self.store.append(sid, {"type": "tool_call", "turn": turn_no, "call_id": call.id, **shown})
                self._log_call(call, rec, turn_no)
                return rec
        self.store.append(sid, {"type": "tool_call", "turn": turn_no, "call_id": call.id, **shown})
        from cairn.tools import required_scope, scope_allows
        if not scope_allows(self.scope, required_scope(tool)):
            rec.outcome = "denied"
            rec.error = f"this needs a key with scope {required_scope(tool)!r}; yours has {self.scope!r}"
        elif self.incognito and not tool.read_only:
            rec.outcome, rec.error = "denied", "incognito: nothing is written"
        elif dec.risk == "high":
            aid = "ap-" + secrets.token_hex(4)
            answer = ui.approve(dict(shown, id=aid), self.cfg.approval_timeout_s)
            if answer == "defer":
                rec.approval_id = aid
                self.store.append(sid, {"type": "approval", "approval_id": aid, "call_id": call.id,
                                        "state": "requested", "call": dict(shown, turn=turn_no)})
                self._audit_decision(rec, "pending", {"approval_id": aid})
                self._log_call(call, rec, turn_no, audit_it=False)
                return rec
            self.store.append(sid, {"type": "approval", "approval_id": aid, "call_id": call.id,
                                    "state": answer if answer in ("granted", "denied", "timeout") else "denied"})
            if answer != "granted":
                rec.outcome = "denied"
                rec.error = "no answer within the approval timeout" if answer == "timeout" else "the person said no"
        elif dec.risk == "medium":
            ui.notice(f"{call.name} {json.dumps(call.arguments, ensure_ascii=False)} (medium risk) runs now"
                      + (f" unless you veto within {self.cfg.veto_s:g} s" if ui.interactive else ""))
            if ui.veto(shown, self.cfg.veto_s):
                rec.outcome, rec.error = "vetoed", "the person vetoed it"
        if rec.outcome == "pending":
            self._run(tool, rec)
        self._log_call(call, rec, turn_no)
        return rec

    def _run(self, tool, rec: CallRecord) -> None:
        """Run an approved (or low-risk) call; every note it changes is kept as a version by
        "assistant" (store.history), which `Cairn.undo()` reverts."""
        from cairn.noteops import graph_later
        from cairn.store.history import acting
        from cairn.tools import current_session, via_assistant
        token = current_session.set(self.state.id or None)  # the session tools (tools/sessionlog.py) act on
        judged = via_assistant.set(True)  # the judge let it through (tools/filewrite.py, tools/shell.py)
        try:
            with acting("assistant"), graph_later():  # a note's entities follow at the session's end
                self._attempt(tool, rec)
        finally:
            via_assistant.reset(judged)
            current_session.reset(token)

    def _attempt(self, tool, rec: CallRecord) -> None:
        if rec.preview is not None and tool.meta.get("preview"):  # what was approved is what runs
            try:
                now = tool.meta["preview"](self.app, rec.arguments)
            except Exception as exc:
                rec.outcome, rec.error = "failed", _message(exc)
                return
            if now != rec.preview:
                rec.outcome, rec.error = "failed", ("the file changed since the diff was shown; nothing was "
                                                    "written (ask again to see the new diff)")
                return
        attempts = max(0, self.cfg.tool_retries) + 1
        for attempt in range(attempts):
            try:
                rec.result = self.tools.call(self.app, tool.name, rec.arguments)
                rec.outcome = "ran"
                return
            except _NO_RETRY as exc:
                rec.outcome, rec.error = "failed", _message(exc)
                return
            except Exception as exc:  # transient: a busy index, a network error, a plugin bug
                rec.outcome, rec.error = "failed", _message(exc)
                from cairn.store.damaged import is_damaged_error
                if is_damaged_error(exc):  # a damaged file: retrying cannot mend it; the service names it
                    rec.error = self.app.database_error_message(exc)
                    return
                if attempt + 1 < attempts:
                    time.sleep(self.cfg.retry_backoff_s * (2 ** attempt))
        rec.error = f"failed {attempts} times, skipped: {rec.error} (ask me to try again)"

    def why(self) -> dict:
        """What went into the last prompt: {"budget", "total_tokens", "bands": [{"name",
        "budget", "tokens", "units": [{"id", "kind", "tokens", "score", "why", "text"}]}]}
        (the last compiled prompt of this session, also after a restart: `<id>.why.json`)."""
        from cairn.context.session import load_why
        ctx = self.last_context
        compiled = getattr(ctx, "compiled", None) if ctx else None
        if compiled is not None:
            from cairn.assistant.nlu import state as NS
            return dict(compiled.why(), understanding=NS.turns_of(self.store, self.state.id),
                        conversation=NS.load(self.store, self.state.id).to_json())
        return load_why(self.store, self.state.id)

    # -- the context engine --------------------------------------------------------------
    def engine(self):
        """The context engine of the current session, synced with its log."""
        from cairn.context.session import engine_for
        self._engine = engine_for(self._engine, self.store, self.state.id, self._summariser(), owner=self.owner)
        return self._engine

    def _summariser(self):
        m = self._model
        if m is None or m.tools_mode == "none" or self.cfg.context_tokens < 1024:
            return None
        from cairn.context.session import model_summariser
        return model_summariser(m)

    def _compile(self, text: str, turn_no: int, model, squeeze: float = 1.0, overflow: str = "") -> P.Context:
        """Compile this turn's prompt (cairn.context.compiler) and log any compaction."""
        from cairn.context.session import compile_turn
        return compile_turn(self, text, turn_no, model, squeeze=squeeze, overflow=overflow)

    def _distilled_tail(self, tail: list[dict]) -> list[dict]:
        return tail


