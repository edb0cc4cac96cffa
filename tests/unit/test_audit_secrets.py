"""The audit log keeps no secret: a memory or reminder text written through the REST API
went into `target` whole ("My github token is ghp_…, wifi password: Zq9…"), so the
audit file and `cairn audit` / GET /audit showed keys and passwords."""

from __future__ import annotations

import pytest

from cairn import audit

SECRETS = ["ghp_abcdefghijklmnopqrstuvwxyz0123456789", "Zq9secret", "hunter2xyz", "4412",
           "sk-proj-abcdefghijklmnopqrstuvwx1234567890", "AKIAABCDEFGHIJKLMNOP",
           "xoxb-123456789012-abcdefghijkl", "cairn_0123abcd_Zk9xYwVuT"]


@pytest.fixture(scope="module")
def log(tmp_path_factory):
    home = tmp_path_factory.mktemp("home")
    audit.record(home, "local", "memory.remember",
                 "My github token is ghp_abcdefghijklmnopqrstuvwxyz0123456789 and wifi password: Zq9secret")
    audit.record(home, "local", "reminder.create", "call bank, PIN 4412, password hunter2xyz")
    audit.record(home, "local", "note.create", "Keys", detail={"text": "openai sk-proj-abcdefghijklmnopqrstuvwx1234567890",
                                                                "notes": ["aws AKIAABCDEFGHIJKLMNOP", "slack xoxb-123456789012-abcdefghijkl"],
                                                                "by": "cairn_0123abcd_Zk9xYwVuT"})
    audit.record(home, "local", "note.create", "Password reset steps for the router")
    return home, audit.audit_path(home).read_text(encoding="utf-8")


def test_no_secret_reaches_the_audit_file(log):
    _home, text = log
    for secret in SECRETS:
        assert secret not in text
    assert text.count("[redacted]") >= len(SECRETS)


def test_what_is_not_a_secret_is_kept(log):
    home, _text = log
    targets = [e["target"] for e in audit.entries(home, 10)]
    assert targets[0] == "My github token is [redacted] and wifi password: [redacted]"
    assert targets[1] == "call bank, PIN [redacted], password [redacted]"
    assert targets[3] == "Password reset steps for the router"
