"""A bounded schemathesis run over /openapi.json against a real uvicorn on loopback: no
server error (5xx) and every response matches the schema (status, content type, body).

Bounded: a few examples per operation (CAIRN_SCHEMA_EXAMPLES, default 4), no shrinking
beyond hypothesis' defaults; the whole file takes well under a minute on 2 cores. Left out:
/events and /api/ask/stream (endless or streaming text, checked in test_rest_api.py), /chat
(a streamed assistant turn with a model, checked in test_rest_chat.py) and
/api/ingest/url (it would fetch the generated URLs from the network)."""

from __future__ import annotations

import os
import re

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis.checks import (content_type_conformance, not_a_server_error, response_schema_conformance,
                                 status_code_conformance)

from rest_support import RestServer

from cairn.service import Cairn

EXAMPLES = int(os.environ.get("CAIRN_SCHEMA_EXAMPLES", "4"))


@pytest.fixture(scope="module")
def api_server(tmp_path_factory):
    with RestServer(tmp_path_factory.mktemp("schema") / "home") as srv:
        with srv.client() as c:  # something to find, link and change
            c.post("/api/notes", json={"title": "Heron", "body": "The heron nests by the mill pond. [[Mill]]"})
            c.post("/api/memories", json={"text": "I live in Porto"})
        yield srv


SKIP = re.compile(r"^/(events|api/ask/stream|api/ingest/url|chat)$")
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


def test_api_conforms_to_its_schema(api_server):
    schema = schemathesis.openapi.from_url(api_server.base + "/openapi.json")
    ran, problems = [], []
    for result in schema.get_all_operations():
        op = result.ok()
        if SKIP.match(op.path) or (op.path.startswith("/api/export") and not hasattr(Cairn, "export")):
            continue  # export: until Cairn.export lands (it answers 503 "not part of this build")

        @given(case=op.as_strategy())
        @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate])
        def run(case):
            case.call_and_validate(base_url=api_server.base, timeout=120, checks=CHECKS)

        try:
            run()
        except (Exception, BaseExceptionGroup) as exc:  # noqa: BLE001 - collected, all reported below
            problems.append(f"{op.method.upper()} {op.path}: {str(exc)[:1500]}")
        ran.append(op.path)
    assert len(ran) >= 25, ran
    assert not problems, "\n\n".join(problems)
