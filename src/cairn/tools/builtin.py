"""Built-in tools (registered through the `register_tools` hook like any plugin's).

Each tool is a thin call of one `cairn.service.Cairn` operation; its JSON result is the same
shape the CLI prints with --json. Risk hints follow the judge's rules: reads are low, writes
medium, deletion and anything that leaves the machine high.
"""

from __future__ import annotations

from cairn.hookspecs import hookimpl
from cairn.model import MEMORY_KINDS, NOTE_UPDATE_MODES, SEARCH_MODES
from cairn.tools import Tool
from cairn.validate import MAX_QUESTION_CHARS, check_query


def _obj(properties: dict, required: tuple[str, ...] = ()) -> dict:
    return {"type": "object", "properties": properties, "required": list(required),
            "additionalProperties": False}


_STR = {"type": "string", "minLength": 1}
_QUESTION = {"type": "string", "minLength": 1, "maxLength": MAX_QUESTION_CHARS}  # validate.check_question's rule
QUERY = _QUESTION  # a search or recall query: validate.check_query's limit, as REST's `q`


def _search(app, a: dict):
    check_query(a["query"])  # control characters, as REST and the command line (the schema caps its length)
    res = app.search(a["query"], k=a.get("k"), mode=a.get("mode", "hybrid"), types=a.get("types"),
                     since=a.get("since"))
    return {"hits": [h.to_json() for h in res.hits], "warnings": res.warnings}


def _ask(app, a: dict):
    # A caller picks the answer path, never an address: "model" is the configured model (the
    # person's own choice, in config.toml), so a remote key holder cannot make Cairn connect
    # to a host of theirs through this tool.
    choice = a.get("llm", "none")
    return app.ask(a["question"], llm=None if choice == "model" else choice).to_json()


def _answer_about(app, a: dict):
    return app.answer_about(a["question"], subject=a.get("subject")).to_json()


def _get_note(app, a: dict):
    return app.note_show(a["note"])


def _list_notes(app, a: dict):
    return app.notes_list(type=a.get("type"), tag=a.get("tag"), limit=a.get("limit", 50),
                          offset=a.get("offset", 0))


def _note_json(action: str, note) -> dict:
    return {"action": action, "id": note.id, "path": note.path, "title": note.title}


def _create_note(app, a: dict):
    return _note_json("created", app.note_create(a["title"], a.get("body", ""), a.get("folder", ""),
                                                 a.get("tags")))


def _update_note(app, a: dict):
    return _note_json("updated", app.note_update(a["note"], a["body"], a.get("mode", "overwrite"),
                                                 expected_hash=a.get("expected_hash")))


def _rename_note(app, a: dict):
    return _note_json("renamed", app.note_rename(a["note"], a["title"]))


def _delete_note(app, a: dict):
    return app.note_delete(a["note"])


def _note_history(app, a: dict):
    return app.note_history(a["note"]).to_json()


def _undo(app, a: dict):
    return app.undo().to_json()


def _ingest_url(app, a: dict):
    # A model drives this tool: never a private or loopback address, whatever [fetch] allow_private.
    return app.ingest([a["url"]], public_only=True).to_json()


def _ingest_text(app, a: dict):
    return _note_json("created", app.ingest_text(a["text"], a.get("title"), tags=a.get("tags")))


def _remember(app, a: dict):
    if a.get("replaces"):  # a correction: the statement supersedes that memory
        return app.memory_correct(a["replaces"], a["text"]).to_json()
    return app.remember(a["text"], kind=a.get("kind"), scope=a.get("scope", "global")).to_json()


def _recall(app, a: dict):
    check_query(a["query"])
    return [h.to_json() for h in app.recall(a["query"], k=a.get("k", 10), scope=a.get("scope"))]


def _forget(app, a: dict):
    return app.forget(a["memory_id"]).to_json()


def _core(app, a: dict):
    if "text" in a:
        if not a.get("name"):
            from cairn.errors import InvalidInput
            raise InvalidInput("core: give the block's name with its text")
        app.core_set(a["name"], a["text"])
    return app.core(scope=a.get("scope")).to_json()


def _remind(app, a: dict):
    from cairn.schedule.scheduler import reminder_json
    with app.scheduler() as sch:
        return reminder_json(sch.remind(a["text"], at=a.get("at"), every=a.get("every"), tz=a.get("tz")))


