"""probe24: a file sent to the Telegram bot that ingest skips (an empty file, binary data
under a .md name) was answered "Saved evil.md; it is searchable now." though no note was
made. The reply now says it was not saved, with the ingest's reason; a readable file is
still "Saved …"."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # tests/fakes is a plain folder

from cairn.interfaces.telegram.bot import TelegramBot  # noqa: E402
from fakes.telegram_api import FakeBotAPI  # noqa: E402
from test_telegram import ME, TOKEN, Running, Scripted, settings  # noqa: E402,F401  (settings: a fixture)


def test_a_skipped_file_is_not_reported_saved(settings):  # noqa: F811
    with FakeBotAPI(TOKEN) as api, Running(TelegramBot(settings, TOKEN, [str(ME)], api.base_url, Scripted())):
        api.push_file(ME, "document", b"\x00\x01\x02" * 100, "f1", file_name="evil.md", mime_type="text/markdown")
        binary = api.wait_sent(1)[0]["parsed"]
        api.push_file(ME, "document", b"", "f2", file_name="empty.txt", mime_type="text/plain")
        empty = api.wait_sent(2)[1]["parsed"]
        api.push_file(ME, "document", b"The gate code is 9911.\n", "f3", file_name="gate.txt", mime_type="text/plain")
        good = api.wait_sent(3)[2]["parsed"]
    assert binary.startswith("I did not save evil.md: ") and "binary" in binary, binary
    assert empty.startswith("I did not save empty.txt: ") and "empty" in empty, empty
    assert good.startswith("Saved gate.txt"), good
