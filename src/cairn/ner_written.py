"""Names found the way they are written, for names no model has seen.

spaCy's small model (cairn/ner.py) knows the names of its training text: "Ilse Brandvold leads
the data team" under a line "People" is no entity to it, while "Cork" and "Q3" come out as
people. This module reads the writing conventions instead, over the whole text:

- **Capitalised runs.** A run of capitalised words ("Ilse Brandvold", "Harbour Project",
  "Anne-Marie van Dijk") in the middle of a sentence is a name: English capitalises proper
  nouns there and nothing else, but for the closed classes of CALENDAR words and "I". At the
  start of a sentence, line or list item capitalisation says nothing, so a run there is a name
  only when one of its words is *unfamiliar* (not a whole word in the embedder's word-piece
  vocabulary below FAMILIAR_RANK: a made-up or rare name; cairn.embed.wordpiece) and, for a
  single word, when a verb follows it ("Ilse leads ..."). Leading function words ("The",
  "Then") are dropped first.
- **Groups kept whole.** "the data team", "our platform group": a determiner, one or two
  describing words and a group noun (GROUP_NOUNS) is one organisation, named by its words.
- **Who is a person.** A name is a person when the text says so: a title or a relation word just
  before it ("Dr", "my sister", "colleague"), a communication or role verb right after it
  ("leads", "manages", "said", "agreed"), or before it ("met", "asked", "told", "with").
  Without such evidence a single familiar word is never a person (`person_evidence`).
- **What is no name at all** (session 17, review3 M7). A single closed-class word (spaCy's
  English stop words, read from the installed package: "He", "be", "Will") or a contraction
  ("Don't", "I'm") is never a name, whatever follows it; nor is a single capitalised noun of
  the dictionary (cairn.ner.dictionary_noun: "Dentist") written only where a capital says
  nothing (`common_noun`: a sentence's start), whatever verb follows it. A single word at the start of a sentence with no person evidence is a
  name only when it is no whole word of the vocabulary at any rank ("Occurrences (first
  year):" is a label, "Ilse said" a name). A name whose last word heads organisations'
  names (ORG_HEADS: "Brightmoor Labs", "Kestrel Ltd") is an organisation, never a person.

    from cairn.ner_written import written_names
    written_names("Ilse Brandvold leads the data team.")
    # [Entity("Ilse Brandvold", "PERSON"), Entity("data team", "ORG")]

Precision and recall on an invented vault: bench/entities_written.py.
"""

from __future__ import annotations

import functools
import re
import threading

from cairn.ner import Entity, dictionary_noun

FAMILIAR_RANK = 20_000  # word-piece ids below this are familiar words (BERT lists whole words
# roughly by frequency; "serviced" 22858, "marta" 18950, "lisbon" 11929, "ilse" absent). A round
# value between the common vocabulary and the long tail, not tuned on any data set.
CALENDAR = frozenset("""january february march april may june july august september october november
december monday tuesday wednesday thursday friday saturday sunday i i'm i've i'd i'll""".split())
TITLES = frozenset("mr mrs ms miss dr prof professor sir dame lady lord aunt uncle".split())
RELATIONS = frozenset("""sister brother mum mom mother dad father wife husband partner son daughter
cousin niece nephew grandma grandmother grandpa grandfather friend colleague boss manager neighbour
neighbor plumber doctor dentist teacher coach landlord landlady cleaner electrician mechanic
accountant lawyer client customer assistant girlfriend boyfriend fiancé fiancée""".split())
PERSON_VERBS_AFTER = frozenset("""leads led manages managed runs ran works worked said says told tells
asked asks agreed agrees met meets called calls emailed emails wrote writes joined joins lives lived
thinks thought wants wanted likes liked loves loved prefers preferred decided decides promised
promises suggested suggests explained explains mentioned mentions replied replies owns owned
founded hired hires visited visits reports reported insisted insists""".split())
PERSON_WORDS_BEFORE = frozenset("""met meet meeting asked ask told tell called call emailed email
texted text thank thanks thanked with by from ask invite invited visit visited""".split())
GROUP_NOUNS = frozenset("team group squad department committee club guild crew band council board".split())
PROJECT_NOUNS = frozenset("project programme program initiative campaign".split())
_DETERMINERS = frozenset("the our my his her their your its".split())
# Function words that open a sentence before a name ("Then Marta said"): dropped from a run.
_LEADING = frozenset("""the our my his her their your its then when after before if and but so also
in on at a an this that these those we you""".split())
# Words that end the names of organisations (legal forms and institutions' head nouns): a name
# ending in one is an ORG whatever verb follows it ("Brightmoor Labs said …").
ORG_HEADS = frozenset("""labs lab laboratories ltd limited inc incorporated llc llp plc gmbh ag sa bv corp corporation
company co university college school academy institute hospital clinic surgery bank foundation trust
charity agency association society ministry council studio studios partners associates holdings
group""".split())
# Words that end the names of streets and other places ("Mill Lane", "Station Road", "Oak
# Avenue"): a name ending in one is a place, not a person, unless the text gives person evidence
# around it ("Lois Lane said"); a name holding one before its last word is a business named
# after its street ("Mill Lane Heating", "Park Lane Hotel"): an organisation.
PLACE_HEADS = frozenset("""lane street road avenue drive close crescent terrace boulevard highway
mews gardens grove square row way rd ave blvd""".split())
# Greetings and sign-offs written with a capital before or after a name ("Cheers, Dan", "Hi
# Ana"): never a name themselves, and not part of the name they stand by.
SALUTATIONS = frozenset("""cheers thanks thank regards best love hugs xoxo xx hi hello hey dear greetings
congrats congratulations sincerely ta bye goodbye morning evening night""".split())
# Words that follow a verb, not a name, at a sentence's start ("Appended the receipts", "Mark the
# date", "Bill me later"): a single capitalised word before one of these is read as a verb.
_OBJECT_NEXT = frozenset("the a an my your our his her their its this that these those me him us them it".split())
# An amount with its unit ("250ml", "3.5 kg", "20%"): no entity of any kind.
_QUANTITY = re.compile(r"\d+(?:[.,]\d+)?\s?(?:ml|cl|dl|l|g|kg|mg|cm|mm|m|km|oz|lb|lbs|in|ft|gb|mb|kb|tb|"
                       r"kw|kwh|w|v|mph|kph|km/h|%)", re.I)