def _remind_calendar(app, a: dict):
    from cairn.errors import InvalidInput
    from cairn.tools.files import allowed_folders, confine
    if a.get("path"):
        paths = [confine(app, a["path"])]
    else:  # the calendars in the folders the person let the assistant read
        vault = allowed_folders(app)[0]
        paths = sorted({p for f in allowed_folders(app)[1:] if f.is_dir() and f != vault
                        for p in f.rglob("*.ics") if p.is_file() and not p.is_symlink()})
        if not paths:
            raise InvalidInput("no calendar to read: give the path of an .ics file, or add the folder "
                               "holding your calendar exports to [assistant] files")
    total: dict = {"added": 0, "updated": 0, "unchanged": 0, "past": 0, "skipped": [], "calendars": []}
    for p in paths:
        r = app.calendar_reminders(p, before=a.get("before"), horizon=a.get("horizon")).to_json()
        for k in ("added", "updated", "unchanged", "past"):
            total[k] += r[k]
        total["skipped"] += r["skipped"]
        total["calendars"].append(str(p))
    return total


def _reminders(app, a: dict):
    from cairn.schedule.scheduler import reminder_json
    states = None if a.get("all") else ("scheduled", "delivered", "failed", "dead")
    with app.scheduler() as sch:
        return [reminder_json(r) for r in sch.list(states, kind="reminder")]


def _reminder_cancel(app, a: dict):
    from cairn.schedule.scheduler import reminder_json
    with app.scheduler() as sch:
        return reminder_json(sch.cancel(a["id"]))


def _reminder_snooze(app, a: dict):
    from cairn.schedule.scheduler import reminder_json
    with app.scheduler() as sch:
        if a.get("every"):  # a repeating reminder's every time moved ("move the bowls reminder to fridays")
            return reminder_json(sch.reschedule(a["id"], a["every"]))
        return reminder_json(sch.snooze(a["id"], a.get("until") or "in 10 minutes"))


def _capture(app, a: dict):
    return _note_json("created", app.capture(a["kind"], a["url"], a.get("text", ""), a.get("title", ""),
                                             a.get("comment", "")))


