"""Input rules every door shares (CLI, REST, MCP, assistant): the service applies them, and
an adapter may call the same function early (before it opens the index) to refuse bad input
sooner. Each raises `cairn.errors.InvalidInput` with a message naming the problem.

Only `cairn.errors` is imported when this module loads (a rule imports what it needs when it
runs), so adapters can use these without loading the service.
"""

from __future__ import annotations

from cairn.controls import check_no_controls  # noqa: F401 (a rule of the person's input, kept below the layers that store it)

from cairn.errors import InvalidInput


def check_since(since: str | None, name: str = "since") -> str | None:
    """`since` as given when it is an ISO date or date-time, with or without an offset
    (parse.markdown.to_iso reads it; search compares it as an instant), None for None/empty.
    `name` is how the caller's interface spells the parameter ("--since" on the command
    line). Raises InvalidInput otherwise."""
    if not since:
        return None
    from cairn.parse.markdown import to_iso
    try:
        to_iso(since)
    except ValueError:
        raise InvalidInput(f"{name} {since!r} is not an ISO date or date-time "
                           "(2024-06-01, 2024-06-01T09:00+02:00)", field=name) from None
    return since


# The longest question (and search query) any door accepts, in characters: a question is a
# sentence or a few, and a longer text is a note to keep (`remember`, `note create`), not one
# to ask. REST's schemas, MCP's tool schemas and the command line all read this number.
MAX_QUESTION_CHARS = 4000


def check_question(question: str) -> str:
    """The question itself; raises InvalidInput when it is empty or only whitespace, longer
    than MAX_QUESTION_CHARS characters, or holds control characters other than tab and line
    breaks (controls.check_no_controls) — the same rule on every door: CLI, REST, MCP, the
    assistant, Telegram."""
    if not isinstance(question, str) or not question.strip():
        raise InvalidInput("the question is empty")
    if len(question) > MAX_QUESTION_CHARS:
        raise InvalidInput(f"the question is {len(question):,} characters long; the limit is "
                           f"{MAX_QUESTION_CHARS:,} (to keep a long text, use `cairn remember` or "
                           "`cairn note create`)", field="question")
    check_no_controls(question, "the question", lines=True)  # an ESC sequence was read as a name ("2J")
    return question


def check_query(query: str) -> str:
    """A search query itself; raises InvalidInput when it is empty or only whitespace (the
    command line's rule, as `check_question` is ask's: an empty search has nothing to find),
    or longer than MAX_QUESTION_CHARS (REST's limit on `q`), or holds control characters (as
    `check_question`)."""
    if not isinstance(query, str) or not query.strip():
        raise InvalidInput("the query is empty")
    if len(query) > MAX_QUESTION_CHARS:
        raise InvalidInput(f"the query is {len(query):,} characters long; the limit is "
                           f"{MAX_QUESTION_CHARS:,}", field="query")
    check_no_controls(query, "the query", lines=True)
    return query


def check_given(value, what: str):
    """`value` as given; raises InvalidInput("<what> is empty") when it was given (not None)
    as an empty or blank string: `backup --to ""`, `export --tag ""`, `remind --tz ""` name
    nothing, and must not quietly mean "the current folder", "every note", "the default zone"."""
    if isinstance(value, str) and not value.strip():
        raise InvalidInput(f"{what} is empty")
    return value


def clean_id(value: str) -> str:
    """An id as typed or pasted, without surrounding whitespace."""
    return value.strip() if isinstance(value, str) else value