# Person evidence (PERSON_WORDS_BEFORE, PERSON_VERBS_AFTER) that is said of places too.
_PLACE_TOO = frozenset("with by from visit visited runs ran leads led joins joined meets".split())
_PARTICLES = frozenset("van von de der den da di du la le del della bin al ten ter".split())
_WORD = re.compile(r"[^\W\d_][\w'’.-]*[^\W_]|[^\W\d_]", re.UNICODE)
_BREAK = re.compile(r"(?<=[.!?;:])\s+|\n|^\s*(?:[-*+]|\d+[.)])\s+", re.MULTILINE)

# A single word of the dictionary's nouns (cairn.ner.dictionary_noun) written only at a sentence's
# start or after an article is a common noun, even when rarer than FAMILIAR_RANK ("Dentist said …").
# Switch off: DICTIONARY_NOUNS.
DICTIONARY_NOUNS = True

_lock = threading.Lock()
_vocab: dict[str, int] | None = None
_stop: frozenset[str] | None = None


def closed_class(word: str) -> bool:
    """True when `word` (any case) is one of spaCy's English stop words ("he", "be", "will",
    "their"): pronouns, auxiliaries, determiners, prepositions. The list is read from the
    installed spaCy package's file without importing spaCy (an import costs seconds; the
    file is read as text, never run); an empty set when spaCy is absent."""
    global _stop
    if _stop is not None:  # read already: no lock (a frozenset, never changed once set)
        return _closed(word.lower().strip("'’"), _stop)
    with _lock:
        if _stop is None:
            words: frozenset[str] = frozenset()
            try:
                import importlib.util
                spec = importlib.util.find_spec("spacy")
                folder = list(spec.submodule_search_locations or [])[0] if spec else None
                if folder:  # the words of the file's first triple-quoted string (STOP_WORDS = set("""…""".split()))
                    with open(f"{folder}/lang/en/stop_words.py", encoding="utf-8") as f:
                        m = re.search(r'"""(.*?)"""', f.read(), re.DOTALL)
                    words = frozenset(m.group(1).split()) if m else frozenset()
            except (OSError, IndexError):
                words = frozenset()
            _stop = words  # set whole: a reader without the lock never sees it half read
    return _closed(word.lower().strip("'’"), _stop)


# A verb's clitic ending a word ("don't", "can't", "I'm", "we're", "they've", "you'll", "she'd").
_CLITIC = re.compile(r"(.+?)(n['’]t|['’](?:m|re|ve|ll|d|s))")


