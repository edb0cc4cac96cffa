"""The reminders page: `GET /reminders` lists what is coming (active reminders, next run in
the person's zone), dead letters (runs that failed every retry) with **Replay** and
**Discard**, finished ones (done, cancelled, delivered) and the run history. Forms:

- `POST /reminders/new` {text, when}: create in words; `when` starting with "every" repeats
  ("every weekday at 9"), anything else is once ("tomorrow at 8", "in 2 hours");
- `POST /reminders/change` {id, action, until}: action one of done, cancel, snooze (until:
  one-off words, default "in 10 minutes"), replay, discard.

All through the service's scheduler (`Cairn.scheduler()`, the same operations as `cairn
remind` and /api/reminders). Bad words or an action the reminder's state does not allow
come back as the page with the message (400 / 404 / 409) and the form filled in; nothing
stored is lost.
"""

from __future__ import annotations

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import RedirectResponse

from cairn.interfaces.web.common import page
from cairn.interfaces.web.deps import error_message, need, service

router = APIRouter()
ACTIONS = ("done", "cancel", "snooze", "replay", "discard")
WORDS = {"created": "Reminder set.", "done": "Marked done.", "cancel": "Cancelled.",
         "snooze": "Snoozed.", "replay": "Queued again.", "discard": "Discarded."}
SNOOZES = ("in 10 minutes", "in 1 hour", "tomorrow at 9")


def split_when(when: str) -> dict:
    """{"every": …} when the words repeat ("every …", "each …", "daily", "weekdays"), else
    {"at": …} (once)."""
    w = when.strip()
    low = w.lower()
    if low.startswith(("every ", "each ")) or low in ("daily", "weekly", "hourly", "weekdays"):
        return {"every": w}
    return {"at": w}


def _page(request: Request, status_code: int = 200, **extra):
    from cairn.schedule.scheduler import reminder_json
    rows, dead, finished, runs = [], [], [], []
    try:
        with service(request).scheduler() as sch:
            every = [reminder_json(r) for r in sch.list(None, kind="reminder")]
            runs = list(reversed(sch.history(limit=30)))
    except (ValueError, OSError) as exc:
        msg, status_code = error_message(exc)
        extra["error"], every = msg, []
    for r in every:
        (dead if r["state"] == "dead" else
         finished if r["state"] in ("done", "cancelled", "delivered") else rows).append(r)
    rows.sort(key=lambda r: r["next_due"] or "")
    texts = {r["id"]: r["text"] for r in every}
    for run in runs:
        run["text"] = texts.get(run["reminder_id"], "")
    return page(request, "reminders.html", "reminders", status_code=status_code, reminders=rows,
                dead=dead, finished=finished[-30:], runs=runs, snoozes=SNOOZES,
                form=extra.pop("form", {}), **extra)


@router.get("/reminders")
def reminders(request: Request, done: str = ""):
    """The reminders page (see the module docstring)."""
    return _page(request, notice=WORDS.get(done))


@router.post("/reminders/new", dependencies=[Depends(need("write"))])
def create(request: Request, text: str = Form(""), when: str = Form("")):
    """Create a reminder from words; on bad words the page comes back with the form filled."""
    try:
        if not when.strip():
            raise _Invalid("say when: e.g. \"every weekday at 9\" or \"tomorrow at 8\"")
        with service(request).scheduler() as sch:
            sch.remind(text, **split_when(when))
    except (ValueError, OSError) as exc:
        msg, status = error_message(exc)
        return _page(request, status, error=msg, form={"text": text, "when": when})
    return RedirectResponse("/reminders?done=created", status_code=303)


@router.post("/reminders/change", dependencies=[Depends(need("write"))])
def change(request: Request, id: str = Form(""), action: str = Form(""), until: str = Form("")):
    """done / cancel / snooze / replay / discard one reminder."""
    try:
        if action not in ACTIONS:
            raise _Invalid(f"unknown action {action!r}; one of {', '.join(ACTIONS)}")
        with service(request).scheduler() as sch:
            fn = getattr(sch, action)
            fn(id, until=until.strip() or "in 10 minutes") if action == "snooze" else fn(id)
    except (ValueError, OSError) as exc:
        msg, status = error_message(exc)
        return _page(request, status, error=msg)
    return RedirectResponse(f"/reminders?done={action}", status_code=303)


def _Invalid(message: str):
    from cairn.errors import InvalidInput
    return InvalidInput(message)
