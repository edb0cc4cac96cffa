"""Attribute slots: the one place that says which statements describe the same attribute.

A *slot* is an attribute of one subject that holds one value at a time: where someone lives,
their employer, their diet. Two statements that fill the same slot of the same subject
either agree (same value: a restatement, which reinforces) or disagree (another value: the
newer one supersedes the older, which stays in history). match.py applies that rule; this
module only finds the slots a statement fills:

    find_slots("I'm vegan now.", [], resolve)           -> [Slot("user", "diet", "vegan")]
    find_slots("Olga moved to Oslo.", ["Olga"], resolve) -> [Slot(<olga>, "lives in", "oslo")]

There are two kinds of slot:

- **Open slots** (`OPEN_SLOTS`): the value is free text captured after a cue phrase —
  "lives in" ("lives in / moved to / relocated to / is based in X", "my home is in X"),
  "works at" (the employer: "works at / for X", "is employed by X", "got a job at X",
  "works as a Y at X"), "job" ("works as a X", "got a new job at Y as a X", "I'm a nurse"
  for the occupations in `OCCUPATIONS`), "favourite X". A state change fills the slot it
  changes with the new value: "moved from Oslo to Bergen" / "moved back to X" (lives in),
  "switched jobs from Acme to Globex" (works at), "changed careers from teacher to nurse",
  "went from being a teacher to a nurse" (job); nothing else,
  "age", "name of X", "birthday". The subject is the word before the cue (I/my -> "user",
  else the name, resolved to its entity; an owner written before it counts: "my sister lives
  in X" -> the user's sister, "Olga's brother works at X" -> Olga's brother). "We", "they"
  and other pronouns fill no open slot. A value ends at punctuation, at a word that starts
  a new thought ("as", "since", "and"...) or at a time phrase ("last month", "in 2024", "two
  weeks ago"); a job also at "at"/"in". The dot after an abbreviation in `ABBREVIATIONS`
  ("St. Luke's") does not end it. Emoji and other symbols are read as spaces first.
- **Closed slots** (`CLOSED_SLOTS`): the value is one of a few states, each given by a word
  list — diet (vegan, vegetarian, pescatarian, "doesn't eat meat", eats meat (again), no
  longer vegan/vegetarian), relationship status (single, dating, in a relationship,
  engaged, married, separated, divorced, widowed), alcohol (abstains / drinks) and smoking
  (smoker / non-smoker). A state word counts only as a *predicate* about someone ("I'm
  vegan", "Olga went vegan last year", "we got engaged"): it must follow a copula or a verb
  of becoming (am, is, 's, became, went, got, turned, stayed...) and be followed by the end
  of the clause or a closing word (now, again, since, for, and, ...). So "a vegan
  restaurant", "a single mum" or "engaged in a project" fill no slot. The subject is the
  last person named before the state word in the same clause (I/we -> "user", "my sister"
  -> "user's sister", a name -> its entity, he/she/they -> unknown, so no slot); a clause
  with no person is about the user only when the statement names nobody.
  A state given by a negated verb ("doesn't eat meat", "doesn't drink alcohol", "doesn't
  smoke") has the same verb said plainly as its opposite state (`_affirmed`: "I eat meat
  now" fills diet = eats meat, so it supersedes "I'm vegetarian"; review3 M6).

`BROADER` lists states that a more specific state implies: "doesn't eat meat" is implied
by vegetarian, vegan and pescatarian, so "I don't eat meat" restates "I'm vegan" (reinforce),
while "I'm vegan now" after "I don't eat meat" is a change (supersede).

`query_slots(query, names, resolve)` is the reverse, for recall: the (subject, slot) pairs a
question asks about ("where do I live?" -> ("user", "lives in")), from `QUERY_CUES`.

What is *not* a slot: likes, hobbies, people met, places visited — a statement about those
never retires another one through this module (match.py's sentiment rule handles "I love X"
vs "I hate X"). Extend a slot by adding words to its list here; docs/memory.md lists them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from cairn.memory.rules import RELATIONS


# Roles a person has one of at a time, named like a relation ("my dentist is Dr Alves"): the
# name of that role is a slot ("name of dentist"), so a new one supersedes the old.
PROVIDERS = ("dentist|doctor|gp|vet|landlord|landlady|accountant|lawyer|solicitor|hairdresser|barber|"
             "plumber|electrician|mechanic|optician|therapist|physio|physiotherapist|counsellor|counselor|"
             "midwife|childminder|nanny|babysitter|tutor|personal trainer|driving instructor|dermatologist|"
             "gynaecologist|gynecologist|psychiatrist|psychologist|pediatrician|paediatrician")


@dataclass
class Slot:
    """A filled slot: `subject` ("user" or an entity key), `name` ("diet", "lives in",
    "favourite football player"...), `value` (normalised: lower-case words)."""

    subject: str
    name: str
    value: str


# Emoji and other symbols between words ("I'm 🌱 vegan 🌱") are read as spaces.
_SYMBOLS = re.compile(r"[^\w\s.,;:!?'()&/-]")
# A word, with one inner apostrophe ("don't"); match.py splits words the same way.
WORD_RE = re.compile(r"[^\W_]+(?:'[^\W_]+)?")
_STOP_SUBJECTS = set("""a an the and or but so if as at by for from in into of on to with is are was were
be been am i me my we our you your he she it they his her their its this that these those there
here what when where which who why how yes no not please have has had do does did will would should
could can just very really love loves loved like likes enjoy enjoys adore adores favourite favorite
prefer prefers hate hates""".split())

# ------------------------------------------------------------------ open slots
# Occupations recognised in "I'm a nurse" / "Olga is an engineer" (slot "job").
OCCUPATIONS = ("nurse|teacher|doctor|engineer|developer|programmer|designer|lawyer|accountant|"
               "chef|cook|student|architect|pharmacist|dentist|therapist|counsellor|counselor|"
               "carpenter|electrician|plumber|mechanic|pilot|journalist|writer|photographer|"
               "firefighter|paramedic|scientist|researcher|librarian|barista|waiter|waitress|"
               "cashier|farmer|consultant|manager|analyst|translator|musician|artist|vet|"
               "veterinarian|social worker|police officer|software engineer|data scientist")

# A subject never starts after an apostrophe: the "re" of "we're" names nobody.
_SUBJ = r"(?<!')(?P<subj>my|i|[^\W\d_][\w-]*?(?:'s)?)"
_SUBJ_NO_I = r"(?<!')(?P<subj>my|[^\W\d_][\w-]*?(?:'s)?)"
_ADV = r"(?:(?:now|currently|still|just|recently|finally|officially|have|has|am|is|are)\s+)*"
# An "-ing" form fills a slot only after a form of "be" ("I'm working at", not "keep working at").
_BE_ING = (r"(?:(?<=am )|(?<=is )|(?<=are )|(?<='m )|(?<='s )|(?<='re )|(?<=now )|(?<=currently )"
           r"|(?<=still ))")
# A value ends at punctuation (not the dot of an abbreviation: "St. Luke's"), at a word
# that starts a new thought ("... as a nurse") or at a time phrase ("... last month").
ABBREVIATIONS = ("St", "Ste", "Dr", "Mt", "Ft", "Mr", "Mrs", "Ms", "Prof", "Gen", "Univ", "Dept")
_ABBR = r"\b(?:" + "|".join(ABBREVIATIONS) + r")\.(?=\s+[^\W\d_])"
_TIME_WORDS = (r"last|this past|next|yesterday|today|tonight|recently|earlier|lately|ago|"
               r"in \d{4}|in (?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*|"
               r"on (?:mon|tues|wednes|thurs|fri|satur|sun)day|(?:a|one|two|three|four|five|six|"
               r"a few|a couple of|several|\d+) (?:days?|weeks?|months?|years?)|\(\d{4}")
_VAL_END = (r"(?=\s+(?:as|since|for|from|because|and|but|with|where|which|who|"
            r"these days|at the moment|anymore|any more|" + _TIME_WORDS + r")\b|\s*[,.;!?(]|\s*$)")
_VAL = r"(?P<val>(?:" + _ABBR + r"|[^,.;!?(])+?)" + _VAL_END
# A job ("works as a nurse at St. Luke's") also ends where its place begins.
_JOB_VAL = (r"(?P<val>(?:" + _ABBR + r"|[^,.;!?(])+?)(?=\s+(?:at|in|with|on)\b|" + _VAL_END[3:])
_NEW_JOB = (r"(?:got|have|has|started|landed|took|accepted)\s+(?:a\s+)?(?:new\s+)?"
            r"(?:job|position|role)\s+")
# The old value of a state change ("moved from <Oslo> to ..."): words up to " to ".
_FROM = r"(?:(?!\bto\b)[^,.;!?])+?"
# The words of an attribute slot's name that are a person (no attribute of a thing), and the
# names one attribute goes by ("my number", "my mobile" and "my phone number" are one).
_PERSON_WORDS = frozenset((RELATIONS + "|" + PROVIDERS + "|son|daughter|wife|husband|family|parents|kids|children|"
                           "back|head|knee|leg|arm|stomach|throat|mood|health|life").split("|"))
_ATTRIBUTE_NAMES = {"number": "phone number", "mobile": "phone number", "mobile number": "phone number",
                    "phone": "phone number", "cell": "phone number", "cell number": "phone number",
                    "telephone number": "phone number", "email address": "email", "e-mail": "email",
                    "e-mail address": "email", "wi-fi password": "wifi password", "wifi code": "wifi password",
                    "home address": "address", "postcode": "postcode", "zip code": "postcode"}
# "my X" right after a preposition is no subject ("the plaque on my desk is a reminder", "in my
# room is ..."): the thing a sentence speaks of stands before it.
_NOT_AFTER_PREP = "".join(rf"(?<!\b{p} )" for p in ("on", "in", "at", "of", "to", "for", "with", "from", "by",
                                                     "into", "onto", "under", "over", "about", "near", "behind"))
# What an attribute's value never starts with: an article ("is a ...": kind of X), a place or
# time ("is at 6am"), a purpose or topic ("my goal is to ...", "my art is about ..."), a degree
# word, or a verb in -ing ("my writing is going well"): a statement about it, not its value.
_ATTR_NOT_VALUE = (r"(?!(?:now|still|currently|an?|the|not|also|too|so|very|really|quite|pretty|always|never|"
                   r"in|at|on|from|to|about|for|of|with|like|called|named|full|key|something|what|how|my|your|"
                   r"our|his|her|their|[a-z]+ing)\b)")
# Words after "my" that are no thing one owns (or that another slot reads): "my name is a ...".
_NOT_THINGS = ("name|birthday|home|job|work|diet|status|age|favou?rite|life|day|week|weekend|year|"
               "morning|evening|night|plan|idea|guess|point|problem|question|answer|role|position")
OPEN_SLOTS: list[tuple[str, re.Pattern]] = [
    ("favourite", re.compile(_SUBJ_NO_I +
                             r"\s+(?:current\s+|new\s+|all[- ]time\s+|absolute\s+)?(?P<slot>favou?rite\s+[\w ]+?)\s+"
                             r"(?:is|are)\s+(?:now\s+)?(?P<val>[^,.;!?]+)", re.I)),
    ("lives in", re.compile(r"\b" + _SUBJ + r"(?:'ve|'m|'s|'re)?\s+" + _ADV +
                            r"(?:live|lives|" + _BE_ING + r"living|moved|moves|relocated|settled|based)\s+(?:in|to)\s+" + _VAL, re.I)),
    # State changes name the new value after "to": "moved from Oslo to Bergen", "moved back to X".
    ("lives in", re.compile(r"\b" + _SUBJ + r"(?:'ve|'s)?\s+" + _ADV + r"(?:moved|moves|relocated|relocates)\s+"
                            r"(?:back\s+|away\s+|(?:back\s+|away\s+)?from\s+" + _FROM + r"\s+)(?:in)?to\s+" + _VAL, re.I)),
    ("lives in", re.compile(r"\b" + _SUBJ_NO_I + r"\s+home\s+is\s+(?:now\s+)?in\s+" + _VAL, re.I)),
    ("works at", re.compile(r"\b" + _SUBJ + r"(?:'ve|'m|'s|'re)?\s+" + _ADV +
                            r"(?:work|works|" + _BE_ING + r"working|employed)\s+(?:at|for|by)\s+" + _VAL, re.I)),
    ("works at", re.compile(r"\b" + _SUBJ + r"(?:'ve|'s)?\s+" + _ADV + _NEW_JOB +
                            r"(?:at|with)\s+" + _VAL, re.I)),
    # "works as a teacher at Northfield School": the employer after the job
    ("works at", re.compile(r"\b" + _SUBJ + r"(?:'m|'s)?\s+" + _ADV +
                            r"(?:work|works|" + _BE_ING + r"working|employed)\s+as\s+(?:an?\s+)?"
                            r"[^,.;!?]+?\s+at\s+" + _VAL, re.I)),
    # "switched jobs from Acme to Globex": the employer after "to" (not an occupation: see "job")
    ("works at", re.compile(r"\b" + _SUBJ + r"(?:'ve|'s)?\s+" + _ADV + r"(?:switched|switches|changed|changes|moved)\s+"
                            r"(?:jobs?|employers?|companies|firms?)\s+from\s+" + _FROM + r"\s+to\s+"
                            r"(?!(?:being\s+)?(?:an?\s+)?(?:" + OCCUPATIONS + r")\b)" + _VAL, re.I)),
    ("job", re.compile(r"\b" + _SUBJ + r"(?:'m|'s)?\s+" + _ADV +
                       r"(?:work|works|" + _BE_ING + r"working|employed)\s+as\s+(?:an?\s+)?" + _JOB_VAL, re.I)),
    # "changed careers from teacher to nurse", "went from being a teacher to a nurse"
    ("job", re.compile(r"\b" + _SUBJ + r"(?:'ve|'s)?\s+" + _ADV + r"(?:(?:switched|switches|changed|changes)\s+"
                       r"(?:careers?|jobs?|professions?|roles?)\s+|went\s+|has\s+gone\s+|'s\s+gone\s+)from\s+"
                       r"(?:being\s+)?(?:an?\s+)?" + _FROM + r"\s+to\s+(?:being\s+)?(?:an?\s+)?"
                       r"(?P<val>" + OCCUPATIONS + r")(?=\s*[,.;!?]|\s*$|\s+(?:now|again|since|for|at|in|and|but|by)\b)", re.I)),
    # "got a new job at Siemens as an engineer": the job after the employer
    ("job", re.compile(r"\b" + _SUBJ + r"(?:'ve|'s)?\s+" + _ADV + _NEW_JOB +
                       r"(?:at|with)\s+[^,.;!?]+?\s+as\s+(?:an?\s+)?" + _JOB_VAL, re.I)),
    ("job", re.compile(r"\b(?P<subj>i'm|i am|im|[^\W\d_][\w-]*\s+is|[^\W\d_][\w-]*'s)\s+"
                       r"(?:now\s+|currently\s+|still\s+)?(?:an?\s+)(?:(?:new|qualified|trained|"
                       r"senior|junior|full[- ]time|part[- ]time|freelance)\s+)?(?P<val>" + OCCUPATIONS +
                       r")(?=\s*[,.;!?]|\s*$|\s+(?:now|again|since|for|at|in|and|but|by)\b)", re.I)),
    ("age", re.compile(r"\b(?P<subj>i'?m|i am|[^\W\d_][\w-]*\s+is)\s+(?P<val>\d{1,3})\s+(?:years?\s+old|now)\b", re.I)),
    ("name", re.compile(r"\b(?P<subj>my)\s+(?P<slot>[a-z]+)(?:'s name is|\s+is called|\s+is named)\s+(?P<val>[^,.;!?]+)", re.I)),
    # "user's sister is Marta", the form the rule extractor writes a named relation in
    # (rules.find_relations): a relation word, then a capitalised name (not "is a nurse").
    ("name", re.compile(r"\b(?P<subj>my|[^\W\d_][\w-]*'s)\s+(?P<slot>" + RELATIONS + r")\s+is\s+"
                        r"(?P<val>(?-i:[A-Z])[\w-]*(?:\s+(?-i:[A-Z])[\w-]*)*)(?=\s*[,.;!?]|\s*$)", re.I)),
    ("birthday", re.compile(r"\b(?P<subj>my|[^\W\d_][\w-]*'s)\s+birthday is\s+(?:on\s+)?(?P<val>[^,.;!?]+)", re.I)),
    # "I support Arsenal" -> "I support Spurs now": the team (or club, party) someone supports,
    # one at a time; only a capitalised name ("I support remote work" fills no slot), and only
    # the person's own ("I"): in others' chats "Caroline supports LGBTQ rights" and "... supports
    # Melanie" are two things at once.
    ("supports", re.compile(r"\b(?<!')(?P<subj>i)\s+(?:also\s+)?" + _ADV + r"(?:support|supports|root\s+for|roots\s+for)\s+"
                            r"(?P<val>(?:the\s+)?(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)*)"
                            r"(?=\s*[,.;!?]|\s*$|\s+(?:now|again|these|since|and|but|because|too|as)\b)", re.I)),
    # "my phone number is (now) 07700 900999", "the wifi password is now swordfish": one value of
    # an attribute of the person's (slot "attribute phone number"), not a kind ("is a ...": below)
    # nor a person's ("my sister is ill": RELATIONS, checked in _raw_slots); "the X is" only with "now".
    ("attribute", re.compile(_NOT_AFTER_PREP + r"\b(?P<subj>my)\s+(?:new\s+|current\s+|old\s+)?(?!(?:" + PROVIDERS + r"|" + _NOT_THINGS +
                             r")\s+is\b)(?!favou?rite\b)(?P<slot>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+is\s+(?:now\s+|still\s+|currently\s+)?"
                             + _ATTR_NOT_VALUE + _VAL, re.I)),
    ("attribute", re.compile(r"^\s*(?P<subj>the)\s+(?:new\s+)?(?P<slot>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+is\s+now\s+"
                             + _ATTR_NOT_VALUE + _VAL, re.I)),
    # "my car is (now) a red Volvo": what one of someone's things is, one at a time (slot "kind
    # of car"); not a person ("my sister is a nurse": RELATIONS, PROVIDERS) nor a word another
    # slot reads ("my job is ..."). Only "is a/an": "my car is red" is another attribute. Only
    # the person's own things ("my"): facts extracted from others' chats ("Mel's painting is a
    # sunset", "... is a portrait") often name several things of one kind.
    ("kind", re.compile(_NOT_AFTER_PREP + r"\b(?P<subj>my)\s+(?:new\s+|current\s+|old\s+)?(?!(?:" + RELATIONS +
                        "|" + PROVIDERS + r"|" + _NOT_THINGS + r")\b)(?P<slot>[^\W\d_]+)\s+is\s+"
                        r"(?:now\s+|still\s+|currently\s+)?an?\s+" + _VAL, re.I)),
    # "my dentist is Dr Alves (at Riverside)": the person who provides a service, one at a time
    ("name", re.compile(r"\b(?P<subj>my|[^\W\d_][\w-]*'s)\s+(?:new\s+|current\s+|regular\s+)?(?P<slot>" + PROVIDERS +
                        r")\s+is\s+(?:now\s+)?(?P<val>(?:(?:dr|mr|mrs|ms|miss|mx|prof)\.?\s+)?(?-i:[A-Z])[\w'-]*"
                        r"(?:\s+(?-i:[A-Z])[\w'-]*)*)(?=\s*[,.;!?]|\s*$|\s+(?:at|from|in|on|of|who|since|now)\b)", re.I)),
]
# The owner written right before an open slot's subject word: "my" or "<Name>'s".
_OWNER = re.compile(r"(?:\b(?P<my>my)|(?<![\w'])(?P<name>[^\W\d_][\w-]*)'s)\s+$", re.I)
# Cheap test before the open-slot patterns.
_OPEN_HINT = re.compile(r"favou?rite|\bliv|\bmove|\bswitch|\bchange|\bwent from|\bgone from|\breloc|\bsettled|\bbased|\bhome is|\bwork|\bemployed|"
                        r"\bjob\b|\bposition\b|\brole\b|\bold\b|\bnow\b|\bcalled\b|\bnamed\b|name is|birthday|"
                        r"\b(?:" + OCCUPATIONS + r")\b|\b(?:" + RELATIONS + "|" + PROVIDERS + r")\s+is\s|\bis\s+(?:\w+\s+)?an?\s|\bmy\s+(?:\w+\s+){1,3}is\s|\bsupport|\broots? for", re.I)

# ------------------------------------------------------------------ closed slots
# A state word is a predicate when it follows one of these (with optional adverbs between)...
_PRE = (r"(?:\b(?:am|is|are|was|were|be|been|being|became|become|becomes|becoming|went|gone|going|"
        r"go|goes|turned|turn|turning|stay|stays|stayed|staying|remain|remains|remained|got|get|"
        r"gets|getting|im)|'m|'s|'re)\s+"
        r"(?:(?:now|still|currently|fully|strictly|mostly|totally|completely|officially|finally|"
        r"also|happily|newly|recently|just|again|basically|a|an|full[- ]time)\s+)*")
# ...and is followed by the end of the clause or one of these words.
_AFTER = (r"(?=\s*(?:[.,;:!?)]|$)|\s+(?:now|again|today|these|nowadays|lately|since|for|from|at|as|any|"
          r"anymore|too|and|but|so|because|though|although|like|after|before|last|this|in|over|"
          r"during|when|while|until|myself|actually|anyway|then|already|ever|by|with|to|or|which|"
          r"who)\b)")
_AFTER_REL = (r"(?=\s*(?:[.,;:!?)]|$)|\s+(?:now|again|to|with|since|for|and|but|so|because|last|this|"
              r"after|too|already|yet|at|on|in \d{4}|or)\b)")
_NEGATED = r"(?:don'?t|do not|doesn'?t|does not|never|no longer)"


def _pred(words: str, after: str = _AFTER) -> str:
    return _PRE + r"(?:" + words + r")" + after


def _affirmed(verb: str) -> str:
    """`verb` said plainly, not negated: the opposite state of the same predicate negated
    ("I eat meat now" against "I don't eat meat"; a negation right before it never matches)."""
    return r"(?<!n't )(?<!n’t )(?<!not )(?<!never )(?<!longer )(?<!to )\b(?:" + verb + r")" + _AFTER


# slot -> [(value, patterns)]. The first value with a matching pattern wins, so negations
# ("no longer vegan") come before the plain words.
CLOSED_SLOTS: dict[str, list[tuple[str, tuple[str, ...]]]] = {
    "diet": [
        ("not vegan", (r"\bno longer (?:a )?vegan\b", r"\bnot (?:a )?vegan any ?more\b",
                       r"\b(?:stopped|quit) being (?:a )?vegan\b", r"\bgave up being (?:a )?vegan\b")),
        ("not vegetarian", (r"\bno longer (?:a )?vegetarian\b", r"\bnot (?:a )?vegetarian any ?more\b",
                            r"\b(?:stopped|quit) being (?:a )?vegetarian\b",
                            r"\bgave up being (?:a )?vegetarian\b")),
        ("eats meat", (r"\beat(?:s|ing)? meat again\b", r"\b(?:started|back to) eating meat\b",
                       _pred(r"omnivores?|(?:a )?meat[- ]eaters?|carnivores?"), _affirmed(r"eat(?:s|ing)? meat"))),
        ("vegan", (_pred(r"vegans?|plant[- ]based"),)),
        ("vegetarian", (_pred(r"vegetarians?|veggie"),)),
        ("pescatarian", (_pred(r"pesc[ae]tarians?"),)),
        ("no meat", (r"\b" + _NEGATED + r" eats? (?:any )?meat\b", r"\bmeat[- ]free\b")),
    ],
    "relationship status": [
        ("divorced", (_pred(r"divorced", _AFTER_REL),)),
        ("separated", (_pred(r"separated", _AFTER_REL),)),
        ("widowed", (_pred(r"widowed|(?:a )?widow(?:er)?", _AFTER_REL),)),
        ("single", (_pred(r"single", _AFTER_REL), r"\b(?:broke|broken|split) up" + _AFTER_REL)),
        ("married", (_pred(r"married", _AFTER_REL), r"\btied the knot\b")),
        ("engaged", (_pred(r"engaged", _AFTER_REL),)),
        ("in a relationship", (_pred(r"in a (?:serious |new |long[- ]distance )?relationship", _AFTER_REL),
                               r"(?:\b(?:am|is|are|started|been)|'m|'s|'re)\s+(?:now\s+)?dating\b",
                               r"\b(?:have|has|got) a (?:new )?(?:boyfriend|girlfriend)\b")),
    ],
    "alcohol": [
        ("drinks", (r"\bdrink(?:s|ing)? (?:alcohol )?again\b", r"\bno longer (?:sober|teetotal)\b",
                    _affirmed(r"drink(?:s|ing)? (?:alcohol|booze)|drinks?(?= now\b| these days\b| nowadays\b)"))),
        ("abstains", (_pred(r"teetotal|sober|(?:a )?teetotaller|(?:a )?non-?drinker"),
                      r"\b" + _NEGATED + r" drinks?(?: any)?(?: alcohol| booze)?" + _AFTER,
                      r"\b(?:quit|stopped|gave up) (?:drinking|alcohol|booze)\b", r"\bno alcohol\b")),
    ],
    "smoking": [
        ("non-smoker", (r"\b(?:quit|stopped|gave up) smoking\b", _pred(r"(?:a )?non-?smoker"),
                        r"\b" + _NEGATED + r" smokes?" + _AFTER)),
        ("smoker", (r"\bsmok(?:e|es|ing) again\b", r"\b(?:started|back to) smoking\b",
                    _pred(r"(?:a )?smoker"), r"(?<!n't )(?<!not )(?<!never )\bsmokes?" + _AFTER)),
    ],
}
# (slot, broader state) -> the states that imply it.
BROADER: dict[tuple[str, str], set[str]] = {
    ("diet", "no meat"): {"vegan", "vegetarian", "pescatarian"},
    ("relationship status", "in a relationship"): {"engaged", "married"},
}

_CLOSED = [(slot, value, re.compile(p, re.I)) for slot, values in CLOSED_SLOTS.items()
           for value, patterns in values for p in patterns]
_CLOSED_HINT = re.compile(r"vegan|vegetarian|veggie|pesc[ae]tarian|plant[- ]based|meat|omnivore|carnivore|"
                          r"divorced|separated|widow|single|broke up|broken up|split up|married|"
                          r"tied the knot|engaged|relationship|dating|boyfriend|girlfriend|drink|sober|"
                          r"teetotal|alcohol|booze|smok", re.I)
# Clause boundaries: the subject of a state word is looked for only in its own clause.
_CLAUSE_END = re.compile(r"[.;!?,:]|\b(?:and|but|because|so|although|though|while|whereas|who|which)\b", re.I)
_PERSON = re.compile(r"\b(?:(?P<my>my)\s+(?P<rel>[a-z]+)|(?P<i>i|i'm|i've|i'd|im|we|we're|we've|me)|"
                     r"(?P<pro>he|she|they|he's|she's|they're))\b", re.I)
_SLOT_NOUNS = {"diet", "relationship", "status", "home", "job", "employer", "work"}


def _clause_subject(pre: str, names: tuple[str, ...]) -> str | None:
    """The last person named in `pre` (the clause before a state word): "i" for I/we/me,
    "my <noun>" for "my sister", a name from `names`, "?" for he/she/they, None if none."""
    best: tuple[int, str] | None = None
    for m in _PERSON.finditer(pre):
        if m.group("my"):
            rel = m.group("rel").casefold()
            who = "i" if rel in _SLOT_NOUNS else f"my {rel}"
        else:
            who = "i" if m.group("i") else "?"
        best = (m.start(), who)
    for name in names:
        base = re.sub(r"'s$", "", name.replace("\u2019", "'"))
        for m in re.finditer(r"(?<!\w)" + re.escape(base) + r"(?!\w)(?:'s\s+(?P<rel>[a-z]+))?", pre):
            if best is None or m.start() > best[0]:
                best = (m.start(), f"{base}'s {m.group('rel')}" if m.group("rel") else base)
    return best[1] if best else None


@lru_cache(maxsize=8192)
def _raw_slots(text: str, names: tuple[str, ...]) -> tuple[tuple[str, str, str], ...]:
    """(subject as written, slot, value) for every slot `text` fills; subject "i" = the user,
    "my X" = the user's X, "Name's X" = that person's X."""
    text = " ".join(_SYMBOLS.sub(" ", text.replace("\u2019", "'")).split())
    found: list[tuple[str, str, str]] = []
    taken: set[str] = set()
    if _OPEN_HINT.search(text):
        for kind, rx in OPEN_SLOTS:
            m = rx.search(text)
            if not m:
                continue
            subj = re.sub(r"'s$|\s+is$", "", m.group("subj").casefold())
            if subj in ("i", "my", "i'm", "i am", "im") or kind == "attribute":
                subj = "i"
            elif subj in _STOP_SUBJECTS:
                continue
            else:  # "my sister lives in", "Olga's brother works at": whose sister or brother
                owner = _OWNER.search(text[:m.start("subj")])
                if owner and owner.group("my"):
                    subj = f"my {subj}"
                elif owner and owner.group("name").casefold() not in _STOP_SUBJECTS:
                    subj = f"{owner.group('name').casefold()}'s {subj}"
            name = kind
            if "slot" in m.groupdict() and m.group("slot"):
                name = " ".join(m.group("slot").casefold().replace("favorite", "favourite").split())
                if kind == "name":
                    name = f"name of {name}"
                elif kind == "kind":
                    name = f"kind of {name}"
                elif kind == "attribute":
                    words = name.split()
                    if any(w in _PERSON_WORDS for w in words):
                        continue  # "my little sister is ill": a person's state, not a thing's
                    name = "attribute " + _ATTRIBUTE_NAMES.get(name, name)
            if name in taken:
                continue
            value = " ".join(WORD_RE.findall(m.group("val").casefold()))
            value = re.sub(r"\b(?:now|these days|at the moment|currently)\b", "", value)
            value = re.sub(r"^(?:the|a|an)\s+", "", " ".join(value.split()))
            if value:
                taken.add(name)
                found.append((subj, name, value))
    if _CLOSED_HINT.search(text):
        for slot, value, rx in _CLOSED:
            if slot in taken:
                continue
            for m in rx.finditer(text):
                starts = [b.end() for b in _CLAUSE_END.finditer(text, 0, m.start())]
                who = _clause_subject(text[starts[-1] if starts else 0:m.start()], names)
                if who is None and not names:
                    who = "i"  # "Vegan now." said by the user
                if who in (None, "?"):
                    continue
                taken.add(slot)
                found.append((who, slot, value))
                break
    return tuple(found)