def _closed(low: str, stop: frozenset[str]) -> bool:
    """`low` (lower case) is a stop word, or a contraction: a word ending in "n't" (only an
    auxiliary takes it: "don't", "can't", "won't") or a stop word with its clitic ("i'm",
    "we're", "you'll", "it's"); "anna's", "o'brien" are not."""
    if low in stop:
        return True
    m = _CLITIC.fullmatch(low)
    return bool(m) and (m.group(2)[0] == "n" or m.group(1) in stop)


def without_closed_lead(name: str) -> tuple[int, str]:
    """(characters dropped, rest) of `name` less its leading closed-class words (`closed_class`):
    a capitalised run opening a sentence may start with a verb or determiner ("See Lemon",
    "The Grand Hotel"); rest "" when every word is one."""
    rest = name
    while rest and closed_class(rest.split(None, 1)[0].rstrip(".")):
        rest = rest.split(None, 1)[1] if len(rest.split(None, 1)) > 1 else ""
    return len(name) - len(rest), rest


def in_vocabulary(word: str) -> bool:
    """True when `word` (any case) is a whole word of the vocabulary at any rank ("occurrences")."""
    return word.lower().strip("'’") in _familiar_vocab()


def organisation(name: str) -> bool:
    """True when the last word of a name of two or more words is in ORG_HEADS ("Brightmoor Labs"),
    or when a word of PLACE_HEADS stands inside a name of three or more words, before a last
    word that is a familiar one ("Mill Lane Heating": a business named after its street; "Main
    Street Redmond" is an address)."""
    words = [w.lower().strip(".,") for w in name.split()]
    return len(words) > 1 and words[-1] in ORG_HEADS or \
        len(words) > 2 and any(w in PLACE_HEADS for w in words[1:-1]) and familiar(words[-1])


def street(name: str) -> bool:
    """True when a name of two or more words ends in a word of PLACE_HEADS ("Mill Lane",
    "Station Road")."""
    words = name.split()
    return len(words) > 1 and words[-1].lower().strip(".,") in PLACE_HEADS


def _person_evidence_in(name: str, text: str) -> bool:
    """Whether some occurrence of `name` in `text` has person evidence around it (person_evidence)."""
    n = len(name.split())
    for _, seg in _segments(text):
        words = [_clean(w) for w in _WORD.findall(seg)]
        for k in range(len(words) - n + 1):
            if " ".join(words[k:k + n]) == name and person_evidence(words[:k], words[k + n:], place=True):
                return True
    return False


def _familiar_vocab() -> dict[str, int]:
    """The embedder's word-piece vocabulary (cairn.embed.wordpiece.vocabulary) of the default
    model folder, else of the source package's; {} when none is found (then every capitalised
    word at a sentence start counts as familiar)."""
    global _vocab
    if _vocab is not None:  # read already (set once, under the lock): no lock
        return _vocab
    with _lock:
        if _vocab is None:
            from cairn.embed.model_files import default_model_dir, source_model_dir
            from cairn.embed.wordpiece import vocabulary
            found: dict[str, int] = {}
            for folder in (default_model_dir, lambda: source_model_dir()[0]):
                try:
                    found = vocabulary(folder())
                except Exception:  # noqa: BLE001 - no model files (the source package is optional)
                    continue
                if found:
                    break
            _vocab = found  # set whole: a reader without the lock never sees it half read
        return _vocab


def familiar(word: str) -> bool:
    """True when `word` (any case) is a whole word in the vocabulary below FAMILIAR_RANK."""
    rank = _familiar_vocab().get(word.lower().strip("'’"))
    return rank is not None and rank < FAMILIAR_RANK


def _capitalised(word: str) -> bool:
    if not word[0].isupper():  # most words: decided before lowering the word
        return False
    low = word.lower()
    return not (len(word) > 1 and word.isupper()) and low not in CALENDAR and low.removesuffix("s") not in CALENDAR


def _clean(word: str) -> str:
    for suffix in ("'s", "’s"):
        if word.endswith(suffix):
            return word[: -len(suffix)]
    return word.rstrip("'’.")


def _segments(text: str) -> list[tuple[int, str]]:
    """(offset, piece) of each sentence, line or list item of `text`."""
    out, start = [], 0
    for m in _BREAK.finditer(text):
        if m.start() > start:
            out.append((start, text[start:m.start()]))
        start = m.end()
    if start < len(text):
        out.append((start, text[start:]))
    return out


def _runs(words: list[str]) -> list[tuple[int, int]]:
    """(first, last+1) word indexes of each run of capitalised words (particles inside)."""
    runs, i = [], 0
    while i < len(words):
        if not _capitalised(words[i]):
            i += 1
            continue
        j = i + 1
        while j < len(words):
            if _capitalised(words[j]) and not words[j - 1].endswith(("'s", "’s")):
                j += 1
            elif words[j].lower() in _PARTICLES and j + 1 < len(words) and _capitalised(words[j + 1]):
                j += 2
            else:
                break
        runs.append((i, j))
        i = j
    return runs


