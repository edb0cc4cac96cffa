"""Chats written for training the reader (answer/reader.py; bench/reader_train.py): never LoCoMo.

Each FRAME is one thing a person tells a friend, with the pieces a chat spreads it over:
- intro: the owner brings the topic up without the asked detail;
- ask: the friend asks for the detail; answer: the owner's reply, which states it without
  repeating the topic (the gold message when the chat goes intro -> ask -> answer);
- solo: the owner states topic and detail in one message (the gold when the chat goes so);
- comment: the friend's reaction, on topic, stating nothing of the owner;
- later: the owner mentions the topic again, without the detail;
- other: the friend's own story on the same topic with another detail (a hard negative);
- q: questions about the owner's detail ("{P}" is the owner's name).
`conversation(rng, names, frames)` lays frames out over sessions with small talk between;
`questions` gives, per frame, each question with its gold message ids, and the same
question of the friend, who never stated it (unanswerable: category 5).
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

NAMES = ["Orla", "Teodor", "Maren", "Kwame", "Ilse", "Rafferty", "Noor", "Bastian", "Yuki", "Dervla",
         "Tomasz", "Amara", "Leif", "Sunniva", "Idris", "Paloma"]

FRAMES = [
    dict(intro="I finally went to that pottery class on Saturday!", ask="Ooh fun! What did you make?",
         answer="A little blue bowl. It's wonky but I love it.", solo="At my pottery class I made a little blue bowl.",
         comment="Pottery sounds so relaxing, good for you!", later="Going back to pottery next week, can't wait.",
         other="I tried pottery once and made a mug that leaked.",
         q=["What did {P} make at the pottery class?", "What did {P} make in pottery?"]),
    dict(intro="We adopted a puppy last week!", ask="No way! What did you name him?",
         answer="We called him Biscuit, the kids picked it.", solo="Our new puppy is called Biscuit, the kids picked the name.",
         comment="A puppy is so much work but so worth it!", later="The puppy chewed my shoes again haha.",
         other="My neighbour's puppy is called Pepper.",
         q=["What is the name of {P}'s puppy?", "What did {P} name the puppy?"]),
    dict(intro="I ran my first half marathon yesterday.", ask="Amazing! How long did it take you?",
         answer="Just under two hours, which I'm really proud of.", solo="I finished my first half marathon in just under two hours.",
         comment="Running that far is impressive, I could never.", later="My legs still hurt from the half marathon.",
         other="I ran a half marathon years ago, took me two and a half hours.",
         q=["How long did {P}'s half marathon take?", "What was {P}'s half marathon time?"]),
    dict(intro="I started learning an instrument this spring.", ask="Which one did you pick?",
         answer="The cello. My teacher says I'm a natural.", solo="This spring I started learning the cello.",
         comment="Learning music as an adult takes guts!", later="Practising every evening now, the neighbours are patient.",
         other="I played the trumpet in school band.",
         q=["What instrument is {P} learning?", "Which instrument did {P} start learning?"]),
    dict(intro="I went on a trip for my birthday.", ask="Where did you go?",
         answer="Lisbon! The food and the trams were incredible.", solo="For my birthday I went to Lisbon, the food was incredible.",
         comment="Birthday trips are the best way to celebrate.", later="Still dreaming about my birthday trip.",
         other="For my birthday I just had dinner with family.",
         q=["Where did {P} go for their birthday?", "Where did {P} travel for the birthday trip?"]),
    dict(intro="I joined a book club at the library.", ask="What are you reading first?",
         answer="A novel called The Salt Road. Very slow start.", solo="My book club is reading a novel called The Salt Road.",
         comment="Book clubs are a great way to meet people.", later="Book club was fun tonight, lots of wine.",
         other="I read a thriller last month, couldn't put it down.",
         q=["What book is {P}'s book club reading?", "What is {P} reading for the book club?"]),
    dict(intro="I've been volunteering on weekends lately.", ask="That's lovely, where do you volunteer?",
         answer="At an animal shelter by the river, mostly walking dogs.", solo="I volunteer on weekends at an animal shelter by the river.",
         comment="Volunteering is such a kind thing to do.", later="Another long volunteering shift today.",
         other="I used to volunteer at a food bank.",
         q=["Where does {P} volunteer?", "Where has {P} been volunteering on weekends?"]),
    dict(intro="I got a new job offer this week!", ask="Congrats!! What's the role?",
         answer="Senior designer at a small games studio.", solo="I got an offer to be a senior designer at a games studio.",
         comment="New jobs are exciting and scary at the same time.", later="First week at the new job went okay.",
         other="I changed jobs last year, it was stressful.",
         q=["What job was {P} offered?", "What is {P}'s new role?"]),
    dict(intro="I baked something for my sister's party.", ask="Yum, what did you bake?",
         answer="A lemon cake with three layers, it took all day.", solo="I baked a three-layer lemon cake for my sister's party.",
         comment="Homemade baking always makes a party.", later="There's still some of the party baking left.",
         other="I brought a chocolate tart to a party once.",
         q=["What did {P} bake for the party?", "What cake did {P} make for the sister's party?"]),
    dict(intro="My grandmother gave me something special when I visited.", ask="Aw, what was it?",
         answer="Her old silver locket, with a photo of my grandad inside.", solo="My grandmother gave me her old silver locket when I visited.",
         comment="Family heirlooms mean so much.", later="I wear grandma's gift every day now.",
         other="My grandmother gave me a quilt she made.",
         q=["What did {P}'s grandmother give them?", "What gift did {P} get from their grandmother?"]),
    dict(intro="I've been struggling to sleep lately.", ask="Oh no, have you found anything that helps?",
         answer="Reading with no screens after ten has made a big difference.", solo="What helps me sleep is reading with no screens after ten.",
         comment="Sleep problems are the worst, hope it gets better.", later="Slept a bit better this week.",
         other="When I can't sleep I listen to rain sounds.",
         q=["What helps {P} sleep?", "How does {P} deal with trouble sleeping?"]),
    dict(intro="We finally went camping this summer.", ask="Where did you set up camp?",
         answer="By a lake up in the mountains, totally quiet.", solo="We camped by a lake in the mountains this summer.",
         comment="Camping is the best way to unplug.", later="I still smell like campfire smoke haha.",
         other="We went camping at the coast last year.",
         q=["Where did {P} go camping?", "Where did {P} camp this summer?"]),
    dict(intro="I started a new hobby to de-stress.", ask="What is it?",
         answer="Rock climbing at the indoor gym twice a week.", solo="To de-stress I started rock climbing at the indoor gym.",
         comment="Hobbies are so important for stress.", later="My arms are sore from the new hobby.",
         other="I knit to de-stress, it keeps my hands busy.",
         q=["What hobby did {P} start?", "What does {P} do to de-stress?"]),
    dict(intro="My car broke down on the motorway.", ask="Yikes, what happened to it?",
         answer="The gearbox went, the mechanic says it's not worth fixing.", solo="My car broke down because the gearbox went.",
         comment="Car trouble is so stressful.", later="Still sorting out the car situation.",
         other="My car had a flat tyre last month.",
         q=["What was wrong with {P}'s car?", "Why did {P}'s car break down?"]),
    dict(intro="I went to a concert on Friday.", ask="Who did you see?",
         answer="The Velvet Lanterns, they played for three hours.", solo="On Friday I saw The Velvet Lanterns in concert.",
         comment="Live music is magic.", later="Can't stop listening to Friday's concert songs.",
         other="I saw a jazz trio at a concert last month.",
         q=["Which band did {P} see in concert?", "Who did {P} see at the concert?"]),
    dict(intro="I signed up for a course at the college.", ask="What subject?",
         answer="Marine biology, evenings only.", solo="I signed up for an evening course in marine biology.",
         comment="Going back to study is brave.", later="Course homework is piling up.",
         other="I took an evening course in accounting once.",
         q=["What course did {P} sign up for?", "What is {P} studying at the college?"]),
    dict(intro="My son has a new obsession.", ask="Haha what is it now?",
         answer="Dinosaurs. He knows every single name.", solo="My son is obsessed with dinosaurs, he knows every name.",
         comment="Kids' obsessions are adorable.", later="My son's obsession continues at full speed.",
         other="My daughter is obsessed with horses.",
         q=["What is {P}'s son obsessed with?", "What does {P}'s son love?"]),
    dict(intro="I redecorated my living room.", ask="Nice! What colour did you go for?",
         answer="A deep forest green with brass lamps.", solo="I painted my living room a deep forest green.",
         comment="Redecorating makes a home feel new.", later="Still moving furniture around in the living room.",
         other="I painted my bedroom pale yellow.",
         q=["What colour did {P} paint the living room?", "What colour is {P}'s living room now?"]),
    dict(intro="I had a big talk at work today.", ask="What was it about?",
         answer="Our plan to cut the office's energy use by half.", solo="At work I gave a talk about cutting the office's energy use by half.",
         comment="Public speaking is nerve-wracking!", later="People are still asking me about the talk.",
         other="I gave a talk at work about our hiring process.",
         q=["What was {P}'s talk at work about?", "What did {P} talk about at work?"]),
    dict(intro="We went to a wedding last weekend.", ask="Whose wedding was it?",
         answer="My cousin Dana's, on a farm outside town.", solo="Last weekend we went to my cousin Dana's wedding on a farm.",
         comment="Weddings are such happy days.", later="Still recovering from the wedding dancing.",
         other="I went to a friend's wedding in a castle once.",
         q=["Whose wedding did {P} go to?", "Whose wedding did {P} attend last weekend?"]),
    dict(intro="I'm learning a new language.", ask="Which one?",
         answer="Portuguese, for when we visit my partner's family.", solo="I'm learning Portuguese for when we visit my partner's family.",
         comment="Languages are hard as an adult.", later="Language practice every morning on the bus.",
         other="I learned some German in school.",
         q=["What language is {P} learning?", "Which language is {P} studying?"]),
    dict(intro="I got a present from my team when I left.", ask="What did they give you?",
         answer="A framed map of the city with all our office spots marked.", solo="When I left, my team gave me a framed map of the city.",
         comment="Leaving presents are so thoughtful.", later="Hung my leaving present up today.",
         other="When I left my old job I got a mug.",
         q=["What did {P}'s team give them?", "What leaving present did {P} get?"]),
    dict(intro="I planted a garden this spring.", ask="What are you growing?",
         answer="Tomatoes, beans and lots of sunflowers.", solo="In my garden this spring I'm growing tomatoes, beans and sunflowers.",
         comment="Gardening is so good for the soul.", later="The garden needs weeding again.",
         other="I grow herbs on my balcony.",
         q=["What is {P} growing in the garden?", "What did {P} plant this spring?"]),
    dict(intro="I've decided on a career change.", ask="Ooh, to what?",
         answer="Nursing. I start the training in September.", solo="I'm changing career to nursing, training starts in September.",
         comment="Career changes take courage.", later="Nervous about the career change but excited.",
         other="I thought about teaching once.",
         q=["What career is {P} changing to?", "What career did {P} decide on?"]),
    dict(intro="I went to a workshop on Saturday.", ask="What did you learn?",
         answer="How to bind books by hand, with thread and glue.", solo="At Saturday's workshop I learned how to bind books by hand.",
         comment="Workshops are a great way to learn something new.", later="Want to do another workshop soon.",
         other="I did a workshop on bread baking.",
         q=["What did {P} learn at the workshop?", "What was {P}'s workshop about?"]),
    dict(intro="My daughter had her school play.", ask="What part did she have?",
         answer="She was the wolf, and she growled so well!", solo="My daughter played the wolf in her school play.",
         comment="School plays are the cutest.", later="My daughter still won't stop acting.",
         other="My nephew was a tree in his school play.",
         q=["What role did {P}'s daughter play?", "What part did {P}'s daughter have in the school play?"]),
    dict(intro="I won something at the fair!", ask="What did you win?",
         answer="First prize for my apple chutney.", solo="I won first prize at the fair for my apple chutney.",
         comment="Fairs are so much fun.", later="Still proud about the fair.",
         other="I won a goldfish at a fair as a kid.",
         q=["What did {P} win at the fair?", "What prize did {P} win?"]),
    dict(intro="We moved house last month.", ask="Where to?",
         answer="A little terrace near the harbour, five minutes from the sea.", solo="Last month we moved to a terrace near the harbour.",
         comment="Moving is exhausting.", later="Still unpacking boxes from the move.",
         other="We moved to the suburbs two years ago.",
         q=["Where did {P} move to?", "Where is {P}'s new house?"]),
    dict(intro="I picked up a new favourite snack.", ask="Haha, what is it?",
         answer="Spicy roasted chickpeas, I eat a bag a day.", solo="My new favourite snack is spicy roasted chickpeas.",
         comment="Snacks keep me going too.", later="Running low on my favourite snack.",
         other="I can't stop eating salted pretzels.",
         q=["What is {P}'s favourite snack?", "What snack does {P} like?"]),
    dict(intro="I had to go to hospital last week.", ask="Oh no! What happened?",
         answer="I broke my wrist falling off my bike.", solo="I went to hospital because I broke my wrist falling off my bike.",
         comment="Hospitals are scary, glad you're okay.", later="Hospital follow-up went fine.",
         other="I was in hospital for my appendix years ago.",
         q=["Why did {P} go to hospital?", "What injury did {P} have?"]),
]

# what the friend asks about when the owner brings a topic up again (FRAMES order)
TOPICS = ['pottery', 'the puppy', 'running', 'the music lessons', 'the birthday trip', 'the book club', 'volunteering', 'the new job', 'the party', 'your grandma', 'sleep', 'camping', 'the new hobby', 'the car', 'the concert', 'the course', 'your son', 'the living room', 'the talk at work', 'the wedding', 'the language lessons', 'your old team', 'the garden', 'the career change', 'the workshop', 'your daughter', 'the fair', 'the new place', 'snacks', 'your recovery']
FOLLOW = ["How's {t} going?", "Any news on {t}?", "What's new with {t}?", "How are things with {t}?"]

SMALL = ["Hey {O}! How have you been?", "Good to hear from you, {O}!", "Busy week at work, but okay.",
         "That's great to hear.", "Haha, totally.", "Talk soon, take care!", "Hope your week is going well.",
         "I know what you mean.", "Same here, honestly.", "Anyway, how are things with you?"]


OPENERS = ["", "", "Hey {O}! ", "Guess what? ", "So much has happened. ", "Thanks, {O}! "]
TAILS = ["", "", " It was a great day.", " Anyway, how are you?", " I'm so happy about it.", " Talk about a busy week!"]


def opener(rng: random.Random, friend: str) -> str:
    """A message's opening small talk, often none."""
    return rng.choice(OPENERS).format(O=friend)


