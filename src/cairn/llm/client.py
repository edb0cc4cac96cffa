"""A minimal client for OpenAI-compatible `/chat/completions` endpoints.

One code path serves every backend: the embedded SmolLM2 (llama.cpp's server running
in-process, see `embedded.py`), a local llama.cpp / Ollama / vLLM / LM Studio server, or a
hosted OpenAI-compatible API. Only non-streaming chat completions are used.

Errors are mapped to `cairn.llm.errors` (nothing here retries; callers decide):

- connection refused / DNS failure / connect timeout / connection dropped -> `LLMUnavailable`
- no answer within `timeout` seconds after connecting                    -> `LLMTimeout`
- prompt too long for the model (OpenAI `context_length_exceeded`, llama.cpp
  "exceeds the available context size", in any HTTP status)               -> `LLMContextOverflow`
- any other HTTP 4xx/5xx, a body that is not the expected JSON, or
  `json_schema` output that does not parse as JSON                       -> `LLMBadResponse`
"""

from __future__ import annotations

from cairn.errors import InvalidInput

import json
import math
import re
from typing import Any
from urllib.parse import urlsplit

import httpx

from .errors import LLMBadResponse, LLMContextOverflow, LLMTimeout, LLMUnavailable

# Connecting should be quick even when a completion is slow: cap the connect phase.
MAX_CONNECT_TIMEOUT = 10.0
EXCERPT_CHARS = 300

_OVERFLOW_CODES = {"context_length_exceeded", "exceed_context_size_error"}
_OVERFLOW_PATTERNS = re.compile(
    r"exceeds the available context size"  # llama.cpp server
    r"|maximum context length"  # OpenAI / vLLM: "This model's maximum context length is N tokens"
    r"|context length exceeded|context_length_exceeded"
    r"|prompt is too long",  # others (e.g. Anthropic-style proxies)
    re.IGNORECASE,
)


