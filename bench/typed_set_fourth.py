"""A fourth held-out typed set (issue 33, session 20): 15 documents written for this bench at
the start of session 20, before that session's answer changes, and the questions over them,
a third unanswerable. Written by hand for Cairn; no third-party text. Same shape as
bench/typed_set.py (`write`, `QUESTIONS`, `expect` None for an unanswerable question, `why`
the way it is unanswerable: "subject" (the attribute of another subject), "value" (the value is
not stated), "item" (another item of the same kind), "role" (the person only present)).
The questions are phrased as a person types them (lower case, own words, two parts, lists);
every one is held out (`part` "fourth") and is looked at only at the end of the session that
wrote it (`python bench/answers_typed.py --set fourth`).
"""

from __future__ import annotations

from pathlib import Path

from typed_set import write_documents

NOTES: dict[str, str] = {
    "school-trip.md": """# Letter from Fernhill Primary

To the parents of Year 4, 20 April 2028.
The Year 4 trip to Castleton Caverns is on Thursday 18 May 2028.
The coach leaves school at 8:15 and returns by 16:00.
Cost: £14 per child, to be paid on ParentPay by 5 May.
Children need a packed lunch, a waterproof coat and sturdy shoes. No fizzy drinks please.
Class teacher: Mr Oduya
School office: 01632 940 215
""",
    "washer-warranty.md": """# Washing machine warranty

Model: Aldwin WM-814, serial 8814-22-0937
Bought from Brightside Appliances on 3 June 2027 for £429.
Warranty: 5 years parts and labour, ends 2 June 2032.
To book a repair, call Aldwin Care on 0330 123 4471 or book online with the serial number.
Not covered: damage from limescale, accidental damage, use in a commercial laundry.
""",
    "tenancy.md": """# Tenancy agreement, 14 Larch Road

Landlord: Calder Lettings, on behalf of Mrs Irene Platt
Tenants: Nadia Ferreira and Tom Brennan
Term: 12 months from 1 September 2027
Rent: £975 per calendar month, paid on the 1st by standing order
Deposit: £1,125, held with the Deposit Protection Service
Notice: tenants give two months' notice in writing after the first six months.
Pets: one cat allowed with written consent.
Repairs: report to Calder Lettings on 0161 555 0188.
""",
    "biscuit-vet.md": """# Biscuit, vet record

Biscuit, beagle, born 12 July 2022, microchip 985 112 004 337 219
Practice: Willow Lane Vets, 01632 950 377
Weight at the last visit (8 March 2028): 13.4 kg
Vaccinations: DHP and leptospirosis on 8 March 2028; kennel cough on 20 March 2028.
Next vaccinations due: March 2029.
Worming tablet every 3 months, last given on 1 April 2028.
Allergic to chicken.
""",
    "edinburgh-train.md": """# Train tickets, Leeds to Edinburgh

Booking reference: TRX4Q9PL
Outward: 26 May 2028, departs Leeds 09:12, arrives Edinburgh Waverley 12:21
Coach C, seat 42 (window, forward facing)
Return: 28 May 2028, departs Edinburgh Waverley 17:30, arrives Leeds 20:41
Tickets: two advance singles each way with a 16-25 railcard
Total paid: £58.60
""",
    "cycling-club-minutes.md": """# Ridgeway Cycling Club committee, 4 April 2028

Attendees: Owen Pryce (chair), Farah Nadeem (treasurer), Luca Bianchi, Shona McBride
Apologies: Declan Roe
Treasurer's report: £3,480 in the bank after the spring sportive.
Agreed: the membership fee stays at £25 for 2028.
Actions:
- Luca to order 40 new club jerseys by 30 April.
- Shona to book the village hall for the AGM.
- Farah to renew the club's insurance before 1 June.
AGM: Saturday 14 October 2028.
""",
    "dhal.md": """# Red lentil dhal

Serves 4. Takes about 40 minutes.
Ingredients:
- 250 g red lentils, rinsed
- 1 onion, finely chopped
- 3 garlic cloves
- 1 thumb of ginger, grated
- 1 tsp turmeric
- 400 ml coconut milk
- 600 ml vegetable stock
Method:
1. Soften the onion in oil for 8 minutes.
2. Add the garlic, ginger and turmeric and cook for 1 minute.
3. Add the lentils, coconut milk and stock; simmer for 25 minutes, stirring often.
4. Finish with lime juice and coriander.
""",
    "hospital-letter.md": """# Letter from St Aldhelm's Hospital

Dear Ms Ferreira,
You have an appointment at the Dermatology Clinic with Dr Helena Marsh.
Date: Wednesday 14 June 2028 at 10:50
Place: Outpatients B, level 2, St Aldhelm's Hospital
Please bring a list of your current medication and this letter.
Hospital number: SAH-338164
If you cannot attend, call the appointments team on 0117 496 0552.
""",
    "lisbon.md": """# Lisbon trip, 26 to 30 June 2028

Flight out: TP1333 on 26 June, Manchester 06:05 to Lisbon 08:55
Hotel: Casa do Rio, Rua das Flores 41, check-in from 15:00, confirmation 88217364
27 June: Belém tower and the tile museum
28 June: day trip to Sintra, train from Rossio at 09:40
Flight back: TP1334 on 30 June, Lisbon 18:20 to Manchester 20:55
Taxi to the airport booked with Ace Cars, 01632 955 810
""",
    "coffee-machine.md": """# Cafferio C300 coffee machine: descaling

Descale every 3 months, or when the orange light flashes.
You need one sachet of Cafferio descaler (30 ml) and 0.5 litres of water.
1. Empty the drip tray and the capsule bin.
2. Pour the descaler and the water into the tank.
3. Hold both cup buttons for 5 seconds to start; the cycle takes 20 minutes.
4. Rinse the tank and run 2 tanks of clean water through.
Water tank capacity: 1.2 litres.
Error E4 means the tank is empty or badly seated.
""",
}

