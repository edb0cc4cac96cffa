"""Server-sent events for one assistant turn: what `POST /chat` on `cairn serve` streams.

    for chunk in chat_events(app, "what do I know about Ana", session=None, channel="web"):
        yield chunk            # str: "event: NAME\\ndata: JSON\\n\\n"

Events, in order: `session` {"session"}; any number of `delta` {"text"} (the reply as it is
written) and `notice` {"text"} (a medium call running, warnings); then exactly one `result`
(the `cairn chat --json` object) or `error` {"error", "status"}. High-risk calls come back
pending (the web page shows approve/deny buttons that call the approvals route, i.e.
`Assistant.decide`): nothing is approved implicitly. The turn runs in a worker thread; the
generator only relays its events, so a slow model never blocks the server's event loop
when the adapter iterates it in a thread pool.
"""

from __future__ import annotations

import json
import queue
import threading
from typing import Iterator

from cairn.assistant.loop import Assistant
from cairn.assistant.results import Channel


def sse(event: str, data: dict) -> str:
    """One server-sent event: "event: NAME\\ndata: JSON\\n\\n"."""
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False, default=str)}\n\n"


class _QueueChannel(Channel):
    def __init__(self, q: "queue.Queue") -> None:
        self.q = q

    def delta(self, text: str) -> None:
        self.q.put(("delta", {"text": text}))

    def notice(self, text: str) -> None:
        self.q.put(("notice", {"text": text}))


def chat_events(app, message: str, *, session: str | None = None, channel: str = "web",
                person: str = "local", model: str | None = None, scope: str = "admin",
                new: bool = False) -> Iterator[str]:
    """The SSE stream of one turn (see module docstring). `new` starts a new session when no
    `session` is given (else the channel's current one continues). Errors become an `error`
    event with the HTTP status the error maps to (cairn.errors.http_status_of)."""
    from cairn.errors import http_status_of
    q: queue.Queue = queue.Queue()
    try:
        bot = Assistant(app, channel=channel, person=person, session_id=session, new=new, model=model, scope=scope)
    except Exception as exc:  # unknown session, bad model spec
        yield sse("error", {"error": str(exc), "status": http_status_of(exc)})
        return
    yield sse("session", {"session": bot.state.id})

    def work() -> None:
        try:
            q.put(("result", bot.turn(message, _QueueChannel(q)).to_json()))
        except Exception as exc:
            q.put(("error", {"error": str(exc), "status": http_status_of(exc)}))

    threading.Thread(target=work, daemon=True).start()
    while True:
        event, data = q.get()
        yield sse(event, data)
        if event in ("result", "error"):
            return
