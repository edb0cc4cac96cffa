"""probe24: `[time] timezone = "Mars/Olympus"` and `[time] quiet_hours = "25:00-08:00"` were
accepted when config.toml was read (`cairn status` ran); the zone failed later, in `cairn
remind`, as "unknown time zone 'Mars/Olympus'" without naming config.toml, and the quiet hours
only when a proactive message came to be sent. Both are now checked on load, naming the key."""

from __future__ import annotations

from datetime import time

import pytest

from cairn.config import ConfigError, load_settings
from cairn.schedule.proactive import parse_quiet_hours


def _load(home, text):
    home.mkdir(exist_ok=True)
    (home / "config.toml").write_text(text)
    return load_settings(home)


@pytest.mark.parametrize("text, words", [
    ('[time]\ntimezone = "Mars/Olympus"\n', ("time.timezone", "Mars/Olympus")),
    ('[time]\nquiet_hours = "25:00-08:00"\n', ("time.quiet_hours", "25:00-08:00")),
    ('[time]\nquiet_hours = "late"\n', ("time.quiet_hours", "22:00-08:00")),
])
def test_a_bad_time_setting_is_named_on_load(tmp_path, text, words):
    with pytest.raises(ConfigError) as err:
        _load(tmp_path / "home", text)
    for w in words:
        assert w in str(err.value)
    assert "config.toml" in str(err.value)


def test_good_time_settings_still_load(tmp_path):
    s = _load(tmp_path / "home", '[time]\ntimezone = " europe/london "\nquiet_hours = "22:30-07:00"\n')
    assert s.time.quiet_hours == "22:30-07:00"
    assert _load(tmp_path / "h2", '[time]\nquiet_hours = ""\ntimezone = ""\n').time.timezone == ""
    assert parse_quiet_hours("22:30-07:00") == (time(22, 30), time(7, 0))
    assert parse_quiet_hours(" ") is None
