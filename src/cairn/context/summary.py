"""Pieces of the prompt compiler (compiler.py) with one job each: the deterministic summary
of compacted turns, and the order of the compacted band."""

from __future__ import annotations


def deterministic_summary(turns: list[tuple[int, str, str]]) -> str:
    """One line per turn: "[N] first 24 words of the person / -> first 12 of the reply"."""
    lines = []
    for n, u, a in turns:
        uw, aw = u.split(), a.split()
        line = f"[{n}] " + " ".join(uw[:24]) + ("…" if len(uw) > 24 else "")
        if aw:
            line += " → " + " ".join(aw[:12]) + ("…" if len(aw) > 12 else "")
        lines.append(line)
    return "\n".join(lines)


def order(uid: str) -> tuple:
    """Sort key of a compacted-band unit id: summaries and turns by turn, others last."""
    if uid.startswith("summary:"):
        return (int(uid.split(":")[1].split("-")[0]), 0)
    if uid.startswith("t") and uid[1:].isdigit():
        return (int(uid[1:]), 1)
    return (10 ** 9, uid)