TOOLS: tuple[Tool, ...] = (
    Tool("search", "Search the person's notes, files and chats by keyword and meaning. Returns ranked "
         "hits with note ids, titles, paths and snippets.",
         _obj({"query": QUERY, "k": {"type": "integer", "minimum": 1, "maximum": 100},
               "mode": {"enum": list(SEARCH_MODES)}, "types": {"type": "array", "items": {"type": "string"}},
               "since": {"type": "string"}}, ("query",)), _search),
    Tool("ask", "Answer a question from the person's notes with numbered citations checked against "
         "the cited text; says so when the notes do not hold the answer.",
         _obj({"question": _QUESTION, "llm": {"enum": ["none", "embedded", "model"]}}, ("question",)), _ask),
    Tool("answer_about", "Answer a question about a person, thing or date from everything Cairn holds "
         "together: memories (what the person told you), notes (cited), entities, reminders and earlier "
         "conversations; says where the answer came from. Use it for 'who is X', 'what do you know about X', "
         "'when is ...' questions.",
         _obj({"question": _QUESTION, "subject": {"type": "string"}}, ("question",)), _answer_about),
    Tool("get_note", "Read one note (by id, title, alias or vault path): metadata and body.",
         _obj({"note": _STR}, ("note",)), _get_note),
    Tool("list_notes", "List notes, optionally of one type or tag, a page at a time.",
         _obj({"type": {"type": "string"}, "tag": {"type": "string"},
               "limit": {"type": "integer", "minimum": 1, "maximum": 1000},
               "offset": {"type": "integer", "minimum": 0}}), _list_notes),
    Tool("create_note", "Create a new markdown note in the vault.",
         _obj({"title": _STR, "body": {"type": "string"}, "folder": {"type": "string"},
               "tags": {"type": "array", "items": {"type": "string"}}}, ("title",)),
         _create_note, risk="medium", read_only=False),
    Tool("update_note", "Overwrite or append to a note's body. expected_hash: the file_hash get_note gave; "
         "when the note's file changed since, nothing is written and the error is a conflict.",
         _obj({"note": _STR, "body": {"type": "string"}, "mode": {"enum": list(NOTE_UPDATE_MODES)},
               "expected_hash": {"type": "string", "pattern": "^[0-9a-f]{64}$"}},
              ("note", "body")), _update_note, risk="medium", read_only=False),
    Tool("rename_note", "Give a note a new title (its file and body stay).",
         _obj({"note": _STR, "title": _STR}, ("note", "title")), _rename_note, risk="medium", read_only=False),
    Tool("delete_note", "Delete a note (moved to the vault's .trash; its index rows removed).",
         _obj({"note": _STR}, ("note",)), _delete_note, risk="high", read_only=False, destructive=True),
    Tool("note_history", "The kept versions of a note, newest first (version, at, by, action).",
         _obj({"note": _STR}, ("note",)), _note_history),
    Tool("undo", "Undo the assistant's last change to a note that is not undone yet (an edit gets its "
         "exact previous text back, a created note goes to the trash, a deleted note comes back).",
         _obj({}), _undo, risk="medium", read_only=False),
    Tool("ingest_url", "Fetch a web page and store it as a note (refuses private and loopback addresses).",
         _obj({"url": {"type": "string", "pattern": "^https?://"}}, ("url",)),
         _ingest_url, risk="medium", read_only=False),
    Tool("ingest_text", "Store raw text or markdown as a new note.",
         _obj({"text": _STR, "title": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}}},
              ("text",)), _ingest_text, risk="medium", read_only=False),
    Tool("remember", "Remember a statement about the person: adds, reinforces or supersedes a memory "
         "(replaces: the id of a memory the statement corrects).",
         _obj({"text": _STR, "kind": {"enum": list(MEMORY_KINDS)}, "scope": {"type": "string"},
               "replaces": {"type": "string"}}, ("text",)),
         _remember, risk="medium", read_only=False),
    Tool("recall", "Recall memories about the person, ranked, with score components.",
         _obj({"query": QUERY, "k": {"type": "integer", "minimum": 1, "maximum": 100},
               "scope": {"type": "string"}}, ("query",)), _recall),
    Tool("forget", "Forget a memory by id (a tombstone: kept in history, never recalled).",
         _obj({"memory_id": _STR}, ("memory_id",)), _forget, risk="high", read_only=False, destructive=True),
    Tool("core", "Show the core memory blocks and top memories; with name and text, set a block first.",
         _obj({"name": {"type": "string"}, "text": {"type": "string"}, "scope": {"type": "string"}}),
         _core, risk="low", read_only=False),
    Tool("remind", "Create a reminder for the person: once (at, e.g. 'tomorrow at 9', 'in 2 hours', "
         "'next Friday') or repeating (every, e.g. 'every weekday at 9am', a cron expression).",
         {"type": "object", "properties": {"text": _STR, "at": {"type": "string"}, "every": {"type": "string"},
                                           "tz": {"type": "string"}},
          "required": ["text"], "additionalProperties": False},
         _remind, risk="medium", read_only=False),
    Tool("capture", "Save a highlight (selected text), a bookmark or a quick note from a web page, with "
         "the page's address and title.",
         _obj({"kind": {"enum": ["highlight", "bookmark", "note"]}, "url": {"type": "string", "pattern": "^https?://"},
               "text": {"type": "string"}, "title": {"type": "string"}, "comment": {"type": "string"}},
              ("kind", "url")), _capture, risk="medium", read_only=False),
    Tool("remind_calendar", "Remind the person of their upcoming calendar events: one reminder per "
         "occurrence (repeating events expanded) starting within horizon (default '30d'), due before "
         "it (default '30m'); running it again adds nothing. path: an .ics file (default: the .ics "
         "files in the folders of [assistant] files).",
         _obj({"path": {"type": "string"}, "before": {"type": "string"}, "horizon": {"type": "string"}}),
         _remind_calendar, risk="medium", read_only=False),
    Tool("reminders", "List the person's reminders with their next due time and state.",
         _obj({"all": {"type": "boolean"}}), _reminders),
    Tool("reminder_cancel", "Cancel one of the person's reminders by id (no further runs; kept as cancelled).",
         _obj({"id": _STR}, ("id",)), _reminder_cancel, risk="medium", read_only=False),
    Tool("reminder_snooze", "Deliver a reminder again later: until = one-off words such as 'in 1 hour' or "
         "'tomorrow at 9'; or, for a repeating reminder, every = its new repeating time, e.g. 'every friday at "
         "1pm' (all its later times move).",
         _obj({"id": _STR, "until": {"type": "string"}, "every": {"type": "string"}}, ("id",)), _reminder_snooze,
         risk="medium", read_only=False),
)


@hookimpl
def register_tools(register):
    for tool in TOOLS:
        register(tool)
