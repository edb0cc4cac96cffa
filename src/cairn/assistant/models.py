"""The assistant's model client: one `complete()` for every backend, with tool calls.

Spec forms (config `[assistant] model`, `cairn chat --model`, `/model`):

- "embedded"                     SmolLM2-135M in-process (cannot call tools: the understanding layer)
- "embedded:NAME"                a packaged GGUF assembled by `make assistant-model`
                                 (NAME from `cairn.assistant.packaged.MODELS`, e.g.
                                 "qwen2.5-coder-0.5b"): tools by JSON-schema constrained output
- "openai:BASE_URL:MODEL"        any OpenAI-compatible server (Ollama, llama.cpp, vLLM, hosted):
                                 native `tools` calling
- "anthropic:MODEL" or "anthropic:BASE_URL:MODEL"   Anthropic's Messages API over HTTP
                                 (key from $CAIRN_ANTHROPIC_API_KEY or $ANTHROPIC_API_KEY)
- "none"                         no model: the understanding layer (cairn.assistant.nlu) and canned replies

`tools_mode` says how tool calls are obtained: "native" (the OpenAI `tools` field / Anthropic
tool_use blocks), "json" (the model answers a bounded JSON schema {"tool", "arguments",
"reply"} — for small local models whose chat template's tool tags llama.cpp cannot parse),
or "none" (the model only writes text; `cairn.assistant.nlu` classifies the request and `understood` acts on it).

Errors: the `cairn.llm.errors` classes (LLMUnavailable, LLMTimeout, LLMContextOverflow,
LLMBadResponse), as `OpenAICompatClient.chat` raises them; ValueError for a bad spec.
"""

from __future__ import annotations

import json
import os
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable

from cairn.config import ASSISTANT_SPEC_FORMS
from cairn.llm.errors import LLMBadResponse, LLMTimeout, LLMUnavailable

ANTHROPIC_KEY_ENV = ("CAIRN_ANTHROPIC_API_KEY", "ANTHROPIC_API_KEY")
ANTHROPIC_URL = "https://api.anthropic.com"
ANTHROPIC_VERSION = "2023-06-01"
SPEC_FORMS = ASSISTANT_SPEC_FORMS  # one list of the forms, shared with config.toml's check


@dataclass
class ToolCall:
    """One proposed call: `id` (the provider's, or made up), `name`, `arguments` (a dict;
    {"_raw": text} when the model's JSON did not parse)."""

    id: str
    name: str
    arguments: dict

    def to_openai(self) -> dict:
        return {"id": self.id, "type": "function",
                "function": {"name": self.name, "arguments": json.dumps(self.arguments, ensure_ascii=False)}}


@dataclass
class Completion:
    """One model answer: text `content`, proposed `tool_calls`, `usage` = {"prompt_tokens",
    "completion_tokens"} (reported by the server, else estimated: `estimated` True),
    `finish_reason`."""

    content: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    usage: dict = field(default_factory=lambda: {"prompt_tokens": 0, "completion_tokens": 0})
    finish_reason: str = "stop"
    estimated: bool = False


def estimate_tokens(text: str) -> int:
    """A rough token count for budgeting when the server reports none: ~4 characters a
    token (OpenAI's rule of thumb for English), at least 1 for non-empty text."""
    return (len(text) + 3) // 4 if text else 0


def _parse_args(raw: Any) -> dict:
    if isinstance(raw, dict):
        return raw
    if not raw:
        return {}
    try:
        val = json.loads(raw)
    except (TypeError, ValueError):
        return {"_raw": str(raw)}
    return val if isinstance(val, dict) else {"_raw": str(raw)}


class ChatModel:
    """A chat model that may call tools. `name` is its spec; `tools_mode` "native", "json"
    or "none"; `local` True when it runs on this machine (its calls cost 0)."""

    name: str = "none"
    tools_mode: str = "none"
    local: bool = True
    model_id: str = "none"

    def complete(self, messages: list[dict], tools: list[dict] | None = None, *, max_tokens: int = 400,
                 on_delta: Callable[[str], None] | None = None) -> Completion:
        """Answer `messages` (OpenAI chat format, including "tool" results and assistant
        `tool_calls`), possibly proposing calls of `tools` (OpenAI tool schemas). `on_delta`
        receives text as it streams (when the backend streams; else the whole text once)."""
        raise NotImplementedError

    def close(self) -> None:
        pass


