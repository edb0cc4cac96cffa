"""The polarity check (answer/polarity.py): an answer whose sentences state the opposite of
the question's polarity word is a contradiction, not support."""

from __future__ import annotations

import pytest

from cairn.answer.polarity import contradiction


@pytest.mark.parametrize("question, answer, expected", [
    ("What movies does Nate hate watching?", "I do love watching old westerns [1].", ("hate", "love")),
    ("What does Ana dislike about winter?", "I really enjoy the snow [1].", ("dislike", "enjoy")),
    ("What brings her sadness?", "The dog brings me so much joy [2].", ("sadness", "joy")),
    ("What did Tom love about Rome?", "I hated the traffic in Rome [1].", ("love", "hated")),
    ("Which cause does John oppose?", "I support the library fund [1].", ("oppose", "support")),
    ("What was her worst trip?", "Our best trip was to Crete [3].", ("worst", "best")),
    ("What was grandpa's gift to Ana?", "It's a gift from my grandma [1].", ("grandpa's", "grandma")),
    ("What did Maria cook with her father?", "My mom and I made dinner [1].", ("father", "mom")),
    ("Where did his sister move?", "My brother moved to Oslo [1].", ("sister", "brother")),
    ("Why does Priya love mushrooms?", "I can't stand mushrooms [1].", ("love", "can't stand")),
])
def test_opposites_in_the_answer_contradict_the_question(question, answer, expected):
    assert contradiction(question, answer) == expected


@pytest.mark.parametrize("question, answer", [
    # the question's own word is in the answer: no contradiction, even beside its opposite
    ("What movies does Nate hate watching?", "I love comedies but I hate horror films [1]."),
    # "like" as a preposition is no liking
    ("What was the hike like?", "I hated the last mile of the hike [1]."),
    # a negated question reads the other way round: left alone
    ("What does she not love about Paris?", "I hate the queues [1]."),
    ("What doesn't she love about Paris?", "I hate the queues [1]."),
    # both words of a pair asked: either may answer
    ("What did her son and daughter bake?", "My daughter baked a pie [1]."),
    ("Does she love or hate jazz?", "I love jazz [1]."),
    # one kinship word in two forms is no counterpart
    ("When did Maria's grandmother pass away?", "Last week my grandma passed away [1]."),
    ("What did Maria do with her mother?", "My mom and I went hiking [1]."),
    # unrelated words and inflections that merely look alike
    ("What did Ana make?", "I made a walnut bookshelf [1]."),
    ("What does Sam enjoy?", "Sam likes chess [1]."),
    ("", ""),
    # a yes/no question is answered by the contradiction, it presumes nothing
    ("Does Tom love cold water?", "I hate cold water [1]."),
    ("Would Tom enjoy a winter sea swim?", "I hate cold water [1]."),
    ("Is her brother a pilot?", "My sister flies planes [1]."),
    # a negated opposite in the answer is no opposite
    ("What does Priya hate?", "I don't like mushrooms at all [1]."),
    ("What does Priya love about Oslo?", "I never really hated the rain [1]."),
    ("What does Priya hate?", "I don’t like mushrooms at all [1]."),  # curly apostrophe
    ("What doesn’t she love about Paris?", "I hate the queues [1]."),
    # "like" as a preposition in the answer is no liking
    ("What does Tom hate?", "It looks like rain again [1]."),
    ("What does Tom dislike about Mondays?", "Mondays feel like a long climb [1]."),
])
def test_no_contradiction(question, answer):
    assert contradiction(question, answer) is None


def test_like_as_a_verb_counts():
    assert contradiction("What does Tom hate?", "I really like rainy days [1].") == ("hate", "like")
    assert contradiction("What does Tom hate?", "He likes rainy days [1].") == ("hate", "likes")
    assert contradiction("Why does Priya love mushrooms?", "I can’t stand mushrooms [1].") == ("love", "can't stand")


def test_inflected_forms_count():
    assert contradiction("Which films did she hate?", "She loved every film [1].") == ("hate", "loved")
    assert contradiction("Who does he support?", "He opposes the new mayor [1].") == ("support", "opposes")