def find_slots(text: str, names: list[str], resolve: Callable[[str], str]) -> list[Slot]:
    """Every slot `text` fills (at most one per slot name), in the order of OPEN_SLOTS then
    CLOSED_SLOTS. `names`: the entity names in the text (a state word's subject may be one);
    `resolve(name)` maps a name to a stable key (entity id, or the casefolded name).
    Subjects: "user" for I/my (and we, in closed slots only), "user's sister" for "my
    sister", else resolve(name) ("Olga's sister" -> resolve("olga") + "'s sister")."""
    out = []
    for who, slot, value in _raw_slots(text, tuple(names)):
        if who == "i":
            key = "user"
        elif who.startswith("my "):
            key = "user's " + who[3:]
        elif "'s " in who:
            owner, _, rel = who.partition("'s ")
            key = f"{resolve(owner)}'s {rel}"
        else:
            key = resolve(who)
        out.append(Slot(key, slot, value))
    return out


def restates(slot: str, old: str, new: str) -> bool:
    """True when state `new` says nothing beyond state `old` of `slot`: the same value, or a
    broader state that `old` implies (BROADER: "no meat" after "vegan")."""
    return old == new or old in BROADER.get((slot, new), set())


# ------------------------------------------------------------------ slots a query asks about
# A query asks about a slot when it contains one of its cue words ("where do I live",
# "what's my job", "am I vegan?"). "favourite X" and "name of X" are matched by their words.
QUERY_CUES: dict[str, re.Pattern] = {name: re.compile(r"\b(?:" + cues + r")\b", re.I) for name, cues in {
    "lives in": r"live|lives|living|lived|reside|resides|based|home|moved|move|relocated|address|"
                r"hometown|city",
    "works at": r"work|works|working|job|employer|employed|company|office",
    "job": r"work|works|working|job|occupation|profession|career|do for a living",
    "diet": r"diet|vegan|vegetarian|veggie|pesc[ae]tarian|meat|plant[- ]based|omnivore",
    "relationship status": r"relationship|married|single|dating|engaged|divorced|separated|widowed|"
                           r"partner|spouse|boyfriend|girlfriend|husband|wife",
    "alcohol": r"drink|drinks|drinking|alcohol|sober|teetotal",
    "smoking": r"smoke|smokes|smoker|smoking",
    "age": r"age|how old",
    "birthday": r"birthday|born",
}.items()}
_Q_FIRST_PERSON = re.compile(r"\b(?:i|me|i'm|im|i've|mine|myself)\b", re.I)
_Q_MY = re.compile(r"\bmy\s+(?P<rel>[^\W\d_]+)", re.I)
_Q_SLOT_WORDS = _SLOT_NOUNS | {"employer", "company", "office", "city", "hometown", "address", "age",
                               "birthday", "favourite", "favorite", "current", "new", "occupation",
                               "profession", "career", "partner", "spouse", "husband", "wife",
                               "boyfriend", "girlfriend", "name", "own", "last", "old"}