class NoModel(ChatModel):
    """No language model: replies come from the understanding layer's own sentences."""

    def complete(self, messages, tools=None, *, max_tokens=400, on_delta=None) -> Completion:
        text = ("I have no language model configured, so I can only do what Cairn's own understanding "
                "reads: remembering, reminders, notes and questions about them.")
        if on_delta:
            on_delta(text)
        return Completion(text, estimated=True)


class OpenAIModel(ChatModel):
    """An OpenAI-compatible endpoint through `cairn.llm.OpenAICompatClient` (its HTTP pool
    and error mapping). Streams with `stream: true` when `on_delta` is given."""

    def __init__(self, client, name: str, tools_mode: str = "native", local: bool | None = None):
        from cairn.llm.client import _is_loopback
        self.client = client
        self.name = name
        self.model_id = client.model
        self.tools_mode = tools_mode
        self.local = _is_loopback(client.base_url) if local is None else local

    def _body(self, messages, tools, max_tokens, stream) -> dict:
        messages = wire_messages(messages)
        body: dict[str, Any] = {"model": self.client.model, "messages": messages,
                                "max_tokens": int(max_tokens), "temperature": 0.0, "stream": stream}
        if tools and self.tools_mode == "native":
            body["tools"] = tools
            body["tool_choice"] = "auto"
        elif tools and self.tools_mode == "json":
            body["messages"] = [{"role": "system", "content": json_tools_prompt(tools)}, *messages]
            body["response_format"] = {"type": "json_schema",
                                       "json_schema": {"name": "step", "schema": json_step_schema(tools),
                                                       "strict": True}}
        if stream:
            body["stream_options"] = {"include_usage": True}
        if self.name.startswith("embedded"):
            body["frequency_penalty"] = 0.6  # small local models repeat themselves
        return body

    def complete(self, messages, tools=None, *, max_tokens=400, on_delta=None) -> Completion:
        import httpx
        url = f"{self.client.base_url}/chat/completions"
        stream = on_delta is not None and self.tools_mode != "json"
        body = self._body(messages, tools, max_tokens, stream)
        try:
            if stream:
                with self.client._http.stream("POST", url, json=body) as resp:
                    if resp.status_code >= 400:
                        resp.read()
                        self.client._raise_http_error(url, resp)
                    comp = _read_stream(resp, on_delta)
            else:
                resp = self.client._http.post(url, json=body)
                if resp.status_code >= 400:
                    self.client._raise_http_error(url, resp)
                comp = _read_body(url, resp)
        except httpx.TimeoutException as exc:
            raise LLMTimeout(f"the model at {url} did not answer within {self.client.timeout:g} s",
                             url=url, timeout=self.client.timeout) from exc
        except httpx.TransportError as exc:
            raise LLMUnavailable(f"cannot reach the model at {url}: {exc or type(exc).__name__}",
                                 url=url) from exc
        if self.tools_mode == "json" and tools:
            comp = _from_json_step(comp)
            if on_delta and comp.content:
                on_delta(comp.content)
        elif on_delta and not stream and comp.content:
            on_delta(comp.content)
        if not comp.usage.get("prompt_tokens") and not comp.usage.get("completion_tokens"):
            comp.usage = {"prompt_tokens": estimate_tokens(json.dumps(messages)),
                          "completion_tokens": estimate_tokens(comp.content)}
            comp.estimated = True
        return comp

    def close(self) -> None:
        if not self.name.startswith("embedded"):
            self.client.close()


def _read_body(url: str, resp) -> Completion:
    try:
        data = resp.json()
        choice = data["choices"][0]
        msg = choice.get("message") or {}
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise LLMBadResponse(f"the model at {url} sent an unexpected body: {resp.text[:300]}",
                             status=resp.status_code, excerpt=resp.text[:300]) from exc
    calls = [ToolCall(c.get("id") or _new_id(), (c.get("function") or {}).get("name", ""),
                      _parse_args((c.get("function") or {}).get("arguments")))
             for c in msg.get("tool_calls") or []]
    usage = data.get("usage") or {}
    return Completion(msg.get("content") or "", calls,
                      {"prompt_tokens": int(usage.get("prompt_tokens") or 0),
                       "completion_tokens": int(usage.get("completion_tokens") or 0)},
                      choice.get("finish_reason") or "stop")


