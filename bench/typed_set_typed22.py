"""A held-out typed set of session 22 (issue 33), written by the helper typed22 before any change
of that session to the answerer, for the kinds that had no value type: who (a person), what
temperature, how do I (a procedure), yes/no, how did X get on in Y, plus a few typed values.
8 household documents (6 notes, 2 PDFs with ruled tables) and 44 questions, 15 of them
unanswerable. Every person, company, place, amount, date, code and phone number is invented
(phone numbers from the drama ranges); no third-party text. Same shape as bench/typed_set.py
(`write`, `QUESTIONS`; `expect` a list of strings the answer must each hold, None for an
unanswerable question; `why` the way it is unanswerable, as in bench/typed_set_sixth.py).

Held out: run once, at the end of session 22 (`python bench/answers_typed.py --set typed22`);
nothing is tuned on it.
"""

from __future__ import annotations

from pathlib import Path

from typed_set import write_documents

NOTES: dict[str, str] = {
    "electrical-inspection.md": """# Electrical installation condition report

Address: 14 Holloway Rise, Brimsett
Electrician: Casimir Oduya
NICEIC number: 118452
Inspected on: 9 February 2029

The consumer unit was replaced in 2019 and is in good condition. Two sockets in the garage had no
earth and were repaired on the day. The bathroom light fitting is not rated for a wet zone and
should be replaced.

Overall result: satisfactory
Next inspection due: February 2034
""",
    "flapjack.md": """# Aunt Perpetua's sticky flapjack

Makes 16 squares.

Ingredients: 250 g porridge oats, 125 g butter, 125 g light brown sugar, 4 tablespoons golden syrup.

Heat the oven to 170C (150C fan). Line a 20 cm square tin with baking paper.
Melt the butter, sugar and syrup in a pan over a low heat, then stir in the oats.
Press the mixture into the tin and bake for 25 minutes until golden at the edges.
Leave to cool in the tin for 10 minutes before cutting into squares.

Keeps for a week in an airtight tin.
""",
    "swim-club.md": """# Otterburn Swim Club membership

Member: Juniper Achebe (junior squad)
Membership number: OSC-20417
Fee: £42 a quarter, paid by standing order on the 1st of January, April, July and October.

Training is on Tuesdays and Thursdays from 5:30pm to 6:30pm at Brimsett Leisure Pool.
Head coach: Dorothea Lyle

To cancel your membership, email the club secretary at least 4 weeks before the next quarter
starts; fees already paid are not refunded. To change squad, speak to the head coach after a
training session.

Spectators are welcome in the gallery. Swimmers must bring their own hat and goggles.
""",
    "boiler-manual.md": """# Thermaflo 30 combi boiler notes

Installed: 12 October 2026 by Kettle and Sons Heating
Serial number: TF30-99821-K
Warranty: 7 years from installation, if serviced every year.

How to repressurise the boiler: turn the boiler off at the switch, open both filling loop valves
under the boiler slowly until the gauge reads 1.3 bar, then close both valves and turn the boiler
back on.

The hot water temperature is set to 55C. The heating runs from 6am to 9am and 5pm to 10pm.
Pets and children should be kept away from the flue outlet.
""",
    "dog-daycare.md": """# Barkwood Farm dog day care

Dog: Pickle, a three-year-old border terrier
Owner: Marisol Feeney

Day care costs £28 a day, or £120 for a five-day pass. Drop off is between 7:30am and 9am, pick up
by 6pm. Dogs must be vaccinated and wormed; Pickle's vaccination card was checked on 3 May 2029.

Pickle is allowed to join the big dog group on walks. She is not allowed raw hide chews because
of her sensitive stomach. Dogs are not bathed at day care unless the owner books a groom (£35).

Carer in charge: Bartholomew Nkemelu, 07700 900 644
""",
    "allotment-rules.md": """# Whinmoor Allotments, plot 22

Plot holder: Ezra Penhaligon
Annual rent: £64, due each 1 March

Bonfires are allowed only between 1 October and 31 March, and never at weekends.
Sheds may be no bigger than 2 m by 2.5 m. Hosepipes are allowed from the shared tanks only.
Dogs are welcome on the site if kept on a lead.

Water is turned off from November to March. The site gate code is 4481.
Committee secretary: Winifred Osei, 07700 900 712
""",
}