def person_evidence(before: list[str], after: list[str], place: bool = False) -> bool:
    """True when the words just `before` a name (nearest last) or just `after` it say it is a
    person: a title or relation word, a person verb after, a meeting/communication word before.
    place: the name has a place's form (`street`): words said of places as well ("from Mill
    Lane", "Mill Lane runs to the river", `_PLACE_TOO`) are no evidence then."""
    ignore = _PLACE_TOO if place else frozenset()
    prev = [w.lower().rstrip(".,") for w in before[-2:]]
    nxt = after[0].lower() if after else ""
    if prev and (prev[-1] in TITLES or prev[-1] in PERSON_WORDS_BEFORE - ignore or any(p in RELATIONS for p in prev)):
        return True
    return nxt in PERSON_VERBS_AFTER - ignore


def written_names(text: str) -> list[Entity]:
    """Names in `text` by their written form (see the module docstring), each once, first
    occurrence order: label PERSON (evidence in the text), ORG (a group phrase), PRODUCT (a
    project phrase: "the Harbour project") or NAME."""
    found: dict[str, str] = {}
    pieces = [seg for _, seg in _segments(text)]
    segments = [_WORD.findall(seg) for seg in pieces]
    for n, words in enumerate(segments):
        following = segments[n + 1] if n + 1 < len(segments) else []  # "- Ilse: owns the list"
        lower = [w.lower() for w in words]
        last_person = -1  # where the last person of this segment ended ("with Ilse and Tom")
        for i, j in _runs(words):
            run = words[i:j]
            at_start = i == 0
            while run and run[0].lower().rstrip(".,") in _LEADING | TITLES | PERSON_WORDS_BEFORE | SALUTATIONS:
                at_start = at_start or run[0].lower() in _LEADING | SALUTATIONS  # a title or verb keeps its place
                run, i = run[1:], i + 1
            if not run:
                continue
            name = " ".join(_clean(w) for w in run)
            if len(run) == 1 and j < len(words) and lower[j] in _OBJECT_NEXT and \
                    (at_start or familiar(name)) and not person_evidence(words[:i], []) and \
                    re.search(r"(?<![\w'’])" + re.escape(run[0]) + r"[ \t]+" + re.escape(words[j]) + r"\b", pieces[n]):
                continue  # "Appended the receipts", "so Mark the date": a verb; not "Kevin, the founder"
            if len(run) == 1 and (closed_class(name) or closed_class(re.split(r"['’]", name)[0])):
                continue  # "He works at …": a pronoun, not a name
            if len(run) == 1 and not familiar(name) and common_noun(name, text):
                continue  # "Dentist said to floss more": a noun capitalised by its place, though a verb follows
            after = words[j:] if j < len(words) else following
            org = organisation(name)
            person = not org and (person_evidence(words[:i], after, place=street(name)) or (
                last_person >= 0 and i - last_person == 1 and lower[i - 1] in ("and", "or")))
            if at_start and not person:
                if all(familiar(_clean(w)) for w in run):
                    continue
                if len(run) == 1 and (in_vocabulary(name) or not (j < len(words) and words[j][0].islower())):
                    continue
            label = "PERSON" if person else "ORG" if org else "NAME"
            last_person = j if person else -1
            if found.get(name) != "PERSON":
                found[name] = label
        for k, w in enumerate(lower):
            if (w in GROUP_NOUNS or w in PROJECT_NOUNS) and k >= 2:
                desc = [x for x in words[max(0, k - 2):k] if x.lower() not in _DETERMINERS]
                det = lower[k - len(desc) - 1] if k - len(desc) - 1 >= 0 else ""
                if desc and det in _DETERMINERS and all(x.isalpha() for x in desc):
                    label = "ORG" if w in GROUP_NOUNS else "PRODUCT"
                    found.setdefault(" ".join(x.lower() for x in desc) + " " + w, label)
    return [Entity(n, label) for n, label in found.items()]


def trim_span(name: str) -> str:
    """A model's entity span without the sentence-opening function words, verbs and titles it
    swallowed ("Call Ilse Brandvold" -> "Ilse Brandvold", "Dr Brinsley" -> "Brinsley")."""
    words = name.split()
    while len(words) > 1 and words[0].lower().rstrip(".,") in _LEADING | TITLES | PERSON_WORDS_BEFORE | SALUTATIONS:
        words = words[1:]
    return " ".join(words)


