#!/usr/bin/env python3
"""MCP tool-call latency: the same `search` and `get_note` calls made directly on the service,
over stdio (`python -m cairn mcp`, official client) and over streamable HTTP (`http_app` on a
loopback uvicorn). Prints p50 / p95 in ms per path and the overhead ratio to the direct call.

    python bench/mcp_latency.py [--notes 200] [--calls 100]

A fresh temporary home with `--notes` generated notes; nothing is downloaded.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

WORDS = ("boiler radiator heron garden tulip bicycle chain invoice passport kitchen window "
         "roof gutter meeting budget travel train ticket doctor dentist recipe bread").split()


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def make_home(n: int) -> Path:
    from cairn.service import Cairn
    home = Path(tempfile.mkdtemp(prefix="cairn-mcp-bench-")) / "home"
    with Cairn(home) as app:
        for i in range(n):
            words = " ".join(WORDS[(i * 7 + j) % len(WORDS)] for j in range(40))
            app.ingest_text(f"Note {i}: {words}.", f"Note {i}")
    return home


def queries(n: int) -> list[tuple[str, dict]]:
    out = []
    for i in range(n):
        out.append(("search", {"query": f"{WORDS[i % len(WORDS)]} {WORDS[(i * 3) % len(WORDS)]}"}) if i % 2 == 0
                   else ("get_note", {"note": f"Note {i % 50}"}))
    return out


def direct(home: Path, calls) -> list[float]:
    from cairn.service import Cairn
    from cairn.tools import registry
    reg, times = registry(), []
    with Cairn(home) as app:
        reg.call(app, "search", {"query": "warm up"})
        for name, args in calls:
            t = time.perf_counter()
            reg.call(app, name, args)
            times.append(time.perf_counter() - t)
    return times


async def over(session, calls) -> list[float]:
    await session.call_tool("search", {"query": "warm up"})
    times = []
    for name, args in calls:
        t = time.perf_counter()
        res = await session.call_tool(name, args)
        times.append(time.perf_counter() - t)
        assert not res.is_error, res.content[0].text
    return times


async def stdio(home: Path, calls) -> list[float]:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    params = StdioServerParameters(command=sys.executable, args=["-m", "cairn", "--home", str(home), "mcp"], env=env)
    async with stdio_client(params) as (r, w), ClientSession(r, w) as s:
        await s.initialize()
        return await over(s, calls)


def http(home: Path, calls) -> list[float]:
    import uvicorn
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    from cairn.interfaces.mcp.server import http_app
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    server = uvicorn.Server(uvicorn.Config(http_app(home), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)

    async def go():
        async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as st, ClientSession(st[0], st[1]) as s:
            await s.initialize()
            return await over(s, calls)
    try:
        return asyncio.run(go())
    finally:
        server.should_exit = True
        thread.join(30)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--notes", type=int, default=200)
    ap.add_argument("--calls", type=int, default=100)
    a = ap.parse_args()
    t = time.perf_counter()
    home = make_home(a.notes)
    print(f"home: {a.notes} notes in {time.perf_counter() - t:.1f} s ({home})")
    calls = queries(a.calls)
    try:
        results = {"stdio": asyncio.run(stdio(home, calls)), "http": http(home, calls)}
        results = {"direct": direct(home, calls), **results}  # in-process, measured last
    finally:
        shutil.rmtree(home.parent, ignore_errors=True)
    print(f"{'path':8} {'tool':9} {'p50 ms':>8} {'p95 ms':>8} {'p50 / direct':>13}")
    for tool in ("search", "get_note"):
        picks = [i for i, (name, _) in enumerate(calls) if name == tool]
        base = statistics.median(results["direct"][i] for i in picks)
        for path, xs in results.items():
            ys = [xs[i] for i in picks]
            print(f"{path:8} {tool:9} {pct(ys, 50) * 1000:8.1f} {pct(ys, 95) * 1000:8.1f} "
                  f"{statistics.median(ys) / base:13.2f}")

if __name__ == "__main__":
    main()
