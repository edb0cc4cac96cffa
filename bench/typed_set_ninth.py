"""A ninth held-out typed set (issue 33, session 24): 17 everyday documents (10 notes, 7 PDFs with
ruled tables) and 134 questions, 45 of them unanswerable, written from scratch by the helper
heldout24 of session 24 without reading the answerer (src/cairn/answer/), the assistant
(src/cairn/assistant/) or src/cairn/ops/: an outside user's documents and questions, on topics the
earlier sets do not centre on (a gym membership contract, a boiler service report, a wedding RSVP
list, a garden centre order, a music lesson timetable, an allotment society letter, a laptop repair
ticket, a child's passport renewal checklist, notes for a babysitter, a book club rota; as PDFs a
train season ticket renewal, a home insurance claim form, an optician's receipt, a skip hire
invoice, a swimming club term invoice, a removals quotation and a chimney sweep certificate). Every
person, company, place, amount, date, code and phone number is invented (phone numbers from the
drama ranges: 01632 960xxx, 07700 900xxx); no third-party text. Same shape as bench/typed_set.py
(`write`, `QUESTIONS`, `expect` a list of strings the answer must each hold, case and spacing
folded, None for an unanswerable question, `why` the way it is unanswerable: "attribute" - the
asked attribute is written of another subject, or the subject is there without it while its other
attributes are; "type" - no value of the asked type in the note; "subject" - another item of the
same kind, absent; "role" - the person, payment or date is named but not in the asked role).
Questions are typed the way a person types them (lower case, their own words rather than the
note's label: "subs" for "Subscriptions", "run out" for "expires", "pick up" for "Collection",
"seating plan" for "Table plan"; phrasal verbs, two-part questions, lists, "how do i", yes/no), and
the unanswerable ones are tempting: the documents hold a value of the same type for another role
or subject.

Held out: nobody tunes on it. Every question is `part` "ninth" and is asked once on the start
commit by heldout24 (figures in bench/README.md, "Session 24 — heldout24") and once by the lead at
the end of session 24 (`python bench/answers_typed.py --set ninth`); its failures are recorded, not
fixed in the same session.
"""

from __future__ import annotations

from pathlib import Path

from typed_set import write_documents

