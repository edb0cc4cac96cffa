"""How often the new memory slots (kind of X, attribute X, supports) fill on
LoCoMo's dev messages (as if each were remembered in the first person) and on the facts the
rule extractor writes from them. Reads /work/shared/data/locomo/locomo-dev.json; prints counts, asserts nothing.

    python bench/memory_slots_locomo.py
"""
import collections, json, re, sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
from cairn.memory.extract import Message, extract_facts
from cairn.memory.slots import find_slots
NEW = ("kind of", "attribute", "supports")
d = json.load(open("/work/shared/data/locomo/locomo-dev.json"))
raw, facts, twice, n, nf = collections.Counter(), collections.Counter(), collections.Counter(), 0, 0
for ci, conv in enumerate(d):
    c = conv["conversation"]
    msgs = [Message(t["dia_id"], t["speaker"], t.get("text", ""), c.get(k + "_date_time"))
            for k in sorted(c) if re.fullmatch(r"session_\d+", k) for t in c[k]]
    for m in msgs:
        n += 1
        for s in find_slots(m.text, [], str.casefold):
            if s.name.startswith(NEW):
                raw[s.name.split()[0]] += 1
                twice[(ci, m.speaker, s.name)] += 1
    for f in extract_facts(msgs, None).facts:
        nf += 1
        for s in find_slots(f.text, f.entities, str.casefold):
            if s.name.startswith(NEW):
                facts[s.name.split()[0]] += 1
print(f"messages {n}: new slots filled {sum(raw.values())} {dict(raw)}; one speaker's slot filled twice: "
      f"{sum(1 for v in twice.values() if v > 1)}; extracted facts {nf}: filled {sum(facts.values())}")
