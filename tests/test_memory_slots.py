"""Supersession by attribute slot (memory/slots.py via match.decide): a changed state said
with another word ("I'm vegetarian" -> "I'm vegan now") supersedes the old memory, which
stays in history with valid_to set; a restatement reinforces; a statement that only mentions
a topic or a person retires nothing."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from cairn.memory import history, list_memories, remember
from cairn.memory.slots import CLOSED_SLOTS, Slot, find_slots, restates
from cairn.store import db

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=timezone.utc)


def _key(name: str) -> str:
    return name.casefold()


@pytest.fixture
def conn(tmp_path):
    c = db.connect(tmp_path / "index.db")
    yield c
    c.close()


# ------------------------------------------------------------------ finding slots (no store)
@pytest.mark.parametrize("text,names,expected", [
    ("I'm vegan now.", [], [Slot("user", "diet", "vegan")]),
    ("I don't eat meat.", [], [Slot("user", "diet", "no meat")]),
    ("Olga went vegan last year.", ["Olga"], [Slot("olga", "diet", "vegan")]),
    ("My sister is vegetarian.", [], [Slot("user's sister", "diet", "vegetarian")]),
    ("Caroline's sister is married.", ["Caroline's"], [Slot("caroline's sister", "relationship status", "married")]),
    ("I'm based in Lisbon now.", [], [Slot("user", "lives in", "lisbon")]),
    ("I got a new job at Acme Corp.", ["Acme Corp"], [Slot("user", "works at", "acme corp")]),
    ("I'm a teacher now.", [], [Slot("user", "job", "teacher")]),
    ("We got engaged!", [], [Slot("user", "relationship status", "engaged")]),
    ("I don't drink.", [], [Slot("user", "alcohol", "abstains")]),
    ("I quit smoking.", [], [Slot("user", "smoking", "non-smoker")]),
    # the plain verb of a negated state is its opposite (review3 M6); a negation never is
    ("I eat meat now.", [], [Slot("user", "diet", "eats meat")]),
    ("I no longer eat meat.", [], [Slot("user", "diet", "no meat")]),
    ("I drink alcohol now.", [], [Slot("user", "alcohol", "drinks")]),
])
def test_slots_found_with_their_subject(text, names, expected):
    assert find_slots(text, names, _key) == expected


@pytest.mark.parametrize("text,names", [
    ("I'm going to a vegan restaurant with Olga.", ["Olga"]),   # a topic, not a state of anyone
    ("I had dinner with Olga, she's vegan.", ["Olga"]),         # "she": whose state is unknown
    ("I'm a single mum.", []),
    ("I'm engaged in a big project.", []),
    ("I split up the work.", []),
    ("I don't drink coffee.", []),
    ("I smoke salmon.", []),
    ("I drink coffee every morning.", []),
    ("I want to eat meat.", []),
    ("I like pizza.", []),
    ("I play tennis.", []),
])
def test_mentions_fill_no_slot(text, names):
    assert find_slots(text, names, _key) == []


def test_broader_state_restates_a_narrower_one_but_not_the_reverse():
    assert restates("diet", "vegan", "no meat") and restates("diet", "vegan", "vegan")
    assert not restates("diet", "no meat", "vegan") and not restates("diet", "vegetarian", "vegan")
    assert {v for v, _ in CLOSED_SLOTS["diet"]} >= {"vegan", "vegetarian", "no meat"}


# ------------------------------------------------------------------ in the store
def _pair(conn, embedder, old: str, new: str):
    first = remember(conn, embedder, old, now=T0)
    second = remember(conn, embedder, new, now=T0 + timedelta(days=40))
    return first, second


def test_vegetarian_then_vegan_supersedes_and_keeps_history(conn, real_embedder):
    veg, vegan = _pair(conn, real_embedder, "I'm vegetarian", "I'm vegan now")
    assert vegan.action == "supersede" and vegan.previous.id == veg.memory.id, vegan.reason
    assert "'diet' changed from 'vegetarian' to 'vegan'" in vegan.reason
    assert [m.text for m in list_memories(conn)] == ["I'm vegan now"]
    old = next(m for m in list_memories(conn, include_inactive=True) if m.id == veg.memory.id)
    assert old.status == "superseded" and old.superseded_by == vegan.memory.id
    assert old.valid_to == vegan.memory.created
    assert [m.id for m in history(conn, vegan.memory.id)] == [veg.memory.id, vegan.memory.id]


@pytest.mark.parametrize("old,new", [
    # diet, both ways
    ("I'm vegetarian.", "I'm vegan now."),
    ("I'm vegan.", "I'm vegetarian these days."),
    ("I don't eat meat.", "I went vegan in January."),
    # where one lives, both ways and in other words
    ("I live in Porto.", "I'm based in Lisbon now."),
    ("I'm based in Lisbon.", "I've moved to Porto."),
    ("My home is in Oslo.", "I live in Bergen now."),
    # where one works (employer) and the job itself
    ("I work at Nordlys Bank.", "I got a new job at Tidewater Labs."),
    ("I'm employed by Tidewater Labs.", "I work for Nordlys Bank now."),
    ("I work as a nurse.", "I'm a teacher now."),
    ("I'm a teacher.", "I work as an accountant now."),
    # relationship status, both ways
    ("I'm single.", "I got married last month."),
    ("I'm married.", "I'm divorced now."),
    ("I'm in a relationship.", "I'm single again."),
    # someone else's state follows the same rule
    ("Olga is vegan.", "Olga is vegetarian now."),
    # the plain verb of a negated state (review3 M6)
    ("I'm vegetarian.", "I eat meat now."),
    ("I'm teetotal.", "I drink alcohol now."),
])
def test_changed_state_in_other_words_supersedes(conn, real_embedder, old, new):
    first, second = _pair(conn, real_embedder, old, new)
    assert first.action == "add"
    assert second.action == "supersede" and second.previous.id == first.memory.id, second.reason
    assert [m.text for m in list_memories(conn)] == [second.memory.text]


@pytest.mark.parametrize("old,new", [
    ("I'm vegan.", "I don't eat meat."),            # broader state: implied, a restatement
    ("I'm vegetarian.", "I'm a vegetarian."),
    ("I'm married.", "I'm happily married."),
    ("I live in Porto.", "I'm based in Porto."),
    ("I quit smoking.", "I don't smoke."),
])
def test_restated_state_reinforces(conn, real_embedder, old, new):
    first, second = _pair(conn, real_embedder, old, new)
    assert second.action == "reinforce" and second.memory.id == first.memory.id, second.reason
    assert len(list_memories(conn, include_inactive=True)) == 1


@pytest.mark.parametrize("old,new", [
    ("I play the guitar.", "I play tennis."),                     # two hobbies stay current
    ("I'm vegetarian.", "I like pizza."),                         # a food, not a diet
    ("I'm vegetarian.", "I'm going to a vegan restaurant with Olga."),
    ("I'm vegetarian.", "My sister is vegan."),                   # someone else's diet
    ("I'm vegetarian.", "I had dinner with Olga, she's vegan."),
    ("Olga is vegan.", "I had coffee with Olga."),                # merely mentions Olga
    ("I'm married.", "My brother got divorced."),
    ("I live in Porto.", "I work at Nordlys Bank."),              # different slots
    ("I'm vegetarian.", "I'm also a non-smoker."),
    ("I'm vegetarian.", "My brother eats meat."),
])
def test_other_statements_keep_both_current(conn, real_embedder, old, new):
    first, second = _pair(conn, real_embedder, old, new)
    assert second.action == "add", second.reason
    assert {m.text for m in list_memories(conn)} == {old, new}


# ------------------------------------------------------------------ whose open slot (review revJ)
@pytest.mark.parametrize("text,names,expected", [
    # an owner before the subject word names whose attribute it is, as for closed slots
    ("My sister lives in Oslo.", [], [Slot("user's sister", "lives in", "oslo")]),
    ("Olga's sister lives in Rome.", ["Olga"], [Slot("olga's sister", "lives in", "rome")]),
    ("My dad works at Tidewater.", [], [Slot("user's dad", "works at", "tidewater")]),
    ("My mom's a nurse.", [], [Slot("user's mom", "job", "nurse")]),
    ("Olga's brother is 30 years old.", ["Olga"], [Slot("olga's brother", "age", "30")]),
    ("My sister's favourite colour is red.", [], [Slot("user's sister", "favourite colour", "red")]),
    ("Olga's favourite colour is red.", ["Olga"], [Slot("olga", "favourite colour", "red")]),
    ("Olga lives in Oslo.", ["Olga"], [Slot("olga", "lives in", "oslo")]),
    # a contraction is no subject: "re" of "we're" / "they're" / "you're" named nobody
    ("We're living in Oslo.", [], []),
    ("They're living in Oslo.", [], []),
    ("You're working at Nordlys Bank.", [], []),
])
def test_open_slot_subject_names_the_owner(text, names, expected):
    assert find_slots(text, names, _key) == expected


@pytest.mark.parametrize("old,new", [
    ("My sister lives in Oslo.", "Olga's sister lives in Rome."),   # two people's sisters
    ("My brother works at Nordlys Bank.", "Olga's brother works at Tidewater Labs."),
    ("They're living in Oslo.", "You're living in Rome."),          # nobody's slot
])
def test_same_relation_of_different_people_keeps_both(conn, real_embedder, old, new):
    first, second = _pair(conn, real_embedder, old, new)
    assert second.action == "add", second.reason
    assert {m.text for m in list_memories(conn)} == {old, new}


def test_a_relation_own_slot_still_supersedes(conn, real_embedder):
    first, second = _pair(conn, real_embedder, "My sister lives in Oslo.", "My sister moved to Rome.")
    assert second.action == "supersede" and second.previous.id == first.memory.id, second.reason


@pytest.mark.parametrize("old,new,action", [
    ("My dentist is Dr Alves at Riverside Clinic.", "My dentist is Dr Moreau.", "supersede"),
    ("My GP is Dr Shah.", "my new GP is Dr. Okafor", "supersede"),
    ("My landlord is Mr Pereira.", "My landlord is Tom Hale now.", "supersede"),
    ("My dentist is Dr Alves.", "My dentist is Dr Alves at Riverside Clinic.", "reinforce"),
    ("My dentist is Dr Alves.", "My vet is Dr Moreau.", "add"),              # another role
    ("My dentist is Dr Alves.", "Olga's dentist is Dr Moreau.", "add"),      # another person's
    ("My plumber is great.", "My plumber is Sam Okafor.", "add"),            # no name: no slot
])
def test_the_person_who_provides_a_service_is_one_at_a_time(conn, real_embedder, old, new, action):
    """probe21: "My dentist is Dr Alves at Riverside Clinic." then "My dentist is Dr Moreau."
    kept both current (cosine 0.71, no slot): "who is my dentist?" got both. A dentist, doctor,
    GP, vet, landlord... named is the name of that role (`PROVIDERS`), one at a time."""
    first, second = _pair(conn, real_embedder, old, new)
    assert second.action == action, second.reason


@pytest.mark.parametrize("old,new,action", [
    # the same claim negated: a correction, never a restatement
    ("I'm allergic to peanuts.", "I'm not allergic to peanuts.", "supersede"),
    ("I eat pork.", "I don't eat pork anymore.", "supersede"),
    ("I'm not allergic to penicillin.", "I'm allergic to penicillin.", "supersede"),
    # the same sentence with another number: the value changed
    ("I have two kids.", "I have three kids now.", "supersede"),
    ("My phone number is 07700 900123.", "My phone number is 07700 900456.", "supersede"),
    ("My gym locker code is 4412.", "My gym locker code is 9981.", "supersede"),
    # not the same claim: both stay
    ("The spare key is in drawer 1.", "The passport is in drawer 83.", "add"),
    ("I'm allergic to peanuts.", "I'm not allergic to shellfish.", "add"),
    ("I have two kids.", "I have two kids and a dog.", "add"),
    ("My gym locker code is 4412.", "My gym locker code is also 9981.", "add"),  # additive
    # the changed claim as one clause of a longer statement
    ("I'm allergic to peanuts.", "actually I'm not allergic to peanuts, the test was negative", "supersede"),
    ("I have two kids.", "We have three kids now and a dog", "add"),  # "we": another subject's count
    ("I have two kids.", "I have three kids now, all girls.", "supersede"),
    # another day is another occasion, not a changed value
    ("I have a dentist appointment on 3 May.", "I have a dentist appointment on 9 May.", "add"),
    ("I ran 5 km today.", "I ran 10 km today.", "add"),  # dated (event_time): another run
])
def test_a_negated_claim_or_a_new_number_in_the_same_sentence_supersedes(conn, real_embedder, old, new, action):
    """probe21: "I'm not allergic to peanuts" *reinforced* "I'm allergic to peanuts" (a
    paraphrase, cosine 0.94: the correction was lost and the old claim's confidence rose);
    "I have three kids" reinforced "I have two kids" (the number in words); a new phone number
    or locker code left both current. The same sentence but for its negation, or but for its
    numbers (digits or words), is the same claim changed (match.same_frame)."""
    first, second = _pair(conn, real_embedder, old, new)
    assert second.action == action, second.reason
    if action == "supersede":
        assert [m.text for m in list_memories(conn)] == [second.memory.text]


# ------------------------------------------------------------------ what a thing is (probe22)
@pytest.mark.parametrize("old,new,action", [
    # the last probe's report: both stayed current
    ("my car is a blue Skoda", "i sold the skoda, my car is now a red Volvo", "supersede"),
    ("My phone is an iPhone 12.", "My new phone is a Pixel 8.", "supersede"),
    ("My car is a blue Skoda.", "My car is a blue Skoda!", "reinforce"),
    ("My car is a blue Skoda.", "My bike is a Trek.", "add"),                # another thing
    ("My car is a blue Skoda.", "Olga's car is a Fiat.", "add"),             # another person's
    ("My car is a blue Skoda.", "My car is red.", "add"),                    # a colour, not a kind
    ("My sister is a nurse.", "My sister is a lovely person.", "add"),       # a person, not a thing
])
def test_what_a_thing_is_is_one_at_a_time(conn, real_embedder, old, new, action):
    first, second = _pair(conn, real_embedder, old, new)
    assert second.action == action, second.reason
    if action == "supersede":
        assert second.previous.id == first.memory.id
        assert [m.text for m in list_memories(conn)] == [new]


@pytest.mark.parametrize("text,expected", [
    ("my car is now a red Volvo", [Slot("user", "kind of car", "red volvo")]),
    ("My name is a secret.", []),
    ("My dog is a labrador.", []),        # a pet is a relation (rules.RELATIONS), not a thing
    ("My job is a nightmare.", []),
    ("This is a test.", []),
])
def test_kind_slot_reads_only_things(text, expected):
    assert find_slots(text, [], _key) == expected


@pytest.mark.parametrize("old,new,action", [
    # the value of one of the person's attributes, said again with another value (probe22)
    ("my phone number is 07700 900123", "my new number is 07700 900999", "supersede"),
    ("my wifi password is hunter2", "the wifi password is now swordfish", "supersede"),
    ("My email is ana@example.org", "my email address is now ana@new.example", "supersede"),
    ("My bike is broken.", "My bike is fixed now.", "supersede"),
    ("my phone number is 07700 900123", "My phone number is 07700 900123!", "reinforce"),
    ("my phone number is 07700 900123", "my wifi password is hunter2", "add"),   # another attribute
    ("My sister is ill.", "My sister is fine now.", "add"),     # a person's state: no attribute slot
    ("My car is red.", "My car is a Volvo.", "add"),            # a colour and a kind: two slots
])
def test_an_attribute_of_the_person_holds_one_value(conn, real_embedder, old, new, action):
    first, second = _pair(conn, real_embedder, old, new)
    assert second.action == action, second.reason
    if action == "supersede":
        assert [m.text for m in list_memories(conn)] == [new]


@pytest.mark.parametrize("text,expected", [
    ("my new number is 07700 900999", [Slot("user", "attribute phone number", "07700 900999")]),
    ("my car is now a red Volvo", [Slot("user", "kind of car", "red volvo")]),   # a kind, not an attribute
    ("my favourite colour is red", [Slot("user", "favourite colour", "red")]),  # its own slot, once
    ("The code is 1234.", []),                # "the X is" only with "now"
    ("my little sister is ill", []),
    ("my flight is at 6am", []),
    ("My goal is to give kids a loving home.", []),              # a purpose, not a value
    ("my writing is going well", []),
    ("This plaque I keep on my desk is a constant reminder.", []),  # "my desk" is no subject here
])
def test_attribute_slot_reads_only_the_persons_things(text, expected):
    assert find_slots(text, [], _key) == expected


@pytest.mark.parametrize("old,new,action", [
    ("I support Arsenal", "I support Spurs now", "supersede"),     # the last probe's report
    ("I support Arsenal", "I also support Celtic", "add"),         # additive
    ("I support Arsenal", "Olga supports Benfica", "add"),         # someone else's team
    ("I support Arsenal", "I support remote work", "add"),         # no name: no slot
])
def test_the_team_someone_supports_is_one_at_a_time(conn, real_embedder, old, new, action):
    first, second = _pair(conn, real_embedder, old, new)
    assert second.action == action, second.reason
