"""The built-in LLM backends, registered through the `register_llm_backends` hook like any
plugin's. Each factory imports its backend on call, so registering loads neither httpx nor
the embedded model."""

from __future__ import annotations

import os

from cairn.hookspecs import hookimpl


def none_backend(spec: str):
    """"none": no model (features degrade to search only)."""
    return None


def embedded_backend(spec: str):
    """"embedded": the process-wide EmbeddedLLM (SmolLM2 in-process; LLMUnavailable when its
    package is missing). "embedded:NAME": the packaged model NAME (cairn.assistant.packaged,
    the assistant's loader; InvalidInput for an unknown NAME, LLMUnavailable when it was not
    assembled)."""
    name = spec.strip().split(":", 1)[1].strip().lower() if ":" in spec else ""
    if name:
        from cairn.assistant.packaged import MODELS, embedded_model
        if name not in MODELS:
            from cairn.errors import InvalidInput
            from cairn.llm import ACCEPTED_FORMS
            raise InvalidInput(f"invalid LLM spec {spec!r}: expected {ACCEPTED_FORMS}")
        return embedded_model(name)
    from cairn.llm.embedded import get_embedded
    return get_embedded()


def openai_backend(spec: str):
    """"openai:BASE_URL:MODEL": a new OpenAICompatClient (no request made here); API key from
    $CAIRN_OPENAI_API_KEY, else $OPENAI_API_KEY. InvalidInput for a malformed spec."""
    from cairn.llm import API_KEY_ENV_VARS, parse_openai_spec
    from cairn.llm.client import OpenAICompatClient
    base_url, model = parse_openai_spec(spec)
    api_key = next((os.environ[v] for v in API_KEY_ENV_VARS if os.environ.get(v)), None)
    return OpenAICompatClient(base_url, model, api_key=api_key)


@hookimpl
def register_llm_backends(register):
    register("none", none_backend)
    register("embedded", embedded_backend)
    register("openai", openai_backend)
