"""Recording and deciding tool calls: the session log event and audit record of every call, and
approvals decided after the turn that asked for them (`approve ID` / `deny ID`, buttons).

A mixin of :class:`cairn.assistant.loop.Assistant`; it uses the assistant's `app`, `store`,
`state`, `tools`, `scope`, `channel`, `incognito` and `_run`.
"""

from __future__ import annotations

from datetime import datetime, timezone

from cairn import audit
from cairn.assistant import prompt as P
from cairn.assistant.models import ToolCall
from cairn.assistant.results import CallRecord, TurnResult, _pending_json, describe
from cairn.errors import Forbidden


class Decisions:
    """Logging, auditing and late approval of the assistant's tool calls (mixin)."""

    def _log_call(self, call: ToolCall, rec: CallRecord, turn_no: int, audit_it: bool = True) -> None:
        ev = {"type": "tool_result", "turn": turn_no, "call_id": call.id, "name": rec.name, "outcome": rec.outcome}
        if rec.error:
            ev["error"] = rec.error
        if rec.outcome == "ran":
            ev["result"] = rec.result
            from cairn.assistant.artifacts import record_output
            art = record_output(self, call.id, rec, turn_no)  # the output as an artifact, with its lineage
            if art:
                ev["artifact"] = art
        self.store.append(self.state.id, ev)
        if audit_it:
            self._audit_decision(rec, rec.outcome, {})

    def _audit_decision(self, rec: CallRecord, outcome: str, extra: dict) -> None:
        detail = {"session": self.state.id, "channel": self.channel, "risk": rec.risk, "reasons": rec.reasons,
                  "provenance": rec.provenance, **extra}
        if rec.error:
            detail["error"] = rec.error
        if self.incognito:
            detail["incognito"] = True
        else:
            detail["arguments"] = rec.arguments
        self._audit(f"tool.{rec.name}", str(rec.arguments.get("note") or rec.arguments.get("memory_id") or "") or None,
                    outcome, detail)

    def _audit(self, action, target, outcome, detail) -> None:
        audit.record(self.app.settings.home, "assistant", action, target, outcome, detail,
                     getattr(self, "owner", None))

    # -- approvals decided later ---------------------------------------------------------
    def decide(self, approval_id: str, grant: bool, expire_after: float | None = None) -> TurnResult:
        """Approve (run) or deny a pending call by id, in whatever session holds it. Raises
        NotFound for an unknown or already decided id. expire_after: seconds after the request
        when an approval no longer counts (button channels): a later "approve" is recorded as
        a timeout and the call does not run."""
        state, call = self.store.find_approval(approval_id)
        from cairn.tools import required_scope, scope_allows
        need = required_scope(self.tools.get(call["name"])) if call["name"] in self.tools else "admin"
        if grant and not scope_allows(self.scope, need):
            raise Forbidden(f"approving {call['name']} needs a key with scope {need!r}; yours has {self.scope!r}")
        if grant and expire_after is not None and call.get("requested_at"):
            asked = datetime.fromisoformat(call["requested_at"])
            if (datetime.now(timezone.utc) - asked).total_seconds() > expire_after:
                grant = False
                call = dict(call, _expired=True)
        if state.id != self.state.id:
            self.state = state
        rec = CallRecord(call["name"], call.get("arguments") or {}, call.get("risk", "high"), "pending",
                         call.get("reasons") or [], call.get("provenance", "user"), approval_id,
                         preview=call.get("diff"))
        self.store.append(state.id, {"type": "approval", "approval_id": approval_id, "call_id": call.get("call_id"),
                                     "state": "granted" if grant else ("timeout" if call.get("_expired") else "denied")})
        if grant:
            if call["name"] not in self.tools:
                rec.outcome, rec.error = "failed", f"tool {call['name']!r} is no longer registered"
            else:
                self._run(self.tools.get(call["name"]), rec)
        else:
            rec.outcome, rec.error = "denied", ("the approval came after the timeout" if call.get("_expired")
                                                else "the person said no")
        self._log_call(ToolCall(call.get("call_id") or approval_id, rec.name, rec.arguments), rec,
                       int(call.get("turn") or 0))
        self.state = self.store.load(state.id)
        reply = P.redact_secrets(describe(rec))[0]
        self.store.append(state.id, {"type": "assistant", "turn": self.state.turns, "text": reply, "notices": []})
        self.state = self.store.load(state.id)
        out = TurnResult(reply, state.id, [rec])
        out.pending_approvals = _pending_json(self.state.pending)
        return out