NOTES: dict[str, str] = {
    "gym-membership.md": """# Gym membership

Ironvale Fitness, 3 Quarry Lane, Pellingford, 01632 960 371
Member: Wenna Trelawder, membership number IVF-30418
Plan: Off-Peak, 12-month minimum term from 2 January 2030
Subscriptions: £27.50 a month by Direct Debit on the 5th of the month.
Joining fee: £20, waived in the January offer.
Off-peak hours: weekdays before 4pm and after 8pm, weekends all day.
Guest passes: 2 a year, free.
Freezing: up to 3 months a year at £5 a month, with 14 days' notice.
Cancellation: after the minimum term, one full calendar month's notice in writing.
Classes are booked on the app up to 7 days ahead; cancelling less than 2 hours before costs £3.
Induction: Saturday 4 January 2030 at 10am with the trainer Dacey Mulvane.
Opening hours: 6am to 10pm Monday to Friday, 8am to 6pm Saturday and Sunday.
Lockers: bring your own padlock; lockers are emptied at closing time.
""",
    "boiler-service.md": """# Boiler service report

Feathersby Heating, engineer Lorcan Feathersby, 07700 900 635
Visit: 18 September 2029 at 9 Sedgewick Road, Pellingford
Appliance: Valtherm Combi 30 combination boiler in the kitchen cupboard, fitted in 2021.
Flue gas reading: CO 42 ppm, CO/CO2 ratio 0.0041, pass.
Working gas pressure: 20.4 mbar.
System pressure: topped up from 0.6 bar to 1.3 bar. Keep it between 1 and 1.5 bar when the system is cold.
Condensate pipe lagged outside so it does not freeze.
Carbon monoxide alarm in the kitchen tested and working; the unit must be replaced by March 2031.
Back bedroom radiator was cold at the top: bled today.
Advised: fit a magnetic filter, quoted at £145 fitted.
Charge for today: £85, paid by card.
Next service due: September 2030. The Valtherm warranty runs to June 2031 as long as the boiler
is serviced every year.
""",
    "wedding-rsvps.md": """# RSVPs for Tamsin and Jory's wedding

Wedding: Saturday 14 June 2030. Ceremony at 1pm at St Branoc's Church, then the reception at Kelyn Barn.
Replies wanted by 1 March 2030.

- Aunt Morwenna Trelawder: yes, beef; needs step-free access
- Uncle Hedley Trelawder: yes, fish
- Cousin Petroc Dunmore and his partner Elowen: yes, both vegetarian
- Gerent Polglase: no, he is away in Canada
- Ysella and Kit Pascoe: yes, one beef and one fish, plus their daughter Lowenna (children's meal)
- Mr and Mrs Boscawen: no reply yet
- Jenifer Rowe: yes, evening only

So far: 9 coming for the whole day, 1 for the evening only, 1 can't come, 2 still to reply.
Jenifer is making the cake.
The table plan has to be with Kelyn Barn by 31 May.
Kelyn Barn: Demelza Hosken, 01632 960 492.
""",
    "garden-centre-order.md": """# Fernhollow garden centre order

Order FH-77120, placed on 22 March 2030 by Osric Dunmore.
Delivery: Thursday 3 April 2030 between 7am and 1pm; leave it by the side gate.

- 6 bags of peat-free multipurpose compost, 50 litres, £7.99 a bag
- 1 Victoria plum tree, two years old, bare root, £34.99
- 3 lavender 'Hidcote' in 2 litre pots, £6.50 each
- 1 galvanised watering can, 10 litres, £18.00
- 1 net of 20 'Charlotte' seed potatoes, £4.25

Order total: £124.68, paid by card. Delivery is free on orders over £100.
Out of stock, to follow: the Oakhampton raised bed kit (120cm), expected in mid-April.
Plants are guaranteed for 12 months if you keep the receipt.
Fernhollow Garden Centre: 01632 960 258.
""",
    "music-lessons.md": """# Music lessons, spring term 2030

Mabyn: piano with Mrs Ottoline Brasher, Mondays 4.15pm to 4.45pm at her house, 12 Rook Street.
£19 a lesson, paid by the term (£209 for 11 lessons). Working towards Grade 2 in June; the exam fee is £48.
Practice: 15 minutes a day, scales of C and G major.

Tobin: violin with Mr Rhys Aldercott at school on Wednesdays. The time moves round each week on a
rota pinned to the music room door. £14 a lesson, paid to the county music service.
Violin hire from Pellingford Music: £45 a term, 01632 960 614. Tobin's violin is a quarter size.

No lessons in half term (17 to 21 February).
Mrs Brasher: 07700 900 127. Mr Aldercott: through the school office, 01632 960 339.
Summer concert: Friday 11 July at 6pm in the school hall.
""",
    "allotment-letter.md": """# Letter from Pellingford Allotment Society

Dear Mr Dunmore,

Plot 14B, Tanyard Lane site.

Your rent for 2030 is £42 for your half plot, due by 31 January 2030. Please pay our treasurer,
Mr Barnaby Quenell, by bank transfer (sort code 20-71-48, account 40318826) or in cash at the hut
on Sunday mornings.

The water troughs are turned on on 1 April and off on 31 October. Bonfires are not allowed
between 1 April and 30 September. The committee will walk round the plots on Saturday 17 May;
plots less than three-quarters cultivated will get a warning letter.

A skip for rubbish will be at the gate from 7 to 9 March. Manure is delivered free to members on
the first weekend of November. The gate padlock code changes to 2096 on 1 February.

The annual general meeting is on Tuesday 18 February at 7.30pm in the Scout hut.

Yours sincerely,
Annis Rowlatt, Secretary, 01632 960 801
""",
    "laptop-repair.md": """# Laptop repair ticket

Fixwell Computers, 27 Market Arcade, Pellingford, 01632 960 166
Ticket number: FX-5123
Booked in: 2 October 2029 by Wenna Trelawder
Device: Corvane Slate 14 laptop, serial number CV14-88201-K
Fault reported: will not charge, the battery runs down in under an hour, the S key sticks.
Diagnosis: worn charging port; battery at 61% of its design capacity.
Quote: new charging port £65 fitted, new battery £89, keyboard clean £15. All three approved by phone on 3 October.
Backups: we do not back up customer files; the customer says she has her own backup.
Password left with us: no.
Ready: Wednesday 9 October after 2pm. Bring this ticket to collect; items not collected within 90 days are recycled.
Repair warranty: 6 months on parts and labour.
Technician: Jago Treloar.
""",
    "passport-checklist.md": """# Tobin's passport renewal

Tobin's passport expires on 12 August 2030: renew it before the Brittany trip in July.
Child passport fee: £61.50 online, £73.50 by post.
Allow 3 weeks. The fast track service costs £207.50 and needs an appointment.

- [x] Digital photo from Snapshot Studio; photo code on the receipt: 7KQ2-P9WM-4TX8
- [ ] Countersignatory (must have known us for 2 years): ask Mrs Penhale next door, she is a nurse
- [ ] Send the old passport back within 7 days of applying
- [ ] Find Tobin's full birth certificate

Old passport number: 139407725.
Application reference: write it here once we have applied.
""",
    "babysitter-notes.md": """# Notes for Keziah (babysitting on Saturday)

Thank you for sitting on Saturday 8 February! We will be out from 7pm to about 11.30pm at the
Trevisker Arms for Osric's 40th.

Bedtimes: Tobin 7.30pm, Mabyn 8.15pm (she can read in bed until 8.45).
Tobin is allergic to peanuts and cashews. His EpiPen is in the kitchen drawer next to the cooker.
They will have had tea before you come. After the bath they can have a yoghurt or some toast.
Screens: one episode of something after tea, no tablets in the bedrooms.
Wifi password: PellingfordHouse-88
Please fill the rabbit's water bottle (she is called Bluey).
Numbers: Wenna 07700 900 744, Osric 07700 900 689, Nana Trelawder (5 minutes away) 01632 960 577.
We pay £12 an hour, and a taxi home is booked for midnight if we are late.
""",
    "book-club.md": """# Book club rota 2030

We meet on the last Thursday of the month at 7.30pm at the host's house. The host picks the book
and does the food.

- 30 January: Sorcha Penwarden, "The Salt Orchard" by Delphine Marrow
- 27 February: Wenna, "Lanterns on the Ebb" by Caius Thorne
- 27 March: Ilse Brankin, "A Year of Small Rivers" by Oona Fallis
- 24 April: Hattie Colquite, book to be confirmed
- 29 May: Verity Nankivell, "The Cartographer's Daughter" by Emrys Vell

£2 a meeting for the coffee fund; Ilse keeps the tin.
The WhatsApp group is called Page Turners.
When it's my turn I bake the lemon and poppyseed loaf.
""",
}