PDFS: dict[str, dict] = {
    "bank-statement.pdf": {
        "lines": ["Harrow and Lune Bank", "Current account statement", "Account number: 41129730",
                  "Sort code: 30-94-62", "Statement period: 1 to 30 April 2028"],
        "table": [["Date", "Description", "Paid out", "Paid in", "Balance"],
                  ["01 Apr", "Opening balance", "", "", "£1,204.18"],
                  ["03 Apr", "Salary Wexford Labs", "", "£2,543.75", "£3,747.93"],
                  ["05 Apr", "Calder Lettings rent", "£975.00", "", "£2,772.93"],
                  ["11 Apr", "Greenway Energy direct debit", "£88.40", "", "£2,684.53"],
                  ["19 Apr", "Cash machine withdrawal", "£60.00", "", "£2,624.53"],
                  ["30 Apr", "Closing balance", "", "", "£2,624.53"]],
        "after": ["Arranged overdraft limit: £500.", "Questions about your account: 0345 711 9024."],
    },
    "payslip.pdf": {
        "lines": ["Wexford Labs Ltd", "Payslip", "Employee: Nadia Ferreira", "Employee number: WL-0458",
                  "Pay date: 28 April 2028", "Tax code: 1257L"],
        "table": [["Payments and deductions", "Amount"], ["Basic pay", "£3,125.00"], ["Overtime", "£210.00"],
                  ["Income tax", "-£448.20"], ["National Insurance", "-£186.80"],
                  ["Pension (5%)", "-£156.25"], ["Net pay", "£2,543.75"]],
        "after": ["Taxable pay to date this year: £6,670.00", "Holiday left: 14 days"],
    },
    "electricity-bill.pdf": {
        "lines": ["Greenway Energy", "Your electricity bill", "Account number: GE-7719-0042",
                  "Supply address: 14 Larch Road", "Billing period: 1 to 31 March 2028"],
        "table": [["Charge", "Detail", "Amount"], ["Electricity used", "262 kWh at 24.5p", "£64.19"],
                  ["Standing charge", "31 days at 53.4p", "£16.55"], ["VAT at 5%", "", "£4.04"],
                  ["Total this bill", "", "£84.78"]],
        "after": ["Meter reading on 31 March: 18342 (actual)", "Your monthly direct debit: £88.40",
                  "Power cut? Call 105."],
    },
    "travel-insurance.pdf": {
        "lines": ["Northwind Travel Insurance", "Policy schedule", "Policy number: NTI-55-90417",
                  "Insured: Nadia Ferreira, Tom Brennan", "Cover: annual multi-trip, Europe",
                  "Period: 1 May 2028 to 30 April 2029"],
        "table": [["Cover", "Limit", "Excess"], ["Medical expenses", "£10,000,000", "£75"],
                  ["Cancellation", "£3,000", "£75"], ["Baggage", "£1,500", "£50"],
                  ["Personal money", "£300", "£50"]],
        "after": ["Premium paid: £96.30", "Medical emergency abroad (24 hours): +44 20 7946 0321"],
    },
    "council-tax.pdf": {
        "lines": ["Harlow Vale District Council", "Council tax bill 2028/29", "Account reference: 60017734",
                  "Property: 14 Larch Road", "Valuation band: C"],
        "table": [["Charge", "Amount"], ["Harlow Vale District Council", "£231.18"],
                  ["County council", "£1,402.56"], ["Police", "£244.35"], ["Fire and rescue", "£82.91"],
                  ["Total for the year", "£1,961.00"]],
        "after": ["Payable in 10 monthly instalments of £196.10 from 1 April 2028.",
                  "To pay by direct debit call 01632 960 917."],
    },
}


