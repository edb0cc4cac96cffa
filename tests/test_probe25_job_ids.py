"""probe25: `cairn jobs retry 99999999999999999999999` printed a traceback ("OverflowError: Python
int too large to convert to SQLite INTEGER"); REST bounds the id by its schema, the CLI did not.
An id outside SQLite's integers is "no such job", as any other id that names none."""

from __future__ import annotations

import pytest

from cairn.errors import InvalidInput


@pytest.mark.parametrize("ids", [[99999999999999999999999], [0], [2**63], [-2**70]])
def test_a_job_id_out_of_range_is_no_such_job(app, ids):
    with pytest.raises(InvalidInput) as exc:
        app.jobs_retry(ids)
    assert f"job {ids[0]} (no such job)" in str(exc.value)