def _excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """`text` with whitespace runs collapsed, cut to `limit` characters (with an ellipsis)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _is_loopback(url: str) -> bool:
    host = (urlsplit(url).hostname or "").lower()
    return host in {"localhost", "::1"} or host.startswith("127.")


class OpenAICompatClient:
    """Chat with one model on an OpenAI-compatible server.

    base_url: the API root including the version prefix, e.g. "http://127.0.0.1:8080/v1" or
        "https://api.openai.com/v1"; requests go to f"{base_url}/chat/completions".
    model: the model name sent in every request ("gpt-4o-mini", "qwen2.5:0.5b", ...).
    api_key: sent as `Authorization: Bearer <key>` when given; never logged or shown in `name`.
    timeout: seconds to wait for the server; httpx semantics, i.e. applied to each phase
        (connect, write, and each read of the response) rather than as a total deadline.
        The connect phase is capped at 10 s so that a dead host fails fast.

    Proxy environment variables (HTTP_PROXY, ...) are honoured for remote hosts but ignored
    for loopback URLs. The client keeps a connection pool: call `close()` (or use it as a
    context manager) when done; it is safe to share between threads.
    """

    def __init__(
        self, base_url: str, model: str, api_key: str | None = None, timeout: float = 60
    ) -> None:
        base_url = base_url.strip().rstrip("/")
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise InvalidInput(
                f"base_url must be an http(s) URL like http://127.0.0.1:8080/v1, got {base_url!r}"
            )
        if not model:
            raise InvalidInput("model must be a non-empty model name")
        if timeout <= 0:
            raise InvalidInput(f"timeout must be > 0 seconds, got {timeout!r}")
        self.base_url = base_url
        self.model = model
        self.timeout = float(timeout)
        headers = {"Accept": "application/json"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self._http = httpx.Client(
            headers=headers,
            timeout=httpx.Timeout(self.timeout, connect=min(self.timeout, MAX_CONNECT_TIMEOUT)),
            trust_env=not _is_loopback(base_url),
        )

    @property
    def name(self) -> str:
        """"openai:BASE_URL:MODEL", the spec that recreates this client (minus the key)."""
        return f"openai:{self.base_url}:{self.model}"

    def __repr__(self) -> str:
        return f"OpenAICompatClient({self.base_url!r}, {self.model!r})"

    def close(self) -> None:
        """Close pooled connections. The client must not be used afterwards."""
        self._http.close()

    def __enter__(self) -> OpenAICompatClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def chat(
        self,
        messages: list[dict],
        *,
        max_tokens: int = 256,
        temperature: float = 0.0,
        json_schema: dict | None = None,
        stop: list[str] | None = None,
    ) -> str:
        """Send one chat completion request and return the assistant's text.

        messages: OpenAI chat messages, e.g. [{"role": "system", "content": "..."},
            {"role": "user", "content": "..."}]; passed through unchanged.
        max_tokens: upper bound on generated tokens (not characters); >= 1.
        temperature: sampling temperature; 0.0 = (near-)deterministic.
        json_schema: if given, a JSON Schema (dict) the reply must follow, sent as
            `response_format={"type": "json_schema", "json_schema": {"name": "out",
            "schema": json_schema, "strict": True}}`. Bound strings/arrays in the schema
            (maxLength/maxItems) or small models ramble until max_tokens. The returned text
            is checked to parse as JSON (not validated against the schema); parse it yourself.
        stop: up to 4 stop strings; generation ends before any of them.

        Returns the message content as a string ("" if the model produced nothing).

        Raises LLMUnavailable (cannot connect; message contains the URL), LLMTimeout,
        LLMContextOverflow (prompt longer than the model's context), LLMBadResponse (HTTP
        4xx/5xx other than context overflow, malformed body, or non-JSON content for a
        json_schema request; `.status`/`.excerpt` set). ValueError for bad arguments.
        """
        if not isinstance(messages, list) or not messages:
            raise InvalidInput("messages must be a non-empty list of {'role': ..., 'content': ...} dicts")
        if max_tokens < 1:
            raise InvalidInput(f"max_tokens must be >= 1, got {max_tokens!r}")
        body: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "max_tokens": int(max_tokens),
            "temperature": float(temperature),
            "stream": False,
        }
        if stop:
            body["stop"] = list(stop)
        if json_schema is not None:
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "out", "schema": json_schema, "strict": True},
            }
        url = f"{self.base_url}/chat/completions"
        resp = self._post(url, body)
        return self._parse_success(url, resp, want_json=json_schema is not None)

    def chat_stream(self, messages: list[dict], on_delta, *, max_tokens: int = 256, temperature: float = 0.0,
                    json_schema: dict | None = None) -> str:
        """`chat`, streamed: the request asks for `stream: true` (server-sent events) and
        `on_delta(text)` receives each piece of the reply as it arrives (a server that answers
        with a plain JSON completion instead gives it as one piece). Returns the whole
        text (checked to parse as JSON when `json_schema` is given). Same errors as `chat`."""
        if not isinstance(messages, list) or not messages:
            raise InvalidInput("messages must be a non-empty list of {'role': ..., 'content': ...} dicts")
        if max_tokens < 1:
            raise InvalidInput(f"max_tokens must be >= 1, got {max_tokens!r}")
        body: dict[str, Any] = {"model": self.model, "messages": messages, "max_tokens": int(max_tokens),
                                "temperature": float(temperature), "stream": True}
        if json_schema is not None:
            body["response_format"] = {"type": "json_schema",
                                       "json_schema": {"name": "out", "schema": json_schema, "strict": True}}
        url = f"{self.base_url}/chat/completions"
        parts: list[str] = []
        try:
            with self._http.stream("POST", url, json=body) as resp:
                if resp.status_code >= 400:
                    resp.read()
                    self._raise_http_error(url, resp)
                if "event-stream" not in resp.headers.get("content-type", ""):  # a server that does not stream
                    resp.read()
                    text = self._parse_success(url, resp, want_json=json_schema is not None)
                    if text:
                        on_delta(text)
                    return text
                for line in resp.iter_lines():
                    if not line.startswith("data:"):
                        continue
                    data = line[5:].strip()
                    if data == "[DONE]":
                        break
                    try:
                        piece = (json.loads(data).get("choices") or [{}])[0].get("delta", {}).get("content")
                    except (ValueError, AttributeError, IndexError) as exc:
                        raise LLMBadResponse(f"the LLM endpoint {url} streamed a malformed event: {data[:200]}",
                                             excerpt=_excerpt(data)) from exc
                    if piece:
                        parts.append(piece)
                        on_delta(piece)
        except httpx.TimeoutException as exc:
            raise LLMTimeout(f"the LLM endpoint {url} did not answer within {self.timeout:g} s",
                             url=url, timeout=self.timeout) from exc
        except httpx.TransportError as exc:
            raise LLMUnavailable(f"cannot connect to the LLM endpoint {url}: {exc or type(exc).__name__}",
                                 url=url) from exc
        text = "".join(parts)
        if json_schema is not None:
            try:
                json.loads(text)
            except ValueError:
                raise LLMBadResponse(f"the LLM endpoint {url} streamed a reply that is not JSON: {_excerpt(text)}",
                                     excerpt=_excerpt(text)) from None
        return text

    def next_token(self, messages: list[dict], *, top: int = 10) -> tuple[str, dict[str, float]]:
        """Generate one token (temperature 0) and return (its text, {token: probability} of
        the `top` likeliest first tokens). The probabilities are the server's `logprobs`
        (OpenAI's `top_logprobs`, which llama.cpp's server also returns) exponentiated; the
        dict is empty when the server sends none (some do not support them). Same errors as
        `chat`; InvalidInput for bad arguments (top outside 1..20)."""
        if not isinstance(messages, list) or not messages:
            raise InvalidInput("messages must be a non-empty list of {'role': ..., 'content': ...} dicts")
        if not 1 <= int(top) <= 20:
            raise InvalidInput(f"top must be between 1 and 20, got {top!r}")
        body = {"model": self.model, "messages": messages, "max_tokens": 1, "temperature": 0.0,
                "stream": False, "logprobs": True, "top_logprobs": int(top)}
        url = f"{self.base_url}/chat/completions"
        resp = self._post(url, body)
        text = self._parse_success(url, resp, want_json=False)
        probs: dict[str, float] = {}
        try:
            first = resp.json()["choices"][0]["logprobs"]["content"][0]["top_logprobs"]
            for item in first:
                token, lp = item["token"], float(item["logprob"])
                if isinstance(token, str) and lp <= 0.0:
                    probs[token] = probs.get(token, 0.0) + math.exp(lp)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            probs = {}  # no (or malformed) logprobs: the caller reads the text
        return text, probs

    def _post(self, url: str, body: dict) -> httpx.Response:
        """POST `body` to `url`; transport failures and HTTP errors mapped as `chat` documents."""
        try:
            resp = self._http.post(url, json=body)
        except httpx.ConnectTimeout as exc:
            raise LLMUnavailable(
                f"cannot connect to the LLM endpoint {url}: no connection within "
                f"{min(self.timeout, MAX_CONNECT_TIMEOUT):g} s ({exc}). Check that the server is "
                "running and the URL is right, or choose another LLM (--llm embedded / none).",
                url=url,
            ) from exc
        except httpx.TimeoutException as exc:
            raise LLMTimeout(
                f"the LLM endpoint {url} did not answer within {self.timeout:g} s "
                f"({type(exc).__name__}). Try again, ask for fewer tokens, or raise the timeout.",
                url=url,
                timeout=self.timeout,
            ) from exc
        except (httpx.RemoteProtocolError, httpx.DecodingError) as exc:
            raise LLMBadResponse(
                f"the LLM endpoint {url} sent a malformed HTTP response: {exc}",
                excerpt=_excerpt(str(exc)),
            ) from exc
        except httpx.TransportError as exc:  # ConnectError, ReadError, WriteError, ...
            raise LLMUnavailable(
                f"cannot connect to the LLM endpoint {url}: {exc or type(exc).__name__}. "
                "Check that the server is running and the URL is right, or choose another "
                "LLM (--llm embedded / none).",
                url=url,
            ) from exc

        if resp.status_code >= 400:
            self._raise_http_error(url, resp)
        return resp

    # -- response handling -------------------------------------------------------------------

    @staticmethod
    def _error_fields(resp: httpx.Response) -> tuple[str, str, dict]:
        """(message, code-or-type, error dict) from an OpenAI/llama.cpp style error body."""
        try:
            data = resp.json()
        except ValueError:
            return "", "", {}
        err = data.get("error") if isinstance(data, dict) else None
        if isinstance(err, str):
            return err, "", {}
        if not isinstance(err, dict):
            err = data if isinstance(data, dict) else {}
        message = str(err.get("message") or "")
        code = err.get("code")
        kind = code if isinstance(code, str) else str(err.get("type") or "")
        return message, kind, err

    def _raise_http_error(self, url: str, resp: httpx.Response) -> None:
        message, kind, err = self._error_fields(resp)
        status = resp.status_code
        if (
            kind in _OVERFLOW_CODES
            or str(err.get("type") or "") in _OVERFLOW_CODES
            or _OVERFLOW_PATTERNS.search(message or resp.text[:2000])
        ):
            n_prompt = err.get("n_prompt_tokens")
            n_ctx = err.get("n_ctx")
            detail = message or _excerpt(resp.text)
            raise LLMContextOverflow(
                f"the prompt is too long for the model {self.model!r} at {self.base_url}: {detail}. "
                "Shorten it (fewer or shorter context passages).",
                n_prompt_tokens=n_prompt if isinstance(n_prompt, int) else None,
                n_ctx=n_ctx if isinstance(n_ctx, int) else None,
            )
        excerpt = _excerpt(message or resp.text)
        hint = ""
        if status in (401, 403):
            hint = " Check the API key (CAIRN_OPENAI_API_KEY or OPENAI_API_KEY)."
        elif status == 404:
            hint = " Check the base URL (it usually ends in /v1) and the model name."
        raise LLMBadResponse(
            f"the LLM endpoint {url} returned HTTP {status}: {excerpt or '(empty body)'}.{hint}",
            status=status,
            excerpt=excerpt,
        )

    def _parse_success(self, url: str, resp: httpx.Response, *, want_json: bool) -> str:
        status = resp.status_code
        try:
            data = resp.json()
        except ValueError:
            excerpt = _excerpt(resp.text)
            raise LLMBadResponse(
                f"the LLM endpoint {url} returned HTTP {status} with a body that is not JSON: "
                f"{excerpt or '(empty body)'}",
                status=status,
                excerpt=excerpt,
            ) from None
        if isinstance(data, dict) and "choices" not in data and "error" in data:
            self._raise_http_error(url, resp)  # some proxies send errors with status 200
        try:
            choice = data["choices"][0]
            message = choice["message"]
            content = message.get("content")
        except (KeyError, IndexError, TypeError, AttributeError):
            excerpt = _excerpt(resp.text)
            raise LLMBadResponse(
                f"the LLM endpoint {url} returned JSON without choices[0].message: {excerpt}",
                status=status,
                excerpt=excerpt,
            ) from None
        if content is None:
            content = ""
        elif isinstance(content, list):  # content parts: [{"type": "text", "text": "..."}]
            content = "".join(
                p.get("text", "") for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)
            )
        elif not isinstance(content, str):
            excerpt = _excerpt(resp.text)
            raise LLMBadResponse(
                f"the LLM endpoint {url} returned non-text message content: {excerpt}",
                status=status,
                excerpt=excerpt,
            )
        if want_json:
            try:
                json.loads(content)
            except ValueError:
                finish = choice.get("finish_reason") if isinstance(choice, dict) else None
                hint = (
                    " The reply was cut off at max_tokens: raise max_tokens or bound the schema "
                    "(maxLength, maxItems)."
                    if finish == "length"
                    else ""
                )
                excerpt = _excerpt(content)
                raise LLMBadResponse(
                    f"the model {self.model!r} was asked for JSON matching a schema but replied "
                    f"with text that does not parse as JSON (finish_reason={finish!r}): "
                    f"{excerpt or '(empty)'}.{hint}",
                    status=status,
                    excerpt=excerpt,
                ) from None
        return content