def conversation(rng: random.Random, a: str, b: str, frames: list[dict], sessions: int = 6,
                 cid: str = "syn") -> tuple[list[dict], list[dict]]:
    """(chat rows in the chat import's JSONL shape, questions): `frames` told by a or b at
    random, spread over `sessions` sessions with small talk; each question {"question",
    "evidence": [gold ids], "category": 4, or 5 for the friend's unanswerable twin}."""
    rows: list[dict] = []
    qs: list[dict] = []
    per = max(1, len(frames) // sessions)
    start = datetime(2024, 3, 1, 18, 0)
    pending_later: list[tuple[str, str, str | None]] = []  # (owner, text, topic) said in a later session
    pending_other: list[tuple[str, str, str | None]] = []
    for s in range(sessions):
        turn = [0]
        when = start + timedelta(days=9 * s)
        sess = f"session_{s + 1}"

        def say(speaker: str, text: str) -> str:
            turn[0] += 1
            rid = f"D{s + 1}:{turn[0]}"
            rows.append({"conversation": cid, "session": sess, "id": rid, "speaker": speaker,
                         "time": (when + timedelta(minutes=turn[0])).isoformat(timespec="minutes"), "text": text})
            return rid
        say(a, rng.choice(SMALL[:2]).format(O=b))
        say(b, rng.choice(SMALL[2:]).format(O=a))
        for owner, text, topic in pending_later + pending_other:
            if topic and rng.random() < 0.6:  # the friend asks, the owner's reply states no detail
                say(b if owner == a else a, rng.choice(FOLLOW).format(t=topic))
            say(owner, text)
            say(b if owner == a else a, rng.choice(SMALL[3:]).format(O=owner))
        pending_later, pending_other = [], []
        for f in frames[s * per:(s + 1) * per] if s < sessions - 1 else frames[s * per:]:
            owner = rng.choice([a, b])
            friend = b if owner == a else a
            way = rng.random()
            if way < 0.3:  # intro -> ask -> a reply that does not repeat the topic
                say(owner, opener(rng, friend) + f["intro"])
                say(friend, f["ask"])
                gold = say(owner, f["answer"] + rng.choice(TAILS))
            elif way < 0.6:  # intro -> ask -> a reply that does
                say(owner, opener(rng, friend) + f["intro"])
                say(friend, f["ask"])
                gold = say(owner, f["solo"] + rng.choice(TAILS))
            else:  # told at once
                gold = say(owner, opener(rng, friend) + f["solo"] + rng.choice(TAILS))
            if rng.random() < 0.7:
                say(friend, f["comment"])
            if rng.random() < 0.5:
                pending_later.append((owner, opener(rng, friend) + f["later"], TOPICS[FRAMES.index(f)]))
            told = rng.random() < 0.5  # the friend's own story: the twin question is then answerable
            if told:
                pending_other.append((friend, f["other"], None))
            say(rng.choice([a, b]), rng.choice(SMALL[3:]).format(O=owner))
            q = rng.choice(f["q"])
            qs.append({"question": q.format(P=owner), "evidence": [gold], "category": 4})
            if not told:
                qs.append({"question": q.format(P=friend), "evidence": [], "category": 5})
    return rows, qs


def conversations(n: int, seed: int = 7, per: int = 30) -> list[tuple[list[dict], list[dict]]]:
    """`n` conversations of `per` frames each, names and frames drawn with random.Random(seed)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        a, b = rng.sample(NAMES, 2)
        frames = rng.sample(FRAMES, min(per, len(FRAMES)))
        out.append(conversation(rng, a, b, frames, cid=f"syn-{i}"))
    return out
