"""The ask tool picks an answer path, never an address."""

from __future__ import annotations

import pytest

from cairn.errors import InvalidInput
from cairn.tools import registry


def test_the_ask_tool_never_takes_an_address(app):
    with pytest.raises(InvalidInput, match="llm"):
        registry().call(app, "ask", {"question": "what?", "llm": "openai:http://203.0.113.9:80/v1:m"})
    assert registry().call(app, "ask", {"question": "what is in my notes?"})["verdict"] == "abstain"
