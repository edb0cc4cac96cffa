"""One error hierarchy for every door (CLI, REST, MCP, assistant, Telegram).

`CairnError` is the root. Each category carries the CLI exit code and the HTTP status an
adapter maps it to, once, at its edge; anything that is not a `CairnError` (or an OSError
about a file the person named) is a bug and is shown with a traceback. Every exception class
of Cairn is rooted here (tests/unit/test_errors.py), each also still an instance of what it
was before (NoteNotFound a ValueError, LLMError a RuntimeError...), so older callers that
catch those keep working. Modeled on httpx's `_exceptions.py`: one root, categories, leaves.

    category         exit  HTTP   meaning
    InvalidInput       1   400    the request names something malformed (bad id, bad JSON...)
    NotFound           1   404    the thing named does not exist
    Conflict           1   409    the request collides with the current state (edited elsewhere)
    Unauthorized       1   401    no or a wrong credential
    Forbidden          1   403    the credential lacks the scope
    TooLarge           1   413    an upload or argument is over its limit
    RateLimited        1   429    too many requests; `retry_after` seconds
    Unavailable        1   503    a dependency (model, index, plugin) cannot serve now
    InsufficientStorage 1  507    the disk is full (ENOSPC/EDQUOT, SQLite "disk is full")
"""

from __future__ import annotations


class CairnError(Exception):
    """Root of Cairn's errors. `message` is one line written for a person."""

    exit_code: int = 1
    http_status: int = 500
    category: str = "error"

    def __init__(self, message: str = "", **details) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def to_json(self) -> dict:
        """{"error": category, "message": str, **details} — the body every adapter sends."""
        return {"error": self.category, "message": self.message, **self.details}


class InvalidInput(CairnError, ValueError):
    """Malformed input (exit 1, HTTP 400). Also a ValueError, so older callers keep working."""

    http_status = 400
    category = "invalid_input"


class NotFound(CairnError, ValueError):
    """The named thing does not exist (exit 1, HTTP 404)."""

    http_status = 404
    category = "not_found"


class Conflict(CairnError, ValueError):
    """The request collides with the current state (exit 1, HTTP 409)."""

    http_status = 409
    category = "conflict"


class Unauthorized(CairnError):
    """Missing, wrong or revoked credential (exit 1, HTTP 401)."""

    http_status = 401
    category = "unauthorized"


class Forbidden(CairnError):
    """The credential's scope does not allow this (exit 1, HTTP 403)."""

    http_status = 403
    category = "forbidden"


class TooLarge(CairnError, ValueError):
    """Over a size limit (exit 1, HTTP 413)."""

    http_status = 413
    category = "too_large"


class RateLimited(CairnError):
    """Too many requests (exit 1, HTTP 429); `retry_after` in seconds."""

    http_status = 429
    category = "rate_limited"

    def __init__(self, message: str = "", retry_after: float = 1.0, **details) -> None:
        super().__init__(message, retry_after=retry_after, **details)
        self.retry_after = retry_after


class Unavailable(CairnError, RuntimeError):
    """A dependency cannot serve now (exit 1, HTTP 503)."""

    http_status = 503
    category = "unavailable"


class InsufficientStorage(CairnError, OSError):
    """The disk holding Cairn's files is full (exit 1, HTTP 507 Insufficient Storage, RFC
    4918 §11.5). Nothing of the operation was stored. Also an OSError (errno ENOSPC)."""

    http_status = 507
    category = "insufficient_storage"

    def __init__(self, message: str = "", **details) -> None:
        CairnError.__init__(self, message, **details)
        self.errno = 28


FULL_MESSAGE = ("the disk holding Cairn's files is full (no space left on device): nothing of this "
                "change was stored; free some space and try again (reading keeps working)")


def storage_full(exc: BaseException) -> bool:
    """True when `exc` says the disk is full: an OSError with errno ENOSPC (28) or EDQUOT
    (122, quota), or SQLite's SQLITE_FULL ("database or disk is full")."""
    import errno
    if isinstance(exc, InsufficientStorage):
        return True
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", 122)):
        return True
    import sqlite3
    return isinstance(exc, sqlite3.Error) and ("disk is full" in str(exc)
                                               or getattr(exc, "sqlite_errorcode", None) == 13)


def http_status_of(exc: BaseException) -> int:
    """The HTTP status for any exception an operation raised: a CairnError's own, 400 for the
    legacy user errors (ValueError), 404 for a missing file, 500 (a bug) otherwise."""
    if isinstance(exc, CairnError):
        return exc.http_status
    if storage_full(exc):
        return 507
    if isinstance(exc, FileNotFoundError):
        return 404
    if isinstance(exc, ValueError):
        return 400
    return 500


def is_user_error(exc: BaseException) -> bool:
    """True when `exc` is a person's mistake or an unavailable dependency (print one line),
    False for a bug (show the traceback)."""
    return isinstance(exc, (CairnError, ValueError, OSError))


def user_message(exc: BaseException) -> str:
    """The one-line message every door shows for `exc` (the CLI prints it after "error: "):
    a CairnError's `message`, an OSError as "PATH: reason" (no errno), else `str(exc)`.
    SQLite busy/read-only errors get their wording from `Cairn.database_error_message`."""
    if isinstance(exc, CairnError):
        return exc.message or str(exc)
    if storage_full(exc):
        return FULL_MESSAGE
    if isinstance(exc, OSError) and exc.strerror:
        where = exc.filename if exc.filename is not None else ""
        return f"{where}: {exc.strerror.lower()}" if where else exc.strerror.lower()
    return str(exc)


def category_of(exc: BaseException) -> str:
    """The error category for any exception: a CairnError's own; "not_found" for a missing
    file; "invalid_input" for the legacy ValueError user errors; "unavailable" for other
    user-facing runtime errors; "internal" for a bug."""
    if isinstance(exc, CairnError):
        return exc.category
    if storage_full(exc):
        return "insufficient_storage"
    if isinstance(exc, FileNotFoundError):
        return "not_found"
    if isinstance(exc, ValueError):
        return "invalid_input"
    if isinstance(exc, OSError):
        return "unavailable"
    return "internal"