def query_slots(query: str, names: list[str], resolve: Callable[[str], str]) -> list[tuple[str, str]]:
    """(subject, slot name) pairs that `query` asks about, in the keys find_slots gives.

    Slots: every slot of QUERY_CUES whose cue word occurs, plus "favourite X" / "name of X"
    when the query says favourite / name|called and X. Subjects: "user" for I/me/my ("my
    job"), "user's sister" for "my sister", resolve(name) for each of `names` (the entity
    names in the query), "<key>'s sister" for "Kai's sister". No subject, or no cue -> [].
    Example: query_slots("where do I live now?", [], key) -> [("user", "lives in")].
    """
    q = " ".join(_SYMBOLS.sub(" ", query.replace("\u2019", "'")).split())
    slots = [name for name, rx in QUERY_CUES.items() if rx.search(q)]
    words = WORD_RE.findall(q.casefold().replace("favorite", "favourite"))
    if "favourite" in words:
        i = words.index("favourite")
        slots += [f"favourite {' '.join(words[i + 1:i + 1 + n])}" for n in (1, 2, 3) if i + n < len(words) + 1]
    if {"name", "named", "called"} & set(words):
        slots += [f"name of {w}" for w in words if w not in _STOP_SUBJECTS and w not in ("name", "named", "called")]
    if not slots:
        return []
    subjects: list[str] = []
    if _Q_FIRST_PERSON.search(q):
        subjects.append("user")
    for m in _Q_MY.finditer(q):
        rel = m.group("rel").casefold()
        if rel in _Q_SLOT_WORDS or any(rx.fullmatch(rel) for rx in QUERY_CUES.values()):
            subjects.append("user")
        elif rel not in _STOP_SUBJECTS:
            subjects.append(f"user's {rel}")
    for name in names:
        base = re.sub(r"'s$", "", name.replace("\u2019", "'"))
        key = resolve(base)
        rels = [m.group(1).casefold() for m in
                re.finditer(r"(?<!\w)" + re.escape(base) + r"'s\s+([^\W\d_]+)", q)]
        owned = [r for r in rels if r not in _Q_SLOT_WORDS and not any(rx.fullmatch(r) for rx in QUERY_CUES.values())]
        subjects += [f"{key}'s {r}" for r in owned] or [key]
    subjects = list(dict.fromkeys(subjects))
    return [(s, slot) for s in subjects for slot in dict.fromkeys(slots)]
