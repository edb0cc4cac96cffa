"""A turn's mentions (`turn_mentions`, logged for nlu/antecedent.pick) and the body and cast (its
people, with the genders it gives them) of the note a turn answered from (`note_cast`).

Kept per process by the note's indexed body hash (the notes table's `body_hash`, looked up
without reading the file): a conversation over one note reads its file and finds its people once,
not every turn; a changed note is indexed with another hash and read anew. Bounded (MAX_NOTE_CASTS,
least recently used dropped) and guarded by a lock (the server answers turns on threads).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from cairn.assistant.nlu import antecedent as AN
from cairn.assistant.nlu import people as PE

# Switch off: CAST_BY_HASH (every turn reads the note and finds its people, as before).
CAST_BY_HASH = True
MAX_NOTE_CASTS = 64
NOTE_CASTS: "OrderedDict[str, tuple[str, list[dict]]]" = OrderedDict()
_LOCK = threading.Lock()


def cast_of(body: str) -> list[dict]:
    """The people of a note body (nlu/people.py, line by line: a name never spans lines) with the
    gender the body gives each (nlu/antecedent.cast)."""
    return AN.cast([p for line in body.splitlines() for p in PE.people(line)], body)


def note_cast(app, title: str | None) -> tuple[str, list[dict]]:
    """(body, cast) of the note titled `title` in `app` (a cairn.service.Cairn); ("", []) for no
    title, or a note gone or unreadable. From NOTE_CASTS when its indexed body hash was seen."""
    if not title:
        return "", []
    digest = None
    if CAST_BY_HASH:
        try:
            from cairn.links import find_note
            digest = find_note(app.conn, title).body_hash
        except Exception:  # noqa: BLE001 - ambiguous or not indexed: read as before, nothing kept
            digest = None
        with _LOCK:
            if digest and digest in NOTE_CASTS:
                NOTE_CASTS.move_to_end(digest)
                return NOTE_CASTS[digest]
    try:
        body = app.note_show(title)["body"] or ""
    except Exception:  # noqa: BLE001 - a note gone or unreadable: no cast, the mentions stand
        return "", []
    got = body, cast_of(body)
    if digest:
        with _LOCK:
            NOTE_CASTS[digest] = got
            while len(NOTE_CASTS) > MAX_NOTE_CASTS:
                NOTE_CASTS.popitem(last=False)
    return got


def turn_mentions(app, u, reply: str, people: list[str], who: list[str], log: dict) -> tuple[list[dict], list[dict]]:
    """(the turn's mentions, most salient first; the cast of the note it answered from) for
    nlu/antecedent.pick: a relative a kin phrase named (log["kin"]: [name, gender]), the person a
    who-question's answer names, the people the message names (the last first), the turn's subject;
    each with the gender the message, the reply or the note give it (a subject a she/he of the
    message stood for has that pronoun's gender). `u`: the turn's nlu Understanding."""
    from cairn.assistant.nlu.state import PERSON_PRONOUN
    body, cast = note_cast(app, log.get("note"))
    said = f"{u.resolved}\n{reply}"
    out = [AN.mention(log["kin"][0], "person", log["kin"][1])] if log.get("kin") else []  # "her brother" = Ken
    out += [AN.mention(p, "person", AN.gender_in(p, said) or AN.gender_in(p, body)) for p in who + people[::-1]]
    subj = log.get("subject")
    if subj and not any(m["name"] == subj for m in out):
        p = PERSON_PRONOUN.search(u.text) if u.subject == subj else None
        gender = (AN.pronoun_gender(p.group(0)) if p else None) or AN.gender_in(subj, u.resolved) \
            or AN.gender_in(subj, body)
        kind = "person" if subj.casefold() in {m["name"].casefold() for m in cast + out} else "thing"
        out.append(AN.mention(subj, kind, gender))
    return out, cast
