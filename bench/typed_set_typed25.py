"""A small private check set of session 25 (helper typed25, issue 33): 6 everyday documents (4 notes,
2 PDFs with ruled tables) and 32 questions, 9 of them unanswerable, written by typed25 BEFORE any
change to the answerer, and run only at the start and at the end of the session: a guard against
tuning on the dev sets' misses (figures in bench/README.md, "Session 25 — typed25"). Topics the
other sets do not centre on: a dentist's appointment letter, a broadband contract, a cat's
vaccination card, a school trip letter; as PDFs a car hire agreement and a council tax bill. Every
person, company, place, amount, date, code and phone number is invented (phone numbers from the
drama ranges 01632 960xxx, 07700 900xxx); no third-party text. Same shape as bench/typed_set.py
(`write`, `QUESTIONS`, `expect` a list of strings the answer must each hold, None for an
unanswerable question, `why` the way it is unanswerable).
"""

from __future__ import annotations

from pathlib import Path

from typed_set import write_documents

NOTES: dict[str, str] = {
    "dentist-letter.md": """# Dentist appointment

Brookfold Dental Practice, 12 Mill Row, Hathersage Vale, 01632 960 184
Patient: Ottilie Garnock, NHS number 485 903 2217
Appointment: Tuesday 9 April 2030 at 2.40pm with Dr Sefton Achary
Treatment: check-up and scale and polish (NHS Band 1).
Band 1 charge: £26.80, payable on the day.
Please arrive 10 minutes early and bring a list of any medicines you take.
Missed appointments without 24 hours' notice may be charged £15.
Emergency out of hours: call 111.
""",
    "broadband.md": """# Broadband contract

Provider: Skeinwire, account number SKW-7734021
Package: Fibre 150, download speed 150 Mbps, upload 30 Mbps.
Monthly price: £32.00 for the first 18 months, then £41.00.
Contract start: 3 February 2029; minimum term 18 months, ends 2 August 2030.
Router: Skeinwire Hub 4, serial HB4-99213.
Set-up fee: £0 (online offer).
Leaving early costs the remaining monthly payments of the minimum term.
Customer service: 01632 960 552, 8am to 8pm every day.
The landline is not included; calls cost extra.
""",
    "cat-vaccinations.md": """# Pepper's vaccination card

Cat: Pepper, female, born 12 May 2026, microchip 941000027734418
Vet: Larchmoor Veterinary Surgery, Rowan Parade, 07700 900 417
Vet: Mrs Idony Callard
Primary course: 1 June 2026 and 29 June 2026.
Last booster (cat flu and enteritis): 14 October 2029.
Next booster due: October 2030.
Flea and worm treatment every 3 months; last given 2 January 2030.
Weight at last visit: 4.1 kg.
Pepper is not vaccinated against rabies.
""",
    "school-trip.md": """# School trip letter

Year 5 trip to the Carrowmouth Maritime Museum, Thursday 16 May 2030.
The coach leaves school at 8.45am and returns by 3.30pm.
Cost: £14.50 per child, paid on ParentPay by 2 May 2030.
Children need a packed lunch in a named bag, a waterproof coat and a drink (no fizzy drinks).
No money for the gift shop, please.
Group leader: Mr Anwen Threlkeld.
Parent helpers needed: reply to the office by 25 April 2030.
Children with asthma must bring their inhaler.
""",
}

