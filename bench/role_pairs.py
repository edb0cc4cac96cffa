#!/usr/bin/env python3
"""Role pairs (typed21): is a line's label about the role a question asks of a date or time?

    python bench/role_pairs.py      # the threshold chosen on the train pairs, checked on the held ones

A question's role is its predicate ("when's the rent *due*", "what time do we *land*"); a line's
label is the text before its value ("Pay by", a column header "Arrives"). `answer/typed.py`
accepts a label that does not hold the role's words when the packaged sentence embedder puts the
two within `typed.ROLE_COS` (cosine). The pairs below were written for this file from scratch
(household documents of kinds none of the typed sets holds; no set's document was read for
them): `True` when the label states the role, `False` when it states another role of the same
document (a departure for an arrival, an issue date for a due date). Every third pair is held
out; the threshold is the one with the best balanced accuracy on the rest. Among one document's
values, the label nearest the role wins when it leads the next by `typed.ROLE_MARGIN`: the
smallest lead above every lead of a wrong winner on the train roles (every third role held out).
"""

from __future__ import annotations

import sys
from pathlib import Path

PAIRS: list[tuple[str, str, bool]] = [
    ("arrive", "Arrival", True), ("land", "Arrives", True), ("get to", "Arrival time", True),
    ("leave", "Departure", True), ("set off", "Departs", True), ("depart", "Leaves at", True),
    ("due", "Payment due", True), ("due", "Pay by", True), ("due", "Deadline", True),
    ("expire", "Expiry date", True), ("run out", "Valid until", True), ("expire", "Valid to", True),
    ("renew", "Renewal date", True), ("start", "Commences", True), ("begin", "Start date", True),
    ("finish", "Ends", True), ("end", "End date", True), ("open", "Opening time", True),
    ("close", "Closes at", True), ("check out", "Check-out by", True), ("check in", "Check-in from", True),
    ("delivered", "Delivery date", True), ("pick up", "Collection", True), ("drop off", "Drop-off", True),
    ("kick off", "Starts", True), ("born", "Date of birth", True), ("issued", "Issue date", True),
    ("get back", "Return", True), ("come back", "Returns at", True), ("served", "Dinner served", True),
    ("board", "Boarding", True), ("collected", "Collection day", True), ("paid", "Payment date", True),
    ("moved in", "Tenancy start", True), ("closes", "Last entry", True), ("submitted", "Send by", True),
    ("arrive", "Departure", False), ("land", "Departs", False), ("leave", "Arrival", False),
    ("due", "Bill date", False), ("due", "Issue date", False), ("due", "Statement date", False),
    ("expire", "Start date", False), ("start", "Expiry date", False), ("check out", "Check-in from", False),
    ("check in", "Check-out by", False), ("open", "Closes at", False), ("close", "Opening time", False),
    ("delivered", "Order date", False), ("renew", "Date of purchase", False), ("get back", "Departs", False),
    ("board", "Arrival", False), ("issued", "Expiry date", False), ("collected", "Order placed", False),
    ("pick up", "Drop-off", False), ("finish", "Start date", False), ("begin", "Finish time", False),
    ("paid", "Invoice date", False), ("served", "Check-out by", False), ("kick off", "Doors open", False),
    ("born", "Registered on", False), ("moved in", "Notice given", False), ("get to", "Depart", False),
    ("due", "Period", False), ("arrive", "Booked on", False), ("leave", "Seat", False),
]


def split() -> tuple[list, list]:
    """(train, held): every third pair is held out."""
    return [p for i, p in enumerate(PAIRS) if i % 3 != 2], [p for i, p in enumerate(PAIRS) if i % 3 == 2]


def cosines(pairs: list, embedder) -> list[float]:
    """The cosine of each pair's role and label (the packaged sentence embedder's unit vectors)."""
    vecs = embedder.embed([x for r, lab, _ in pairs for x in (r, lab)])
    return [float(vecs[2 * i] @ vecs[2 * i + 1]) for i in range(len(pairs))]


def balanced(pairs: list, cos: list[float], t: float) -> float:
    """Balanced accuracy (mean of the true-positive and true-negative rates) of `cos >= t`."""
    pos = [c >= t for (_, _, m), c in zip(pairs, cos) if m]
    neg = [c < t for (_, _, m), c in zip(pairs, cos) if not m]
    return (sum(pos) / len(pos) + sum(neg) / len(neg)) / 2


def choose(pairs: list, cos: list[float]) -> float:
    """The threshold (a cosine, 2 decimals) with the best balanced accuracy on `pairs`; the
    lowest of equals."""
    grid = [i / 100 for i in range(10, 91)]
    return max(grid, key=lambda t: (balanced(pairs, cos, t), -t))


def contests(pairs: list, cos: list[float]) -> list[tuple[str, bool, float]]:
    """For each role with a matching and another label among `pairs`: (role, whether the
    matching label has the higher cosine, the winner's margin over the other)."""
    out = []
    for role in dict.fromkeys(r for r, _, _ in pairs):
        yes = [c for (r, _, m), c in zip(pairs, cos) if r == role and m]
        no = [c for (r, _, m), c in zip(pairs, cos) if r == role and not m]
        if yes and no:
            out.append((role, max(yes) > max(no), abs(max(yes) - max(no))))
    return out


def choose_margin(contests_: list) -> float:
    """The smallest margin (2 decimals) above that of every contest the other label won: a
    winner by at least this much is the matching label on these pairs."""
    return round(max([m for _, right, m in contests_ if not right], default=0.0) + 0.01, 2)


def main() -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    from cairn.answer.typed import ROLE_COS
    from cairn.embed import get_embedder
    emb = get_embedder()
    train, held = split()
    ct, ch = cosines(train, emb), cosines(held, emb)
    t = choose(train, ct)
    print(f"pairs: {len(train)} train, {len(held)} held out")
    print(f"threshold chosen on train: {t:.2f} (balanced accuracy {balanced(train, ct, t):.3f})")
    print(f"held out at {t:.2f}: balanced accuracy {balanced(held, ch, t):.3f}")
    print(f"typed.ROLE_COS = {ROLE_COS:.2f}: train {balanced(train, ct, ROLE_COS):.3f}, "
          f"held {balanced(held, ch, ROLE_COS):.3f}")
    from cairn.answer.typed import ROLE_MARGIN
    roles = list(dict.fromkeys(r for r, _, _ in PAIRS))
    held_roles = set(roles[2::3])
    cos_all = cosines(PAIRS, emb)
    ctr = contests([p for p in PAIRS if p[0] not in held_roles], [c for p, c in zip(PAIRS, cos_all) if p[0] not in held_roles])
    che = contests([p for p in PAIRS if p[0] in held_roles], [c for p, c in zip(PAIRS, cos_all) if p[0] in held_roles])
    d = choose_margin(ctr)
    for name, cs in (("train", ctr), ("held", che)):
        won = [x for x in cs if x[2] >= ROLE_MARGIN]
        print(f"{name} roles: {len(cs)}; the matching label wins {sum(r for _, r, _ in cs)}; winners by >= "
              f"ROLE_MARGIN {ROLE_MARGIN:.2f} (chosen on train: {d:.2f}): {len(won)}, of them right {sum(r for _, r, _ in won)}")
    for (r, lab, m), c in zip(held, ch):
        print(f"  held {c:.2f} {'match' if m else 'other'} {r!r} / {lab!r}{'' if (c >= t) == m else '  (wrong)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
