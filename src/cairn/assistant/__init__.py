"""The assistant: talk to your memory and let it act, only under your control.

Small modules, one job each: `loop` (reason-act-observe over the shared tool registry),
`judge` (risk of each proposed call), `budget` (tokens and cost), `sessions` (append-only
event logs), `prompt` (what each turn's prompt holds; retrieved text wrapped as data),
`nlu` (understanding a message offline: intents, slots, follow-ups), `understood` (acting on
it for models that cannot call tools), `models` (one client for embedded,
OpenAI-compatible and Anthropic models), `packaged` (opt-in packaged local models).
See docs/assistant.md.
"""

from cairn.assistant.loop import Assistant
from cairn.assistant.results import CallRecord, Channel, TurnResult, WaitingChannel

__all__ = ["Assistant", "CallRecord", "Channel", "TurnResult", "WaitingChannel"]