def _read_stream(resp, on_delta) -> Completion:
    """Assemble a streamed (server-sent events) chat completion: text deltas go to
    `on_delta`; tool-call fragments are joined by index."""
    text: list[str] = []
    calls: dict[int, dict] = {}
    usage: dict = {}
    finish = "stop"
    for line in resp.iter_lines():
        if not line.startswith("data:"):
            continue
        payload = line[5:].strip()
        if payload == "[DONE]":
            break
        try:
            chunk = json.loads(payload)
        except ValueError:
            continue
        if chunk.get("usage"):
            usage = chunk["usage"]
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            if delta.get("content"):
                text.append(delta["content"])
                on_delta(delta["content"])
            for tc in delta.get("tool_calls") or []:
                slot = calls.setdefault(int(tc.get("index", 0)), {"id": None, "name": "", "args": ""})
                slot["id"] = tc.get("id") or slot["id"]
                fn = tc.get("function") or {}
                slot["name"] += fn.get("name") or ""
                slot["args"] += fn.get("arguments") or ""
            finish = choice.get("finish_reason") or finish
    return Completion("".join(text),
                      [ToolCall(c["id"] or _new_id(), c["name"], _parse_args(c["args"]))
                       for _, c in sorted(calls.items())],
                      {"prompt_tokens": int(usage.get("prompt_tokens") or 0),
                       "completion_tokens": int(usage.get("completion_tokens") or 0)}, finish)


def _new_id() -> str:
    return "call_" + uuid.uuid4().hex[:12]


def json_step_schema(tools: list[dict]) -> dict:
    """The bounded schema a "json"-mode model answers: {"tool": one tool name or "none",
    "arguments": object, "reply": text for the person (at most 600 characters)}."""
    names = [t["function"]["name"] for t in tools] + ["none"]
    return {"type": "object", "properties": {
        "tool": {"type": "string", "enum": names},
        "arguments": {"type": "object"},
        "reply": {"type": "string", "maxLength": 600}},
        "required": ["tool", "arguments", "reply"], "additionalProperties": False}


def json_tools_prompt(tools: list[dict]) -> str:
    """The tool list a "json"-mode model reads (it gets no `tools` field): one line per tool
    with its arguments, then the answer format with one example."""
    lines = []
    for t in tools:
        f = t["function"]
        props = f["parameters"].get("properties", {})
        req = set(f["parameters"].get("required", []))
        args = ", ".join(f"{k}{'' if k in req else '?'}" for k in props)
        lines.append(f"- {f['name']}({args}): {f['description'][:90]}")
    return ("Answer with JSON {\"tool\": NAME or \"none\", \"arguments\": {...}, \"reply\": text}. "
            "Call a tool only when the person's message asks for it; after a tool result, answer with "
            "tool \"none\" and a short reply. Tools:\n" + "\n".join(lines) +
            '\nExample: {"tool": "remember", "arguments": {"text": "my sister is Ana"}, "reply": "Noted."}')


def _from_json_step(comp: Completion) -> Completion:
    try:
        data = json.loads(comp.content)
    except ValueError:
        return comp  # plain text: treat as the reply
    if not isinstance(data, dict):
        return comp
    tool, args = data.get("tool"), data.get("arguments")
    reply = str(data.get("reply") or "")
    if isinstance(tool, str) and tool and tool != "none":
        return Completion(reply, [ToolCall(_new_id(), tool, args if isinstance(args, dict) else {})],
                          comp.usage, "tool_calls", comp.estimated)
    return Completion(reply, [], comp.usage, comp.finish_reason, comp.estimated)


