"""A message channel's commands (assistant/channels.py): /start and /help say what Cairn can do and
the commands (/start is the first message every Telegram client sends; it got "I'm not sure what you'd
like me to do"); an unknown command is refused naming it ("/resume s-nope" was read as an edit
request); "/new@bot" is /new; a message that only opens with a slash stays a message. Offline
assistant (model none), no network."""

from __future__ import annotations

import pytest

from cairn.assistant.channels import COMMANDS, conversation_for


@pytest.fixture
def conv(app):
    app.settings.assistant.model = "none"
    return conversation_for(app.settings, channel="telegram")


@pytest.mark.parametrize("text", ["/start", "/help", "/START", "/start@cairn_bot"])
def test_start_and_help_say_what_cairn_does_and_the_commands(conv, text):
    out = conv.reply("telegram:7", text)
    assert "remember" in out.text and COMMANDS in out.text and not out.buttons


@pytest.mark.parametrize("text, named", [("/resume s-nope", "/resume"), ("/resume ../../etc", "/resume"),
                                         ("/foo_bar", "/foo_bar")])
def test_an_unknown_command_is_refused_naming_it(conv, app, text, named):
    before = app.notes_list()
    out = conv.reply("telegram:7", text)
    assert out.text.startswith(f"Sorry: {named} is no command here") and COMMANDS in out.text
    assert app.notes_list() == before  # nothing written


def test_new_with_the_bot_name_is_new(conv):
    assert conv.reply("telegram:7", "/new@cairn_bot").text.startswith("New session ")


def test_a_message_opening_with_a_slash_is_a_message(conv):
    out = conv.reply("telegram:7", "/etc/hosts is where the printer's address lives")
    assert "no command" not in out.text and out.text