PDFS: dict[str, dict] = {
    "music-exam.pdf": {
        "lines": ["Associated Board of Strings and Keys", "Practical exam result",
                  "Candidate: Florian Maddox", "Instrument: Violin, Grade 3",
                  "Exam date: 17 November 2028", "Examiner: Ms Henrietta Coyle"],
        "table": [["Section", "Mark", "Out of"], ["Pieces", "78", "90"], ["Scales", "16", "21"],
                  ["Sight-reading", "15", "21"], ["Aural", "14", "18"], ["Total", "123", "150"]],
        "after": ["Result: Merit", "Florian played with a warm tone; intonation in the higher "
                  "positions needs work."],
    },
    "car-hire.pdf": {
        "lines": ["Drivewell Car Hire", "Rental agreement", "Agreement number: DW-55103",
                  "Hirer: Leopold Anand", "Additional driver: Saskia Anand"],
        "table": [["Item", "Detail"], ["Vehicle", "Skoda Octavia estate"], ["Pick-up", "2 June 2029, 10:00, Exeter St Davids"],
                  ["Return", "9 June 2029, 10:00, Exeter St Davids"], ["Mileage", "Unlimited"],
                  ["Fuel policy", "Full to full"], ["Total charge", "£389.40"]],
        "after": ["Excess: £1,200, reduced to £0 with Excess Cover (not taken).",
                  "Breakdown assistance: 0800 028 7716"],
    },
}


def write(folder: Path) -> list[Path]:
    """Write every document of this set into `folder` (created); returns their paths."""
    return write_documents(folder, NOTES, PDFS)


def _q(i: int, question: str, doc: str, expect: list[str] | None, why: str = "") -> dict:
    return {"id": 2200 + i, "question": question, "doc": doc, "expect": expect, "why": why, "part": "typed22"}


QUESTIONS: list[dict] = [_q(i + 1, *row) for i, row in enumerate([
    # electrical inspection
    ("who did the electrical inspection", "electrical-inspection", ["Casimir Oduya"]),
    ("when is the next electrical check due", "electrical-inspection", ["February 2034"]),
    ("did the house pass the electrical inspection", "electrical-inspection", ["satisfactory"]),
    ("who fitted the consumer unit", "electrical-inspection", None, "role"),
    ("what's the electrician's phone number", "electrical-inspection", None, "type"),
    # flapjack
    ("what temperature for the flapjack", "flapjack", ["170"]),
    ("how long does the flapjack bake", "flapjack", ["25 minutes"]),
    ("how many squares does the flapjack make", "flapjack", ["16"]),
    ("what temp for the brownies", "flapjack", None, "subject"),
    ("how much flour goes in the flapjack", "flapjack", None, "attribute"),
    # swim club
    ("how do i cancel juniper's swimming", "swim-club", ["4 weeks"]),
    ("who is the swim club's head coach", "swim-club", ["Dorothea Lyle"]),
    ("what nights is swimming training", "swim-club", ["Tuesdays", "Thursdays"]),
    ("how much is the swim club a quarter", "swim-club", ["42"]),
    ("can parents watch at swimming", "swim-club", ["Spectators are welcome"]),
    ("who is the swim club treasurer", "swim-club", None, "role"),
    ("how do i book a swimming lesson", "swim-club", None, "attribute"),
    # boiler
    ("how do i top up the boiler pressure", "boiler-manual", ["filling loop", "1.3 bar"]),
    ("what temp is the hot water set to", "boiler-manual", ["55"]),
    ("who installed the boiler", "boiler-manual", ["Kettle and Sons"]),
    ("how long is the boiler warranty", "boiler-manual", ["7 years"]),
    ("how do i bleed the radiators", "boiler-manual", None, "attribute"),
    ("what temperature is the heating thermostat set to", "boiler-manual", None, "attribute"),
    # dog day care
    ("is pickle allowed on the big dog walks", "dog-daycare", ["big dog group"]),
    ("can pickle have rawhide chews", "dog-daycare", ["not allowed raw hide"]),
    ("who looks after the dogs at barkwood", "dog-daycare", ["Bartholomew Nkemelu"]),
    ("how much is a five day pass for pickle", "dog-daycare", ["120"]),
    ("is pickle neutered", "dog-daycare", None, "attribute"),
    ("who is pickle's vet", "dog-daycare", None, "role"),
    # allotment
    ("are bonfires allowed on the allotment at weekends", "allotment-rules", ["never at weekends"]),
    ("can i bring the dog to the allotment", "allotment-rules", ["on a lead"]),
    ("what's the allotment gate code", "allotment-rules", ["4481"]),
    ("who's the allotment secretary", "allotment-rules", ["Winifred Osei"]),
    ("are greenhouses allowed on the allotment", "allotment-rules", None, "attribute"),
    ("who has plot 23", "allotment-rules", None, "subject"),
    # music exam (PDF)
    ("how did florian get on in his violin exam", "music-exam", ["Merit"]),
    ("what did florian get for scales", "music-exam", ["16"]),
    ("who examined florian", "music-exam", ["Henrietta Coyle"]),
    ("how did florian do in his piano exam", "music-exam", None, "subject"),
    ("who is florian's violin teacher", "music-exam", None, "role"),
    # car hire (PDF)
    ("who else can drive the hire car", "car-hire", ["Saskia Anand"]),
    ("when does the hire car go back", "car-hire", ["9 June 2029"]),
    ("is the hire car's mileage limited", "car-hire", ["Unlimited"]),
    ("can we take the hire car to france", "car-hire", None, "attribute"),
])]
