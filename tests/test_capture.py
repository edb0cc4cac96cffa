

def test_the_ask_tool_never_takes_an_address(app):
    from cairn.errors import InvalidInput
    with pytest.raises(InvalidInput, match="llm"):
        registry().call(app, "ask", {"question": "what?", "llm": "openai:http://203.0.113.9:80/v1:m"})
