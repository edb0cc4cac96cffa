"""Errors raised by Cairn's LLM layer.

Everything is an `LLMError` (a `RuntimeError`), so a caller that can live without a model
(e.g. answer with search hits only) catches `LLMError` and degrades. The subclasses tell the
caller *what* went wrong so it can choose: retry later (`LLMTimeout`), shrink the prompt
(`LLMContextOverflow`), tell the user to fix the setup (`LLMUnavailable`), or report a broken
endpoint (`LLMBadResponse`). Nothing in this package retries on its own.

`str(exc)` is always a complete, user-facing sentence.
"""

from __future__ import annotations
from cairn.errors import Unavailable


class LLMError(Unavailable):
    """Base class: the model could not produce an answer; `str(exc)` says why."""


class LLMUnavailable(LLMError):
    """No model to talk to: the endpoint refused/failed the connection, the embedded model
    package or file is missing, or `xllamacpp` is not installed / the server failed to start.

    `url` is the endpoint that could not be reached (None when the problem is local).
    """

    def __init__(self, message: str, *, url: str | None = None) -> None:
        super().__init__(message)
        self.url = url


class LLMTimeout(LLMError):
    """The endpoint accepted the request but did not answer within `timeout` seconds."""

    def __init__(self, message: str, *, url: str | None = None, timeout: float | None = None) -> None:
        super().__init__(message)
        self.url = url
        self.timeout = timeout


class LLMContextOverflow(LLMError):
    """The prompt (messages) is longer than the model's context window.

    `n_prompt_tokens` / `n_ctx` are filled in when the server reports them (llama.cpp does),
    else None. The fix is a shorter prompt (fewer / shorter context passages).
    """

    def __init__(
        self, message: str, *, n_prompt_tokens: int | None = None, n_ctx: int | None = None
    ) -> None:
        super().__init__(message)
        self.n_prompt_tokens = n_prompt_tokens
        self.n_ctx = n_ctx


class LLMBadResponse(LLMError):
    """The endpoint answered, but not usefully: an HTTP 4xx/5xx status, a body that is not the
    expected JSON, or (for `json_schema` requests) content that is not valid JSON.

    `status` is the HTTP status (None if not applicable), `excerpt` the first ~300 characters
    of the offending body/content.
    """

    def __init__(self, message: str, *, status: int | None = None, excerpt: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.excerpt = excerpt