# Labels a single familiar word loses when it is only ever written as a common noun
# (`common_noun`); places ("in Lisbon") and nationalities keep theirs.
_NOUN_LABELS = frozenset({"ORG", "NAME", "PRODUCT", "WORK_OF_ART", "EVENT"})
_ARTICLE_LIKE = _DETERMINERS | {"a", "an", "this", "that", "these", "those", "some", "any", "no"}


def common_noun(name: str, text: str) -> bool:
    """True when `name` is one familiar word (`familiar`: "Charger", "Traffic", "Good") or a
    common noun of the dictionary (cairn.ner.dictionary_noun: "Dentist", "Plumber") that
    `text` writes only where a capital says nothing: at the start of a sentence, line or list
    item, or right after an article or possessive ("Bring the Keys and the Charger", "Honestly
    the Traffic is awful", "Dentist said to floss more"). Such a word is a common noun
    capitalised for emphasis or by its place, not a name; "works at Google", "We drove to
    Cork" keep theirs. False when `name` does not occur in `text` as written (nothing to judge by)."""
    # a dictionary noun only when written as a capitalised word ("Dentist"; "UNICEF" is marked by its capitals); the
    # word lists first (the dictionary: ~1 s once), the scan of the text only for a word they hold
    return len(name.split()) == 1 and (familiar(name) or (DICTIONARY_NOUNS and name[1:].islower()
                                                          and dictionary_noun(name))) and _unmarked(name, text)


def _unmarked(name: str, text: str) -> bool:
    """Whether `text` writes `name` somewhere and only where a capital says nothing (common_noun)."""
    seen, marked = _written_where(text)
    return name in seen and name not in marked


@functools.lru_cache(maxsize=4)
def _written_where(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """(every word `text` writes, those it writes somewhere a capital says something: not first in its segment nor
    after an article), read in one pass, so the words of a long text are not re-read for each name (`_unmarked`)."""
    seen, marked = set(), set()
    for _, seg in _segments(text):
        words = _WORD.findall(seg)
        for k, w in enumerate(words):
            c = _clean(w)
            seen.add(c)
            if k > 0 and words[k - 1].lower() not in _ARTICLE_LIKE:
                marked.add(c)
    return frozenset(seen), frozenset(marked)


def refine_person(name: str, label: str, text: str) -> str:
    """spaCy's label checked against the text: a single closed-class word ("He") is no
    entity ("" returned); a one-word PERSON that is a familiar word with no person evidence
    around any of its occurrences becomes NAME when it is capitalised inside a sentence
    somewhere ("We drove to Cork"), else it is no entity ("Lunch was long.": "");
    a single familiar word of another label (ORG, NAME...) written only as a common noun
    (`common_noun`: "the Charger", a sentence's first word), a greeting or sign-off
    (SALUTATIONS: "Cheers") and an amount with its unit ("250ml") are no entity either;
    a PERSON with a digit ("Q3") becomes NAME; a PERSON whose last word heads organisations'
    names ("Brightmoor Labs", `organisation`) becomes ORG. Other labels are returned as they are."""
    if len(name.split()) == 1 and (closed_class(name) or name.lower() in SALUTATIONS):
        return ""  # "He"; "Cheers" (a sign-off)
    if _QUANTITY.fullmatch(name):
        return ""  # "250ml", "3 kg": an amount, whatever label the model gave it
    if label in _NOUN_LABELS and common_noun(name, text):
        return ""  # "Bring the Charger": a common noun, not an organisation
    if label != "PERSON":
        return label
    if any(ch.isdigit() for ch in name):
        return "NAME"
    if organisation(name):
        return "ORG"
    if street(name):  # "walked down Mill Lane": a place, unless the text says a person ("Lois Lane said")
        return "FAC" if not _person_evidence_in(name, text) else label
    if len(name.split()) > 1:
        return label
    if not familiar(name):  # a made-up name ("Halpelthu said"), not a noun written first ("Dentist said")
        return "" if common_noun(name, text) else label
    inside = False  # capitalised inside a sentence somewhere ("We drove to Cork"): a proper noun
    for _, seg in _segments(text):
        words = _WORD.findall(seg)
        for k, w in enumerate(words):
            if _clean(w) == name and person_evidence(words[:k], words[k + 1:]):
                return label
            inside = inside or (k > 0 and _clean(w) == name and words[k - 1].lower() not in _LEADING)
    return "NAME" if inside else ""
