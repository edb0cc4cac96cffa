"""cairn.ingest.write_ahead: vault notes written in helper threads ahead of the indexing, the
indexing in order and only after its note's write; a failed write stops the loop with every
write under way finished, the later ones never started."""

from __future__ import annotations

import threading

import pytest

from cairn import vault as V
from cairn.ingest import write_ahead as W


def _run(tmp_path, n, fail_at=None, monkeypatch=None):
    writers, indexed = [], []
    real = V.atomic_write

    def write(target, text):
        writers.append(threading.get_ident())
        if fail_at is not None and target.name == f"n{fail_at}.md":
            raise OSError(28, "No space left on device")
        return real(target, text)

    monkeypatch.setattr(V, "atomic_write", write)

    def plan(i):
        return tmp_path / f"n{i}.md", (None if i % 5 == 4 else f"note {i}\n")

    def index(target, i):
        if i % 5 != 4:
            assert target.read_text() == f"note {i}\n"  # written before it is indexed
        indexed.append(i)

    W.write_then_index(range(n), plan, index)
    return writers, indexed


@pytest.mark.parametrize("writers", [W.WRITERS, 0])
def test_notes_are_indexed_in_order_each_after_its_write(tmp_path, monkeypatch, writers):
    monkeypatch.setattr(W, "WRITERS", writers)
    threads, indexed = _run(tmp_path, 40, monkeypatch=monkeypatch)
    assert indexed == list(range(40))
    assert len(threads) == 32  # one note in five already held its text: not written
    assert (threading.get_ident() in threads) == (writers == 0)


def test_a_failed_write_stops_the_loop_and_later_writes_never_start(tmp_path, monkeypatch):
    with pytest.raises(OSError, match="No space left"):
        _run(tmp_path, 200, fail_at=3, monkeypatch=monkeypatch)
    written = {p.name for p in tmp_path.glob("n*.md")}
    assert "n3.md" not in written and "n0.md" in written
    # only notes handed out before the failure was seen (AHEAD, plus one per note indexed
    # before it: 0, 1, 2) may have been written; none after them
    assert max(int(name[1:-3]) for name in written) < W.AHEAD + 3
    assert not list(tmp_path.glob(".*cairn-tmp"))
