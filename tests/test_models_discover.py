"""Local model servers found on loopback and offered, never used unasked (issue 32;
cairn/assistant/discover.py, choose.py, `cairn models`). The servers are real HTTP servers on
127.0.0.1 speaking the OpenAI model-list protocol (tests/fakes/openai_server.py)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from cairn.assistant.choose import choose_model, with_model
from cairn.assistant.discover import find_local_servers, model_choices
from cairn.config import load_settings
from cairn.errors import InvalidInput
from fakes.openai_server import FakeOpenAIServer

SRC = Path(__file__).resolve().parents[1] / "src"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Html(BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"<html>a web page, not a model server</html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a):
        pass


@pytest.fixture(scope="module")
def servers():
    web = ThreadingHTTPServer(("127.0.0.1", 0), _Html)
    threading.Thread(target=web.serve_forever, daemon=True).start()
    with FakeOpenAIServer() as fake:
        yield fake, web.server_address[1]
    web.shutdown()
    web.server_close()


def test_found_on_loopback_only_when_a_model_list_answers(servers):
    fake, web_port = servers
    ports = (("Ollama", fake.port), ("llama.cpp server", web_port), ("LM Studio", _free_port()))
    found = find_local_servers(ports)
    assert [(s.name, s.base_url, s.models) for s in found] == [("Ollama", fake.base_url, ["fake-model"])]
    assert found[0].specs() == [f"openai:{fake.base_url}:fake-model"]
    assert any(r.path == "/v1/models" for r in fake.requests)
    with pytest.raises(ValueError, match="loopback"):
        find_local_servers(ports, host="192.0.2.7")


def test_offered_but_not_used_until_chosen(servers, tmp_path):
    fake, _ = servers
    home = tmp_path / "h"
    home.mkdir()
    (home / "config.toml").write_text('# mine\nllm = "none"\n\n[search]\nk = 7\n', encoding="utf-8")
    spec = f"openai:{fake.base_url}:fake-model"
    data = model_choices(load_settings(home), ports=(("Ollama", fake.port),))
    assert data["current"] == "none" and data["default"] == "none" and data["configured"] == ""
    assert spec in [c["spec"] for c in data["choices"]] and data["local_servers"][0]["specs"] == [spec]
    assert model_choices(load_settings(home), scan=False)["local_servers"] == []
    choose_model(home, spec)
    text = (home / "config.toml").read_text(encoding="utf-8")
    assert text.startswith('# mine\nllm = "none"\n\n[search]\nk = 7\n')  # the person's lines kept
    settings = load_settings(home)
    assert settings.assistant.model == spec and settings.search.k == 7
    assert model_choices(settings, scan=False)["current"] == spec


def test_a_bad_choice_is_refused_and_loses_nothing(tmp_path):
    home = tmp_path / "h"
    home.mkdir()
    (home / "config.toml").write_text("[assistant]\nstep_limit = 4\n", encoding="utf-8")
    with pytest.raises(InvalidInput, match="model spec"):
        choose_model(home, "gpt-please")
    assert (home / "config.toml").read_text(encoding="utf-8") == "[assistant]\nstep_limit = 4\n"


def test_with_model_edits_only_the_assistant_model_line():
    assert with_model("", "none") == '[assistant]\nmodel = "none"\n'
    assert with_model("[assistant]\nmodel = \"embedded\"\nstep_limit = 3\n", "none") == \
        '[assistant]\nmodel = "none"\nstep_limit = 3\n'
    assert with_model("[assistant]\nstep_limit = 3\n[memory]\nmodel = 1\n", "none") == \
        '[assistant]\nmodel = "none"\nstep_limit = 3\n[memory]\nmodel = 1\n'
    assert with_model('llm = "none"\n', "embedded") == 'llm = "none"\n\n[assistant]\nmodel = "embedded"\n'


def test_cairn_models_cli(servers, tmp_path):
    fake, _ = servers
    env = dict(os.environ, PYTHONPATH=str(SRC), CAIRN_LOAD_PLUGINS="")
    home = str(tmp_path / "h")
    run = lambda *a: subprocess.run([sys.executable, "-m", "cairn", "--home", home, "models", *a],  # noqa: E731
                                    capture_output=True, text=True, timeout=300, env=env)
    r = run("--json", "--no-scan")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert set(data) == {"current", "configured", "default", "choices", "local_servers", "how"}
    assert data["current"] == "none" and {c["spec"] for c in data["choices"]} >= {"none", "embedded"}
    spec = f"openai:{fake.base_url}:fake-model"
    r = run("--use", spec, "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["chosen"] == spec
    assert json.loads(run("--json", "--no-scan").stdout)["current"] == spec
    r = run("--use", "nonsense")
    assert r.returncode == 1 and "model spec" in r.stderr


# -- cairn setup (cairn.assistant.firstrun, interfaces/cli_setup.py) ---------------------------
def test_setup_offers_and_writes_only_the_persons_choice(servers, tmp_path):
    from cairn.assistant.firstrun import run_setup
    fake, web_port = servers
    ports = (("Ollama", fake.port), ("llama.cpp server", web_port))
    spec = f"openai:{fake.base_url}:fake-model"
    home = tmp_path / "h"
    home.mkdir()
    (home / "config.toml").write_text("[search]\nk = 5\n", encoding="utf-8")
    seen = []
    res = run_setup(home, ports=ports, ask=lambda offers, current: seen.append((offers, current)))  # Enter: keep
    assert res.chosen is None and res.config is None and res.model == "none"
    assert [(o.id, o.spec) for o in seen[0][0]] == [("fake-model", spec)] and seen[0][1] == "none"
    assert (home / "config.toml").read_text(encoding="utf-8") == "[search]\nk = 5\n"  # nothing written
    with pytest.raises(InvalidInput, match="not one of the models offered"):
        run_setup(home, ports=ports, ask=lambda offers, current: 3)
    with pytest.raises(InvalidInput, match="no model 'llama3' on the servers found \\(fake-model\\)"):
        run_setup(home, ports=ports, model="llama3")
    assert load_settings(home).assistant.model == ""
    res = run_setup(home, ports=ports, ask=lambda offers, current: 0)
    assert res.chosen == spec and res.model == spec and res.config == home / "config.toml"
    assert load_settings(home).assistant.model == spec and load_settings(home).search.k == 5
    assert run_setup(home, ports=ports, model="fake-model").config is None  # already chosen: not rewritten
    assert run_setup(home, ports=ports, model="none").model == "none"
    res = run_setup(home, ports=ports, yes=True)
    assert res.to_json() == {"found": [{"name": "Ollama", "base_url": fake.base_url, "models": ["fake-model"],
                                        "specs": [spec]}], "previous": "none", "chosen": spec, "model": spec,
                             "default": "none", "config": str(home / "config.toml")}


def test_setup_with_nothing_found_keeps_the_offline_default(tmp_path):
    from cairn.assistant.firstrun import run_setup
    home = tmp_path / "h"
    home.mkdir()
    asked = []
    res = run_setup(home, ports=(("Ollama", _free_port()),), yes=True, ask=lambda o, c: asked.append(o))
    assert (res.found, res.chosen, res.model, res.config, asked) == ([], None, "none", None, [])
    assert not (home / "config.toml").exists()


def test_cairn_setup_cli(servers, tmp_path):
    fake, _ = servers
    env = dict(os.environ, PYTHONPATH=str(SRC), CAIRN_LOAD_PLUGINS="")
    home = str(tmp_path / "h")
    run = lambda *a, stdin="": subprocess.run(  # noqa: E731
        [sys.executable, "-m", "cairn", "--home", home, "setup", *a], input=stdin,
        capture_output=True, text=True, timeout=300, env=env)
    r = run("--port", str(_free_port()))
    assert r.returncode == 0, r.stderr
    assert "No model server found" in r.stdout and "Kept none (offline" in r.stdout
    spec = f"openai:{fake.base_url}:fake-model"
    r = run("--port", str(fake.port), stdin="1\n")  # the person picks 1 at the prompt
    assert r.returncode == 0, r.stderr
    assert "1. fake-model (OpenAI-compatible server at" in r.stdout and f"now uses {spec}" in r.stdout
    r = run("--port", str(fake.port), "--model", "none", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert (data["previous"], data["chosen"], data["model"], data["default"]) == (spec, "none", "none", "none")
    assert data["found"][0]["models"] == ["fake-model"]
    r = run("--port", str(fake.port), "--model", "gpt-9")
    assert r.returncode == 1 and "no model 'gpt-9'" in r.stderr