class AnthropicModel(ChatModel):
    """Anthropic's Messages API (POST {base}/v1/messages) with tool_use blocks. OpenAI-style
    messages and tools are converted both ways; not streamed (the text arrives at once)."""

    tools_mode = "native"

    def __init__(self, model: str, base_url: str = ANTHROPIC_URL, api_key: str | None = None,
                 timeout: float = 120.0):
        import httpx
        from cairn.llm.client import _is_loopback
        self.model_id = model
        self.base_url = base_url.rstrip("/")
        self.name = f"anthropic:{model}" if self.base_url == ANTHROPIC_URL else f"anthropic:{self.base_url}:{model}"
        self.local = _is_loopback(self.base_url)
        headers = {"anthropic-version": ANTHROPIC_VERSION, "content-type": "application/json"}
        if api_key:
            headers["x-api-key"] = api_key
        self._http = httpx.Client(headers=headers, timeout=httpx.Timeout(timeout, connect=10.0),
                                  trust_env=not self.local)

    def complete(self, messages, tools=None, *, max_tokens=400, on_delta=None) -> Completion:
        import httpx
        system, conv = to_anthropic(messages)
        body: dict[str, Any] = {"model": self.model_id, "max_tokens": int(max_tokens), "messages": conv}
        if system:
            body["system"] = cached_system(messages, system)
        if tools:
            body["tools"] = [{"name": t["function"]["name"], "description": t["function"]["description"],
                              "input_schema": t["function"]["parameters"]} for t in tools]
        url = f"{self.base_url}/v1/messages"
        try:
            resp = self._http.post(url, json=body)
        except httpx.TimeoutException as exc:
            raise LLMTimeout(f"Anthropic at {url} did not answer in time", url=url) from exc
        except httpx.TransportError as exc:
            raise LLMUnavailable(f"cannot reach Anthropic at {url}: {exc}", url=url) from exc
        if resp.status_code >= 400:
            raise LLMBadResponse(f"Anthropic at {url} answered HTTP {resp.status_code}: {resp.text[:300]}",
                                 status=resp.status_code, excerpt=resp.text[:300])
        try:
            data = resp.json()
            blocks = data["content"]
        except (ValueError, KeyError, TypeError) as exc:
            raise LLMBadResponse(f"Anthropic at {url} sent an unexpected body: {resp.text[:300]}",
                                 excerpt=resp.text[:300]) from exc
        text = "".join(b.get("text", "") for b in blocks if b.get("type") == "text")
        calls = [ToolCall(b.get("id") or _new_id(), b.get("name", ""), b.get("input") or {})
                 for b in blocks if b.get("type") == "tool_use"]
        usage = data.get("usage") or {}
        if on_delta and text:
            on_delta(text)
        return Completion(text, calls, {"prompt_tokens": int(usage.get("input_tokens") or 0),
                                        "completion_tokens": int(usage.get("output_tokens") or 0)},
                          "tool_calls" if calls else (data.get("stop_reason") or "stop"))

    def close(self) -> None:
        self._http.close()


def wire_messages(messages: list[dict]) -> list[dict]:
    """`messages` without Cairn's private keys (those starting with "_", such as the stable
    prefix length the prompt compiler puts on the system message): what a server receives."""
    return [{k: v for k, v in m.items() if not k.startswith("_")} if any(k.startswith("_") for k in m) else m
            for m in messages]


def cached_system(messages: list[dict], system: str) -> str | list[dict]:
    """Anthropic's `system` for `messages` (prompt caching, EchOS E30): when the first system
    message carries its stable prefix length (cairn.context.compiler.PREFIX_KEY: the rules and
    core blocks, the same bytes every turn), two text blocks — that prefix marked
    `cache_control: {"type": "ephemeral"}` (the tools and this prefix are then cached), then
    the rest (working state, memories, notes, the clock). Otherwise the plain text `system`."""
    from cairn.context.compiler import PREFIX_KEY
    first = next((m for m in messages if m["role"] == "system"), None)
    cut = int(first.get(PREFIX_KEY) or 0) if first else 0
    if cut <= 0 or not system.startswith(first["content"][:cut]):
        return system
    head, rest = system[:cut], system[cut:].lstrip("\n")
    blocks = [{"type": "text", "text": head, "cache_control": {"type": "ephemeral"}}]
    return blocks + ([{"type": "text", "text": rest}] if rest else [])