PDFS: dict[str, dict] = {
    "season-ticket.pdf": {
        "lines": ["Tamarlink Rail", "Season ticket renewal", "Customer: Osric Dunmore",
                  "Photocard number: 4471 0092", "Route: Pellingford to Carrowmouth, any permitted route",
                  "Class: Standard"],
        "table": [["Ticket", "Valid from", "Valid to", "Price"],
                  ["Current annual season", "14 April 2029", "13 April 2030", "£3,412.00"],
                  ["Renewal annual season", "14 April 2030", "13 April 2031", "£3,548.00"],
                  ["Monthly season (for comparison)", "", "", "£341.10"],
                  ["Weekly season (for comparison)", "", "", "£88.80"]],
        "after": ["Renew by 6 April 2030 so your new ticket reaches you in time.",
                  "Renew at the ticket office or call 01632 960 705.",
                  "Your annual season gives a third off off-peak leisure journeys on our network.",
                  "Parking at Pellingford station is not included: an annual permit is £620.",
                  "Delay Repay: claim for delays of 15 minutes or more within 28 days."],
    },
    "insurance-claim.pdf": {
        "lines": ["Harbourlight Home Insurance", "Claim form: escape of water",
                  "Policy number: HHI-209384-B", "Claim reference: CLM-661043",
                  "Policyholders: Wenna Trelawder and Osric Dunmore, 9 Sedgewick Road, Pellingford",
                  "Date of incident: 11 January 2030",
                  "What happened: the washing machine hose split and flooded the kitchen; water came "
                  "through the dining room ceiling."],
        "table": [["Item damaged", "Age", "Replacement cost", "Claimed"],
                  ["Kitchen laminate floor (14 m2)", "6 years", "£980.00", "£980.00"],
                  ["Dining room ceiling repair and redecoration", "", "£640.00", "£640.00"],
                  ["Washing machine hose", "2 years", "£18.00", "£0.00 (not covered: wear and tear)"],
                  ["Dining room rug", "3 years", "£210.00", "£210.00"],
                  ["Total claimed", "", "", "£1,830.00"]],
        "after": ["Excess for escape of water: £250.",
                  "Our loss adjuster, Mr Fenwick Rosewarne, will visit on 21 January 2030 between 9am and 12pm.",
                  "Please keep damaged items until the loss adjuster has seen them.",
                  "Claims line, open 24 hours: 01632 960 930."],
    },
    "optician-receipt.pdf": {
        "lines": ["Clearsight Opticians, 5 Fore Street, Pellingford, 01632 960 415", "Receipt CS-30871",
                  "Date: 20 November 2029", "Patient: Mabyn Dunmore, age 9", "Optometrist: Ms Tegen Vosper"],
        "table": [["Item", "Price", "Voucher", "You pay"],
                  ["Sight test (NHS)", "£0.00", "", "£0.00"],
                  ["Frames: Kestrel Junior, red", "£60.00", "", "£60.00"],
                  ["Single vision lenses, anti-glare", "£44.00", "", "£44.00"],
                  ["NHS optical voucher A", "", "-£44.30", "-£44.30"],
                  ["Total paid", "", "", "£59.70"]],
        "after": ["Prescription: right -0.75, left -1.00. Short sighted: glasses for the board at school and for TV.",
                  "Glasses ready to collect from 4 December 2029.",
                  "Next sight test due in 12 months, November 2030.",
                  "Children's frames are guaranteed against breakage for one year: one free replacement."],
    },
    "skip-hire.pdf": {
        "lines": ["Trevail Skip Hire", "Invoice TSH-4419", "Invoice date: 28 February 2030",
                  "Customer: Osric Dunmore, 9 Sedgewick Road, Pellingford",
                  "Delivery: 3 March 2030. Collection: 10 March 2030 (7 days hire)"],
        "table": [["Item", "Qty", "Price"],
                  ["6 yard builders skip, 7 days", "1", "£265.00"],
                  ["Council permit for a skip on the road", "1", "£45.00"],
                  ["Extra days", "0", "£18.00 per day"],
                  ["Subtotal", "", "£310.00"],
                  ["VAT 20%", "", "£62.00"],
                  ["Total", "", "£372.00"]],
        "after": ["Council permit number: PBC-8820.",
                  "Not allowed in the skip: plasterboard, fridges, tyres, paint tins, batteries, gas bottles.",
                  "Mattresses are £25 each extra. Do not fill above the sides.",
                  "To have the skip collected early, call 01632 960 268."],
    },
    "swim-club-invoice.pdf": {
        "lines": ["Pellingford Otters Swimming Club", "Summer term 2030 invoice", "Invoice POS-2263",
                  "Swimmer: Tobin Dunmore",
                  "Group: Stage 3, Tuesdays at 5.30pm, Pellingford Leisure Pool", "Coach: Nessa Kitto"],
        "table": [["Item", "Weeks", "Rate", "Amount"],
                  ["Lessons", "11", "£8.40", "£92.40"],
                  ["Club membership (annual)", "", "", "£25.00"],
                  ["Sibling discount, 10% of lessons", "", "", "-£9.24"],
                  ["Amount due", "", "", "£108.16"]],
        "after": ["Please pay by 15 April 2030.",
                  "No lesson in the week of 27 May: the pool is closed.",
                  "Badges and certificates: £3.50 each.",
                  "Club gala on Sunday 22 June, entry £6 a swimmer.",
                  "Club secretary: 01632 960 932."],
    },
    "removals-quote.pdf": {
        "lines": ["Carrick Removals", "Quotation Q-1907", "Date: 9 May 2030", "For: Ms W. Trelawder",
                  "From: 9 Sedgewick Road, Pellingford", "To: 2 Lantern Hill, Carrowmouth",
                  "Moving day: Friday 27 June 2030"],
        "table": [["Service", "Price"],
                  ["Removal of a 3 bedroom house, 4 men and a 7.5 tonne van", "£1,150.00"],
                  ["Packing service, the day before", "£380.00"],
                  ["Packing materials (40 boxes, tape, paper)", "£95.00"],
                  ["Upright piano", "£160.00"],
                  ["Goods in transit cover up to £50,000", "Included"],
                  ["Total including VAT", "£1,785.00"]],
        "after": ["A deposit of £200 secures the date; the balance is due 7 days before the move.",
                  "Our crew arrives at 8am on the day.",
                  "Storage: £28 a week per container.",
                  "This quotation is valid for 30 days.",
                  "Questions: call 01632 960 849 and ask for Mr Kenwyn Bolitho."],
    },
    "chimney-sweep.pdf": {
        "lines": ["Sootwell Chimney Sweeps", "Certificate of chimney sweeping", "Certificate number: SW-11587",
                  "Address: 9 Sedgewick Road, Pellingford", "Date swept: 6 October 2029",
                  "Sweep: Ander Pengelly"],
        "table": [["Appliance", "Fuel", "Flue", "Result"],
                  ["Living room wood burner", "Wood", "Lined, 6 inch", "Swept, smoke test passed"],
                  ["Dining room open fire", "Not in use", "Unlined", "Not swept, capped"]],
        "after": ["Soot removed: about 2 litres, light and dry.",
                  "Bird guard fitted on the living room chimney pot.",
                  "Advice: burn only wood with under 20% moisture; have the chimney swept twice a year.",
                  "Charge: £70, paid in cash.",
                  "Next sweep recommended: April 2030. Bookings: 07700 900 562."],
    },
}