def write(folder: Path) -> list[Path]:
    """Write every document of this set into `folder` (created); returns their paths."""
    return write_documents(folder, NOTES, PDFS)


def _q(i: int, question: str, doc: str, expect: list[str] | None, why: str = "") -> dict:
    return {"id": 300 + i, "question": question, "doc": doc, "expect": expect, "why": why, "part": "fourth"}


QUESTIONS: list[dict] = [_q(i + 1, *row) for i, row in enumerate([
    ("what was my balance at the end of april?", "bank-statement", ["2,624.53"]),
    ("how much did greenway energy take from the account?", "bank-statement", ["88.40"]),
    ("what's my sort code?", "bank-statement", ["30-94-62"]),
    ("how much interest did the current account earn in april?", "bank-statement", None, "value"),
    ("what is my savings account number?", "bank-statement", None, "item"),
    ("when is the year 4 trip?", "school-trip", ["18 May 2028"]),
    ("how much is the school trip and when do I have to pay by?", "school-trip", ["14", "5 May"]),
    ("what does my kid need to take on the caverns trip?", "school-trip",
     ["packed lunch", "waterproof coat", "sturdy shoes"]),
    ("what time does the coach get back to school?", "school-trip", ["16:00"]),
    ("what's mr oduya's email address?", "school-trip", None, "value"),
    ("when is the year 6 trip?", "school-trip", None, "item"),
    ("what was my take home pay in april?", "payslip", ["2,543.75"]),
    ("how much income tax was deducted?", "payslip", ["448.20"]),
    ("what's my tax code?", "payslip", ["1257L"]),
    ("how much went into my pension this month?", "payslip", ["156.25"]),
    ("how much bonus was I paid?", "payslip", None, "item"),
    ("what is Tom's employee number?", "payslip", None, "subject"),
    ("how long is the washing machine guaranteed for?", "washer-warranty", ["5 years"]),
    ("who do I call if the washer breaks down?", "washer-warranty", ["0330 123 4471"]),
    ("what's the serial number on the washing machine?", "washer-warranty", ["8814-22-0937"]),
    ("how much did we pay for the washing machine?", "washer-warranty", ["429"]),
    ("when does the dishwasher warranty run out?", "washer-warranty", None, "item"),
    ("how much is the deposit on the flat?", "tenancy", ["1,125"]),
    ("what's the monthly rent on larch road?", "tenancy", ["975"]),
    ("how much notice do we need to give the landlord?", "tenancy", ["two months"]),
    ("who is the landlord?", "tenancy", ["Calder Lettings"]),
    ("what's the fee for paying the rent late?", "tenancy", None, "value"),
    ("how heavy was biscuit at the last vet visit?", "biscuit-vet", ["13.4 kg"]),
    ("what's biscuit's microchip number?", "biscuit-vet", ["985 112 004 337 219"]),
    ("what is the dog allergic to?", "biscuit-vet", ["chicken"]),
    ("when did biscuit last have a worming tablet?", "biscuit-vet", ["1 April 2028"]),
    ("when was biscuit's rabies vaccination?", "biscuit-vet", None, "item"),
    ("when are the cat's next jabs due?", "biscuit-vet", None, "subject"),
    ("what time does my train to edinburgh leave?", "edinburgh-train", ["09:12"]),
    ("which seat am I in on the train?", "edinburgh-train", ["42"]),
    ("what's the booking ref for the edinburgh trip?", "edinburgh-train", ["TRX4Q9PL"]),
    ("what time do we get back into leeds?", "edinburgh-train", ["20:41"]),
    ("which platform does the edinburgh train go from?", "edinburgh-train", None, "value"),
    ("how much was the electricity bill for march?", "electricity-bill", ["84.78"]),
    ("how many kwh did we use in march?", "electricity-bill", ["262"]),
    ("what was the meter reading?", "electricity-bill", ["18342"]),
    ("what's the gas meter reading?", "electricity-bill", None, "subject"),
    ("how much was the gas bill?", "electricity-bill", None, "item"),
    ("who is the treasurer of the cycling club?", "cycling-club-minutes", ["Farah Nadeem"]),
    ("how much money has the club got in the bank?", "cycling-club-minutes", ["3,480"]),
    ("what is farah supposed to do before june?", "cycling-club-minutes", ["renew the club's insurance"]),
    ("when's the AGM?", "cycling-club-minutes", ["14 October 2028"]),
    ("what did declan roe offer to do?", "cycling-club-minutes", None, "role"),
    ("how much is junior membership of the club?", "cycling-club-minutes", None, "subject"),
    ("how many people does the dhal feed?", "dhal", ["4"]),
    ("how much coconut milk goes in the dhal?", "dhal", ["400 ml"]),
    ("how long do I simmer the lentils for?", "dhal", ["25 minutes"]),
    ("how much cumin do I need for the dhal?", "dhal", None, "item"),
    ("when is my hospital appointment?", "hospital-letter", ["14 June 2028", "10:50"]),
    ("which doctor will I see at the hospital?", "hospital-letter", ["Helena Marsh"]),
    ("what's my hospital number?", "hospital-letter", ["SAH-338164"]),
    ("what's tom's hospital number?", "hospital-letter", None, "subject"),
    ("how much does parking cost at st aldhelm's?", "hospital-letter", None, "value"),
    ("what's the excess if we have to cancel a trip?", "travel-insurance", ["75"]),
    ("how much baggage cover have we got?", "travel-insurance", ["1,500"]),
    ("what did the travel insurance cost?", "travel-insurance", ["96.30"]),
    ("what's the limit for winter sports cover?", "travel-insurance", None, "item"),
    ("what's the name of the hotel in lisbon?", "lisbon", ["Casa do Rio"]),
    ("what time is the train to sintra?", "lisbon", ["09:40"]),
    ("what's the confirmation number for the hotel and when can we check in?", "lisbon",
     ["88217364", "15:00"]),
    ("what time do we have to check out of the hotel?", "lisbon", None, "value"),
    ("what's the hotel's wifi password?", "lisbon", None, "value"),
    ("what is the flight number to porto?", "lisbon", None, "item"),
    ("how often do I need to descale the coffee machine?", "coffee-machine", ["3 months"]),
    ("what does E4 mean on the coffee machine?", "coffee-machine", ["tank is empty"]),
    ("how much water does the coffee machine's tank hold?", "coffee-machine", ["1.2 litres"]),
    ("what does error E7 mean on the coffee machine?", "coffee-machine", None, "item"),
    ("what council tax band is the house in?", "council-tax", ["C"]),
    ("how much council tax do we pay for the whole year?", "council-tax", ["1,961"]),
    ("how much is each council tax instalment?", "council-tax", ["196.10"]),
    ("what's the water rates bill for larch road?", "council-tax", None, "item"),
])]