def to_anthropic(messages: list[dict]) -> tuple[str, list[dict]]:
    """OpenAI chat messages -> (system text, Anthropic messages): assistant tool_calls become
    tool_use blocks, "tool" messages tool_result blocks in a user turn; consecutive turns of
    one role are merged (Anthropic requires alternation)."""
    system = "\n\n".join(m["content"] for m in messages if m["role"] == "system" and m.get("content"))
    out: list[dict] = []

    def push(role: str, blocks: list[dict]) -> None:
        if out and out[-1]["role"] == role:
            out[-1]["content"].extend(blocks)
        else:
            out.append({"role": role, "content": list(blocks)})

    for m in messages:
        role = m["role"]
        if role == "system":
            continue
        if role == "tool":
            push("user", [{"type": "tool_result", "tool_use_id": m.get("tool_call_id", ""),
                           "content": m.get("content") or ""}])
        elif role == "assistant":
            blocks = [{"type": "text", "text": m["content"]}] if m.get("content") else []
            for c in m.get("tool_calls") or []:
                blocks.append({"type": "tool_use", "id": c["id"], "name": c["function"]["name"],
                               "input": _parse_args(c["function"]["arguments"])})
            push("assistant", blocks or [{"type": "text", "text": "…"}])
        else:
            push("user", [{"type": "text", "text": m.get("content") or ""}])
    return system, out


def get_model(spec: str, tools: str = "auto") -> ChatModel:
    """The ChatModel for `spec` (see module docstring). `tools` forces the tools mode
    ("native", "json", "none") or leaves it to the backend ("auto"). Raises ValueError for a
    malformed spec, LLMUnavailable when a local model is not installed."""
    from cairn.llm import get_llm, parse_openai_spec
    s = (spec or "").strip()
    low = s.lower()
    if low == "none":
        return NoModel()
    if low == "embedded":
        llm = get_llm("embedded")
        mode = "none" if tools == "auto" else tools
        return OpenAIModel(_LazyEmbeddedClient(llm), "embedded", mode, local=True)
    if low.startswith("embedded:"):
        from cairn.assistant.packaged import embedded_model
        name = s.split(":", 1)[1]
        llm = embedded_model(name)
        mode = "json" if tools == "auto" else tools
        return OpenAIModel(_LazyEmbeddedClient(llm), f"embedded:{name}", mode, local=True)
    if low.startswith("openai:"):
        from cairn.llm import OpenAICompatClient
        from cairn.llm import API_KEY_ENV_VARS
        base, model = parse_openai_spec(s)
        key = next((os.environ[v] for v in API_KEY_ENV_VARS if os.environ.get(v)), None)
        client = OpenAICompatClient(base, model, api_key=key, timeout=300)
        return OpenAIModel(client, f"openai:{base}:{model}", "native" if tools == "auto" else tools)
    if low.startswith("anthropic:"):
        rest = s.split(":", 1)[1]
        key = next((os.environ[v] for v in ANTHROPIC_KEY_ENV if os.environ.get(v)), None)
        if rest.lower().startswith(("http://", "https://")):
            base, model = parse_openai_spec("openai:" + rest)
            return AnthropicModel(model, base, key)
        if not rest:
            raise ValueError(f"invalid model spec {spec!r}: expected {SPEC_FORMS}")
        return AnthropicModel(rest, ANTHROPIC_URL, key)
    raise ValueError(f"invalid model spec {spec!r}: expected {SPEC_FORMS}")


class _LazyEmbeddedClient:
    """Stands in for an embedded model's OpenAICompatClient and starts the llama.cpp server
    only on the first request (so `cairn chat --approve` never loads a model)."""

    model = "embedded"

    def __init__(self, llm):
        self._llm = llm
        self.timeout = getattr(llm, "timeout", 120.0)

    @property
    def base_url(self) -> str:
        return self._llm.client().base_url

    @property
    def _http(self):
        return self._llm.client()._http

    def _raise_http_error(self, url, resp):
        return self._llm.client()._raise_http_error(url, resp)

    def close(self) -> None:
        pass