def write(folder: Path) -> list[Path]:
    """Write every document of this set into `folder` (created); returns their paths."""
    return write_documents(folder, NOTES, PDFS)


def _q(i: int, question: str, doc: str, expect: list[str] | None, why: str = "") -> dict:
    return {"id": 900 + i, "question": question, "doc": doc, "expect": expect, "why": why, "part": "ninth"}


QUESTIONS: list[dict] = [_q(i + 1, *row) for i, row in enumerate([
    # gym membership
    ("how much are my gym subs", "gym-membership", ["27.50"]),
    ("can i freeze my gym membership", "gym-membership", ["3 months", "£5"]),
    ("how do i cancel the gym", "gym-membership", ["calendar month", "in writing"]),
    ("when's my induction at the gym and who is it with", "gym-membership", ["4 January", "Dacey Mulvane"]),
    ("what time does ironvale open on a sunday", "gym-membership", ["8am"]),
    ("how much is the peak membership at ironvale", "gym-membership", None, "subject"),
    ("whats dacey's phone number", "gym-membership", None, "attribute"),
    ("how much does a spin class cost on top", "gym-membership", None, "type"),
    # boiler service
    ("what pressure should the boiler be at", "boiler-service", ["between 1 and 1.5 bar"]),
    ("when's the boiler next due a service", "boiler-service", ["September 2030"]),
    ("how much would the magnetic filter be", "boiler-service", ["145"]),
    ("when do i need to swap the carbon monoxide alarm", "boiler-service", ["March 2031"]),
    ("what did we pay for the boiler service", "boiler-service", ["£85"]),
    ("when does the smoke alarm in the hall need replacing", "boiler-service", None, "subject"),
    ("who fitted the boiler in 2021", "boiler-service", None, "role"),
    ("what temperature is the hot water set to", "boiler-service", None, "attribute"),
    # wedding rsvps
    ("who hasn't got back to us about the wedding", "wedding-rsvps", ["Boscawen"]),
    ("what's aunt morwenna having to eat", "wedding-rsvps", ["beef"]),
    ("is gerent coming to the wedding", "wedding-rsvps", ["Canada"]),
    ("how many people are coming for the whole day", "wedding-rsvps", ["9 coming"]),
    ("who's making the wedding cake", "wedding-rsvps", ["Jenifer"]),
    ("when do the barn need the seating plan by", "wedding-rsvps", ["31 May"]),
    ("what time does the reception at kelyn barn start", "wedding-rsvps", None, "attribute"),
    ("who is jory's best man", "wedding-rsvps", None, "role"),
    ("whats petroc's mobile number", "wedding-rsvps", None, "attribute"),
    # garden centre order
    ("when is the garden centre stuff arriving", "garden-centre-order", ["3 April"]),
    ("how much was the plum tree", "garden-centre-order", ["34.99"]),
    ("did we have to pay for delivery from fernhollow", "garden-centre-order", ["free"]),
    ("what's still to come from the garden centre", "garden-centre-order", ["raised bed"]),
    ("what did we order from fernhollow", "garden-centre-order",
     ["compost", "plum tree", "lavender", "watering can", "seed potatoes"]),
    ("how much was the apple tree from fernhollow", "garden-centre-order", None, "subject"),
    ("how much is the raised bed kit", "garden-centre-order", None, "attribute"),
    ("what's the delivery driver's number", "garden-centre-order", None, "role"),
    # music lessons
    ("what time is mabyn's piano on a monday", "music-lessons", ["4.15"]),
    ("how much is tobin's violin lesson", "music-lessons", ["£14"]),
    ("how do i get hold of mrs brasher", "music-lessons", ["07700 900 127"]),
    ("when is mabyn's piano exam and how much is it", "music-lessons", ["June", "48"]),
    ("how much is it to rent tobin's violin", "music-lessons", ["£45"]),
    ("what size violin has tobin got", "music-lessons", ["quarter"]),
    ("how much is tobin's violin exam", "music-lessons", None, "subject"),
    ("whats mr aldercott's mobile", "music-lessons", None, "attribute"),
    ("what day is mabyn's guitar lesson", "music-lessons", None, "subject"),
    # allotment letter
    ("how much is the allotment rent and when do i have to pay it by", "allotment-letter",
     ["£42", "31 January"]),
    ("when do they switch the water on at the allotment", "allotment-letter", ["1 April"]),
    ("can i have a bonfire on the allotment in august", "allotment-letter", ["30 September"]),
    ("whats the new code for the allotment gate", "allotment-letter", ["2096"]),
    ("when's the allotment agm", "allotment-letter", ["18 February"]),
    ("when is the skip at the allotments", "allotment-letter", ["7 to 9 March"]),
    ("what's the treasurer's phone number", "allotment-letter", None, "attribute"),
    ("how much is a full plot", "allotment-letter", None, "subject"),
    ("who chairs the allotment society", "allotment-letter", None, "role"),
    # laptop repair
    ("whats wrong with my laptop", "laptop-repair", ["charging port", "battery"]),
    ("when can i pick up the laptop", "laptop-repair", ["9 October"]),
    ("how much is the new battery for the laptop", "laptop-repair", ["89"]),
    ("how long is the laptop repair guaranteed for", "laptop-repair", ["6 months"]),
    ("what's my ticket number at fixwell", "laptop-repair", ["FX-5123"]),
    ("how much would a new screen be for the laptop", "laptop-repair", None, "subject"),
    ("whats jago's phone number", "laptop-repair", None, "attribute"),
    ("what's the password for my laptop", "laptop-repair", None, "type"),
    # passport checklist
    ("how much is a kids passport if i do it online", "passport-checklist", ["61.50"]),
    ("who's countersigning tobin's passport form", "passport-checklist", ["Penhale"]),
    ("when does tobin's passport run out", "passport-checklist", ["12 August 2030"]),
    ("what have i still got to do for tobin's passport", "passport-checklist",
     ["countersign", "old passport", "birth certificate"]),
    ("whats the code for tobin's passport photo", "passport-checklist", ["7KQ2-P9WM-4TX8"]),
    ("when does mabyn's passport expire", "passport-checklist", None, "subject"),
    ("whats the application reference for tobin's passport", "passport-checklist", None, "type"),
    ("how much is an adult passport", "passport-checklist", None, "subject"),
    # babysitter notes
    ("what time does tobin go to bed", "babysitter-notes", ["7.30"]),
    ("where's tobin's epipen kept", "babysitter-notes", ["kitchen drawer"]),
    ("whats our wifi password", "babysitter-notes", ["PellingfordHouse-88"]),
    ("who can keziah ring if she can't get hold of us", "babysitter-notes", ["01632 960 577"]),
    ("what is tobin allergic to", "babysitter-notes", ["peanuts", "cashews"]),
    ("how much do we pay the babysitter", "babysitter-notes", ["£12"]),
    ("what's keziah's number", "babysitter-notes", None, "role"),
    ("is mabyn allergic to anything", "babysitter-notes", None, "subject"),
    ("whats the burglar alarm code", "babysitter-notes", None, "type"),
    # book club
    ("when am i hosting book club and what's the book", "book-club", ["27 February", "Lanterns on the Ebb"]),
    ("who's got book club in march", "book-club", ["Ilse"]),
    ("what are we reading for may", "book-club", ["Cartographer's Daughter"]),
    ("who looks after the book club money", "book-club", ["Ilse"]),
    ("what time does book club start", "book-club", ["7.30"]),
    ("which book has hattie picked", "book-club", None, "type"),
    ("who is hosting book club in june", "book-club", None, "subject"),
    ("whats sorcha's address", "book-club", None, "attribute"),
    # season ticket (PDF)
    ("how much is my season ticket going up to", "season-ticket", ["3,548"]),
    ("when does my current season ticket run out", "season-ticket", ["13 April 2030"]),
    ("when do i have to renew the train ticket by", "season-ticket", ["6 April"]),
    ("how much would a monthly season be instead", "season-ticket", ["341.10"]),
    ("how long have i got to claim for a late train", "season-ticket", ["28 days"]),
    ("how much is a first class annual season", "season-ticket", None, "subject"),
    ("what's wenna's photocard number", "season-ticket", None, "role"),
    # insurance claim (PDF)
    ("how much are we claiming for altogether", "insurance-claim", ["1,830"]),
    ("whats the excess on the flood claim", "insurance-claim", ["250"]),
    ("when is the loss adjuster coming round", "insurance-claim", ["21 January"]),
    ("is the split hose covered", "insurance-claim", ["not covered"]),
    ("can we throw out the wet rug yet", "insurance-claim", ["loss adjuster"]),
    ("whats our claim ref", "insurance-claim", ["CLM-661043"]),
    ("what's the excess for accidental damage", "insurance-claim", None, "subject"),
    ("what's the loss adjuster's mobile", "insurance-claim", None, "attribute"),
    ("how much are we claiming for the dishwasher", "insurance-claim", None, "subject"),
    # optician receipt (PDF)
    ("how much did we pay for mabyn's glasses", "optician-receipt", ["59.70"]),
    ("when can we pick up mabyn's glasses", "optician-receipt", ["4 December"]),
    ("when does mabyn need her eyes testing again", "optician-receipt", ["November 2030"]),
    ("how much was the nhs voucher worth", "optician-receipt", ["44.30"]),
    ("what's tobin's glasses prescription", "optician-receipt", None, "subject"),
    ("how much was the glasses case", "optician-receipt", None, "subject"),
    # skip hire (PDF)
    ("how much is the skip altogether", "skip-hire", ["372"]),
    ("what can't we put in the skip", "skip-hire",
     ["plasterboard", "fridges", "tyres", "paint", "batteries", "gas bottles"]),
    ("when are they taking the skip away", "skip-hire", ["10 March"]),
    ("how much extra to chuck a mattress in", "skip-hire", ["£25"]),
    ("what if we keep the skip longer", "skip-hire", ["£18"]),
    ("how much is an 8 yard skip", "skip-hire", None, "subject"),
    ("when does the skip permit expire", "skip-hire", None, "attribute"),
    # swim club invoice (PDF)
    ("how much do i owe the swimming club", "swim-club-invoice", ["108.16"]),
    ("when is tobin's swimming", "swim-club-invoice", ["Tuesday", "5.30"]),
    ("is there swimming in the week of the 27th of may", "swim-club-invoice", ["closed"]),
    ("how much does it cost to enter the gala", "swim-club-invoice", ["£6"]),
    ("who coaches tobin at swimming", "swim-club-invoice", ["Nessa Kitto"]),
    ("how much is mabyn's swimming this term", "swim-club-invoice", None, "subject"),
    ("whats nessa's phone number", "swim-club-invoice", None, "attribute"),
    # removals quote (PDF)
    ("how much is the removal quote", "removals-quote", ["1,785"]),
    ("what time do the removal men turn up", "removals-quote", ["8am"]),
    ("will they move the piano and how much", "removals-quote", ["160"]),
    ("how long is the removals quote good for", "removals-quote", ["30 days"]),
    ("how much is the deposit for carrick", "removals-quote", ["£200"]),
    ("when is the deposit due", "removals-quote", None, "attribute"),
    ("how much is carrick's cleaning service", "removals-quote", None, "subject"),
    # chimney sweep (PDF)
    ("when did the sweep come", "chimney-sweep", ["6 October 2029"]),
    ("how often should we get the chimney swept", "chimney-sweep", ["twice a year"]),
    ("how wet can the logs be", "chimney-sweep", ["20%"]),
    ("how do i book the sweep again", "chimney-sweep", ["07700 900 562"]),
    ("was the open fire in the dining room swept", "chimney-sweep", ["not swept"]),
    ("what size is the flue on the dining room fire", "chimney-sweep", None, "attribute"),
    ("how much did the bird guard cost", "chimney-sweep", None, "attribute"),
])]