PDFS: dict[str, dict] = {
    "car-hire.pdf": {
        "lines": ["Dunmarsh Car Rental", "Rental agreement RA-558102",
                  "Driver: Caspar Willoughby, licence WILLO801155CW9AB",
                  "Pick-up: Carrowmouth Airport, 21 July 2030 at 11:00",
                  "Return: Carrowmouth Airport, 28 July 2030 by 11:00",
                  "Vehicle: Kestra Estate, registration WX30 KLM, diesel"],
        "table": [["Charge", "Unit", "Amount"],
                  ["Rental, 7 days", "7", "£287.00"],
                  ["Additional driver", "1", "£49.00"],
                  ["Child seat", "1", "£35.00"],
                  ["Total charged", "", "£371.00"]],
        "after": ["Security deposit held on card: £250, released on return.",
                  "Fuel policy: full to full. A missing quarter tank costs £40.",
                  "Breakdown assistance: 0800 960 0321, 24 hours.",
                  "Excess for damage: £1,100, reduced to £0 with Excess Cover."],
    },
    "council-tax.pdf": {
        "lines": ["Hathersage Vale District Council", "Council tax bill 2030/31",
                  "Account reference: 40078813", "Property: 6 Linnet Close, Hathersage Vale",
                  "Band: C"],
        "table": [["Charge", "Annual amount"],
                  ["District council", "£241.60"],
                  ["County council", "£1,392.40"],
                  ["Police and crime", "£236.10"],
                  ["Fire authority", "£84.90"],
                  ["Total for the year", "£1,955.00"]],
        "after": ["Paid in 10 monthly instalments by Direct Debit on the 1st: £195.50 a month from 1 April 2030.",
                  "Single person discount of 25% is not applied to this bill.",
                  "Questions about this bill: 01632 960 640."],
    },
}


def write(folder: Path) -> list[Path]:
    """Write every document of this set into `folder` (created); returns their paths."""
    return write_documents(folder, NOTES, PDFS)


def _q(i: int, question: str, doc: str, expect: list[str] | None, why: str = "") -> dict:
    return {"id": 2500 + i, "question": question, "doc": doc, "expect": expect, "why": why, "part": "typed25"}


QUESTIONS: list[dict] = [_q(i + 1, *row) for i, row in enumerate([
    # dentist
    ("when is my dentist appointment", "dentist-letter", ["9 April"]),
    ("how much will the check-up cost", "dentist-letter", ["26.80"]),
    ("what's the dental practice phone number", "dentist-letter", ["01632 960 184"]),
    ("who is the dentist", "dentist-letter", ["Sefton Achary"]),
    ("what's dr achary's email", "dentist-letter", None, "type"),
    ("how much is a filling at brookfold", "dentist-letter", None, "subject"),
    # broadband
    ("what's my broadband account number", "broadband", ["SKW-7734021"]),
    ("how much is broadband after the first 18 months", "broadband", ["41.00"]),
    ("when does the broadband contract end", "broadband", ["2 August 2030"]),
    ("what upload speed do i get", "broadband", ["30 Mbps"]),
    ("what's the router's serial number", "broadband", ["HB4-99213"]),
    ("how much is the landline each month", "broadband", None, "attribute"),
    # cat
    ("when is pepper's next booster due", "cat-vaccinations", ["October 2030"]),
    ("what's pepper's microchip number", "cat-vaccinations", ["941000027734418"]),
    ("how much does pepper weigh", "cat-vaccinations", ["4.1 kg"]),
    ("when was pepper's rabies jab", "cat-vaccinations", None, "subject"),
    ("what's the vet's phone number", "cat-vaccinations", ["07700 900 417"]),
    # school trip
    ("how much is the school trip", "school-trip", ["14.50"]),
    ("what time does the coach leave for the museum trip", "school-trip", ["8.45am"]),
    ("what do the kids need to bring on the trip", "school-trip", ["packed lunch", "waterproof coat"]),
    ("how much pocket money can they take to the gift shop", "school-trip", None, "attribute"),
    ("what's the museum's phone number", "school-trip", None, "type"),
    # car hire
    ("how much was the car hire in total", "car-hire", ["371.00"]),
    ("what's the hire car's registration", "car-hire", ["WX30 KLM"]),
    ("how much is the deposit on the hire car", "car-hire", ["250"]),
    ("how much is the sat nav on the hire car", "car-hire", None, "subject"),
    ("what's the breakdown number for the hire car", "car-hire", ["0800 960 0321"]),
    # council tax
    ("what's my council tax for the year", "council-tax", ["1,955.00"]),
    ("how much is the fire authority part of the council tax", "council-tax", ["84.90"]),
    ("what's the council tax account reference", "council-tax", ["40078813"]),
    ("how much is the parish council charge", "council-tax", None, "subject"),
    ("what's the council's email address", "council-tax", None, "type"),
])]
