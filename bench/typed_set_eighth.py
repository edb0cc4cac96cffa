"""An eighth held-out typed set (issue 33, session 23): 18 everyday documents (11 notes, 7 PDFs with
ruled tables) and 113 questions, 38 of them unanswerable, written from scratch by the helper
heldout23 of session 23 without reading the answerer (src/cairn/answer/), the assistant
(src/cairn/assistant/) or src/cairn/ops/: an outside user's documents and questions, on topics the
earlier sets do not centre on (a cat's vet record, a primary school newsletter, a tenancy
agreement, a cordless vacuum's warranty card, residents' association minutes, a lemon drizzle
recipe, a car insurance schedule, a dentist's letter, a hardware shop receipt, a holiday cottage
booking, a bike service job card; as PDFs an electricity bill, a plumber's invoice, a council tax
bill, a ferry booking, a nursery invoice, a mobile phone bill and a pet insurance schedule). Every
person, company, place, amount, date, code and phone number is invented (phone numbers from the
drama ranges: 01632 960xxx, 07700 900xxx, 08081 570xxx); no third-party text. Same shape as
bench/typed_set.py (`write`, `QUESTIONS`, `expect` a list of strings the answer must each hold,
case and spacing folded, None for an unanswerable question, `why` the way it is unanswerable:
"attribute" - the asked attribute is written of another subject (the front tyre, not the rear),
or the subject is there without it while its other attributes are; "type" - no value of the asked
type in the note (a value the documents never state); "subject" - another item of the same kind,
absent (a carrot cake where only a lemon cake is written, another invoice's total); "role" - the
person, payment or date is named but not in the asked role, e.g. only present at a meeting, only
sent apologies, only the other policyholder). Questions are typed the way a person types them
(lower case, their own words rather than the note's, two-part questions, lists, "how do i",
yes/no), and the unanswerable ones are tempting: the documents hold a value of the same type for
another role or subject.

Held out: nobody tunes on it. Every question is `part` "eighth" and is asked once on the start
commit by heldout23 (figures in bench/README.md, "Session 23 — heldout23") and once by the lead at
the end of session 23 (`python bench/answers_typed.py --set eighth`); its failures are recorded, not
fixed in the same session.
"""

from __future__ import annotations

from pathlib import Path

from typed_set import write_documents

NOTES: dict[str, str] = {
    "vet-record.md": """# Vet record for Pickle

Hollybrook Veterinary Surgery, 14 Tanner's Row, Cressmoor
Tel: 01632 960 547

Patient: Pickle, female tabby cat, born March 2025, microchip 977200009145832
Owner: Ottilie Marchbank
Seen on 12 February 2029 by Idris Penhallow MRCVS.

Annual booster (cat flu and enteritis) given today.
Weight 4.3 kg, up from 3.9 kg last year: cut her dry food down to 50g a day.
Flea and worm treatment: Fellguard spot-on, one pipette a month; 3 pipettes dispensed, £27.60.
Consultation and vaccination: £58.00.
Teeth: mild tartar on the upper back teeth, to be checked again at the next booster.
Next booster due: February 2030.
""",
    "school-newsletter.md": """# Larkspur Lane Primary newsletter, 9 March 2029

From the headteacher, Mrs Cordelia Fenwright

World Book Day is on Thursday 15 March. Children can come to school dressed as a character from
a book; please send in £1 for the library fund.

Year 4 trip to Blackwater Roman Fort: Tuesday 27 March. The coaches leave at 8.45am and are back
by 3.30pm. The trip costs £14.50, to be paid on ParentPay by 20 March. Children need a packed lunch
(no fizzy drinks, please) and a waterproof coat.

Parents' evenings: Monday 19 and Wednesday 21 March, 3.30pm to 6.30pm. Book a ten-minute slot
through the school office on 01632 960 128.

Easter holidays: school closes at 2pm on Thursday 29 March and reopens on Monday 16 April.

Well done to our Year 6 netball team, who won the Cressmoor schools tournament!

Lost property: a blue lunchbox labelled "Rufus" is waiting in the office.
""",
    "tenancy-agreement.md": """# Tenancy agreement for 17 Wherry Court

Landlord: Mr Augustin Pellow
Letting agent: Thornbury and Vale Lettings, 01632 960 903 (property manager: Saffi Kettleborough)
Tenants: Ottilie Marchbank and Rhodri Vance
Term: 12 months from 1 May 2029
Rent: £1,185 per calendar month, paid on the 1st of each month by standing order.
Deposit: £1,367, protected with the Tenancy Safeguard Scheme, certificate number TSS-4408217.
Break clause: either side may end the tenancy after 6 months by giving 2 months' written notice.
Pets: one cat allowed, with the landlord's written consent (given on 3 April 2029).
The tenants pay the council tax, gas, electricity, water and broadband.
The landlord pays the buildings insurance and the annual gas safety check.
No smoking anywhere in the property. The locks must not be changed without consent.
Repairs: report them to the agent in writing. Emergencies (no heating, a leak, no power) go to the
out-of-hours line on 07700 900 814.
""",
    "vacuum-warranty.md": """# Warranty card for the Zephyrine vacuum

Product: Zephyrine V9 cordless stick vacuum, model ZV9-220
Serial number: ZV9220-55871-B
Bought on 28 November 2028 from Brindlecombe Electricals for £249.99.
Warranty: 2 years on the motor and body from the date of purchase; the battery is covered for 12 months.
Registering within 28 days extends the motor warranty to 5 years (we registered on 2 December 2028).
Not covered: filters, brush rolls, and damage from picking up water or ash.
To claim, call Zephyrine Care on 08081 570 219 with the serial number and your proof of purchase.
Wash the filter once a month in cold water and let it dry for 24 hours before putting it back.
""",
    "residents-meeting.md": """# Wherry Court Residents' Association minutes, 22 May 2029

Present: Ottilie Marchbank (chair), Bartholomew Ince, Marisol Quarrie, Henrike Oduro, Fintan Lowsley
Apologies: Perpetua Skellow

1. Bin store: the lock is broken again. Bartholomew agreed to report it to the managing agent by Friday.
2. Garden: Marisol will organise a planting day on Saturday 16 June, 10am to 1pm. The association
   will spend up to £150 on plants.
3. Service charge: going up from £96 to £104 a month from July. Henrike asked to see the managing
   agent's breakdown of the costs.
4. Parking: two visitor bays are to be painted. Fintan will get quotes.
5. Summer barbecue: Sunday 8 July at 2pm in the courtyard, £5 a head for adults, children free.

Next meeting: Tuesday 18 September 2029 at 7pm in the community room.
""",
    "lemon-drizzle.md": """# Nana Eulalie's lemon drizzle cake

Serves 10. Bake in a 2lb loaf tin lined with baking paper.

Cake: 225g softened butter, 225g caster sugar, 4 eggs, 225g self-raising flour and the zest of 2 lemons.
Drizzle: the juice of 1 and a half lemons mixed with 85g granulated sugar.

1. Heat the oven to 180C (160C fan).
2. Beat the butter and sugar until pale, add the eggs one at a time, then fold in the flour and zest.
3. Bake for 45 to 50 minutes, until a skewer comes out clean.
4. While it is still warm, prick it all over with a fork and pour the drizzle over.
5. Leave it in the tin until completely cool.

Keeps for 3 days in a tin, or freeze it for up to a month.
""",
    "car-insurance.md": """# Car insurance policy schedule

Insurer: Kestrelmoor Motor Insurance
Policy number: KMI-7730418-C
Policyholder: Rhodri Vance
Car: 2021 Halcyon Brisa 1.4 hatchback, registration KX21 DWP
Cover: comprehensive, from 14 June 2029 to 13 June 2030
Named driver: Ottilie Marchbank
Annual premium: £612.48, paid in 12 monthly instalments of £53.21 (the first one £56.17)
Compulsory excess £250 and voluntary excess £150, so £400 in total for accident damage.
Windscreen excess: £95
No claims discount: 6 years, protected.
A courtesy car is provided while your car is repaired at an approved garage.
Claims line, 24 hours: 01632 960 775. Glass claims: 08081 570 482.
""",
    "dentist-letter.md": """# Letter from Saltings Dental Practice

Saltings Dental Practice, 2 Quay Steps, Cressmoor. Reception: 01632 960 266.

Dear Rhodri Vance,

Your next check-up with Dr Anouk Trevelyan is on Tuesday 10 July 2029 at 8.40am. Our hygienist,
Kezia Marlow, will see you straight afterwards at 9.05am.

Please arrive 10 minutes early so that we can update your medical history. If you cannot come,
let us know at least 24 hours before, or a missed appointment fee of £25 will be charged.

Your crown on the lower left molar was fitted on 3 April 2029, and the second payment of £180 is
now due.

Under your Smilewise plan you pay £17.50 a month, which covers two check-ups and two hygienist
visits a year.

Kind regards,
Saltings Dental Practice
""",
    "hardware-receipt.md": """# Receipt from Pegwell Hardware

PEGWELL HARDWARE AND GARDEN
52 Ropewalk, Cressmoor   Tel 01632 960 351
19/05/2029  14:22   Till 2   Served by: Nell
Decking oil 2.5L              £24.99
Paint brush 50mm x2            £7.98
Masking tape                   £3.49
Compost 50L x3                £16.50
Tomato plants x6               £9.00
SUBTOTAL                      £61.96
Loyalty discount 10%          -£6.20
TOTAL                         £55.76
Paid by Visa contactless ****4417
Returns within 30 days with this receipt. Live plants cannot be returned.
""",
    "cottage-booking.md": """# Holiday cottage booking: Gull's Rest

Booked through Pentreath Coastal Cottages, booking reference PCC-30916.
Cottage: Gull's Rest, Porthkennack Lane, St Wenna. Sleeps 4 and is dog friendly (up to 2 dogs,
£25 per dog per stay).
Dates: Saturday 4 August to Saturday 11 August 2029. Check-in from 4pm, check-out by 10am.
Price: £1,140 for the week. We paid a £300 deposit on 6 January; the balance of £840 is due by 4 July 2029.
The key safe is by the front door; its code is sent by text 3 days before we arrive.
Parking for one car in the lane. Nearest shop: St Wenna Stores, 5 minutes' walk.
The owner lives next door: Mrs Jessamy Polglaze, 07700 900 931.
Bed linen is provided; bring your own beach towels.
""",
    "bike-service.md": """# Bike service at Spokesmith Cycles

Bike: Tamsin's Veloria Trail 7 hybrid
Job card: SC-2291, booked in on 2 June 2029, ready on 5 June 2029
Mechanic: Jory Abernethy
Work done: new chain (£22), rear brake pads replaced (£14), gears indexed, wheels trued.
Labour: £45. Total: £81.
Front tyre: worn, replace within the next 300 miles; pumped up to 50 psi.
Advice: lube the chain every 2 weeks in wet weather.
Next service due in 6 months.
Spokesmith Cycles, 7 Linnet Street, Cressmoor, 01632 960 580
""",
}

PDFS: dict[str, dict] = {
    "electricity-bill.pdf": {
        "lines": ["Brightwater Energy", "Your electricity bill", "Account number: BWE-5520-8813",
                  "Supply address: 17 Wherry Court, Cressmoor", "Bill date: 3 March 2029",
                  "Billing period: 1 February 2029 to 28 February 2029"],
        "table": [["Charge", "Units", "Rate", "Amount"],
                  ["Day rate", "212 kWh", "27.41p per kWh", "£58.11"],
                  ["Night rate", "96 kWh", "14.20p per kWh", "£13.63"],
                  ["Standing charge", "28 days", "53.66p per day", "£15.02"],
                  ["VAT at 5%", "", "", "£4.34"],
                  ["Total this bill", "", "", "£91.10"]],
        "after": ["Meter serial number: 19P4483021.",
                  "Your Direct Debit of £95.00 will be taken on 15 March 2029.",
                  "Your account is £42.77 in credit after this bill.",
                  "Power cut? Call 105. Questions about your bill: 01632 960 640."],
    },
    "plumber-invoice.pdf": {
        "lines": ["Haverleigh Plumbing and Heating", "Invoice INV-20417", "Invoice date: 24 April 2029",
                  "Customer: Mr R. Vance, 17 Wherry Court, Cressmoor", "Engineer: Caius Ambrose",
                  "Job: replace the leaking kitchen mixer tap"],
        "table": [["Description", "Qty", "Unit price", "Total"],
                  ["Call-out charge", "1", "£68.00", "£68.00"],
                  ["Mixer tap (Florin, chrome)", "1", "£54.50", "£54.50"],
                  ["Isolating valves", "2", "£6.25", "£12.50"],
                  ["Labour (hours)", "2.5", "£48.00", "£120.00"],
                  ["Subtotal", "", "", "£255.00"],
                  ["VAT 20%", "", "", "£51.00"],
                  ["Total due", "", "", "£306.00"]],
        "after": ["Payment is due within 14 days by bank transfer to Haverleigh Plumbing, sort code 40-19-62, "
                  "account number 55310872. Please quote the invoice number.",
                  "Our workmanship is guaranteed for 12 months.",
                  "Office: 01632 960 712"],
    },
    "council-tax.pdf": {
        "lines": ["Cressmoor Borough Council", "Council Tax bill 2029/30", "Account reference: 60718845",
                  "Property: 17 Wherry Court, Cressmoor", "Valuation band: C",
                  "Liable persons: Ottilie Marchbank, Rhodri Vance"],
        "table": [["Charge", "Amount"],
                  ["Cressmoor Borough Council", "£1,402.18"],
                  ["Fenshire County Council", "£398.60"],
                  ["Police and crime commissioner", "£211.44"],
                  ["Fire authority", "£79.93"],
                  ["Annual charge", "£2,092.15"]],
        "after": ["You will pay in 10 monthly instalments from 1 May 2029 to 1 February 2030: "
                  "the first of £210.25, then 9 of £209.10.",
                  "To pay by Direct Debit or to tell us about a change, call 01632 960 455."],
    },
    "ferry-booking.pdf": {
        "lines": ["Aurelis Ferries", "Booking confirmation", "Booking reference: AFX 771 204",
                  "Lead passenger: Rhodri Vance", "Route: Holmport to Saint-Brivel and back",
                  "Vehicle: car under 1.85m high, registration KX21 DWP"],
        "table": [["Sailing", "Date", "Departs", "Arrives"],
                  ["Outbound, Holmport to Saint-Brivel", "Sat 18 August 2029", "08:15", "14:45"],
                  ["Return, Saint-Brivel to Holmport", "Sat 25 August 2029", "16:30", "21:00"]],
        "after": ["Passengers: 2 adults and 1 child (aged 8).",
                  "Cabin on the outbound sailing: 4-berth inside cabin, number 7112.",
                  "Total paid: £684.40, including £48.00 for the cabin.",
                  "Check-in closes 60 minutes before departure. No pets are booked on this crossing.",
                  "Customer services: 01632 960 090"],
    },
    "nursery-invoice.pdf": {
        "lines": ["Little Wrens Nursery", "Invoice for June 2029", "Invoice number: LW-2906-118",
                  "Child: Bertie Vance", "Key person: Miss Ysolde Carraway"],
        "table": [["Item", "Days", "Rate", "Amount"],
                  ["Full days", "12", "£62.00", "£744.00"],
                  ["Half days (mornings)", "4", "£34.00", "£136.00"],
                  ["Lunches", "12", "£3.20", "£38.40"],
                  ["Funded hours (15 a week)", "", "", "-£420.00"],
                  ["Amount due", "", "", "£498.40"]],
        "after": ["Please pay by 5 June 2029. A £10 late payment fee applies after that date.",
                  "The nursery is closed on Friday 29 June for staff training (no charge).",
                  "Summer outing to Drumbleby Farm on 20 July: £8 per child."],
    },
    "mobile-bill.pdf": {
        "lines": ["Tellwyn Mobile", "Your monthly bill", "Account: 8842 1906 33", "Bill date: 9 May 2029",
                  "Name: Ottilie Marchbank", "Mobile number: 07700 900 276"],
        "table": [["Description", "Allowance", "Used", "Charge"],
                  ["SIM only plan", "30GB data", "21.4GB", "£14.00"],
                  ["Calls", "Unlimited", "412 minutes", "£0.00"],
                  ["Roaming, Saint-Brivel, 3 days", "Roam free", "", "£0.00"],
                  ["Premium rate calls", "", "2 calls", "£3.60"],
                  ["Total", "", "", "£17.60"]],
        "after": ["This bill will be paid by Direct Debit on 16 May 2029.",
                  "Your minimum term ends on 30 November 2029; after that you can leave without a charge.",
                  "Every year from 1 April your plan price goes up by £1.50 a month."],
    },
    "pet-insurance.pdf": {
        "lines": ["Brackenfold Pet Insurance", "Policy schedule", "Policy number: BPI-55093-CT",
                  "Policyholder: Ottilie Marchbank", "Pet: Pickle, domestic short hair cat, born March 2025",
                  "Cover: Lifetime Plus, 1 March 2029 to 28 February 2030"],
        "table": [["Section", "Limit", "Excess"],
                  ["Vet fees", "£6,000 a year", "£99 per condition"],
                  ["Dental (accidents only)", "£1,000", "£99"],
                  ["Death from illness or injury", "£500", "None"],
                  ["Boarding fees", "£750", "None"]],
        "after": ["Monthly premium: £19.84.",
                  "Once Pickle is 9 years old you pay 20% of each claim as well as the excess.",
                  "To claim, call 01632 960 810 or ask your vet to send us the claim form."],
    },
}


def write(folder: Path) -> list[Path]:
    """Write every document of this set into `folder` (created); returns their paths."""
    return write_documents(folder, NOTES, PDFS)


def _q(i: int, question: str, doc: str, expect: list[str] | None, why: str = "") -> dict:
    return {"id": 800 + i, "question": question, "doc": doc, "expect": expect, "why": why, "part": "eighth"}


QUESTIONS: list[dict] = [_q(i + 1, *row) for i, row in enumerate([
    # vet record
    ("how much does pickle weigh now", "vet-record", ["4.3 kg"]),
    ("when is pickle due her next booster", "vet-record", ["February 2030"]),
    ("how much dry food should pickle be getting a day", "vet-record", ["50g"]),
    ("how much was the flea treatment and how often do i put it on", "vet-record", ["27.60", "a month"]),
    ("what was pickle's temperature at the vets", "vet-record", None, "attribute"),
    ("how much was pickle's rabies jab", "vet-record", None, "subject"),
    # school newsletter
    ("how much is the year 4 trip", "school-newsletter", ["14.50"]),
    ("when do the kids break up for easter and when do they go back", "school-newsletter",
     ["29 March", "16 April"]),
    ("how do i book parents evening", "school-newsletter", ["01632 960 128"]),
    ("what does my year 4 need to take on the trip", "school-newsletter", ["packed lunch", "waterproof"]),
    ("how much is the year 5 trip", "school-newsletter", None, "subject"),
    ("who coaches the netball team", "school-newsletter", None, "role"),
    # tenancy agreement
    ("how much was our deposit and who is it protected with", "tenancy-agreement",
     ["1,367", "Tenancy Safeguard Scheme"]),
    ("can we move out early", "tenancy-agreement", ["6 months", "2 months"]),
    ("who do i ring if the heating packs up in the middle of the night", "tenancy-agreement", ["07700 900 814"]),
    ("which bills do we have to pay ourselves", "tenancy-agreement",
     ["council tax", "gas", "electricity", "water", "broadband"]),
    ("how do i report a repair", "tenancy-agreement", ["in writing"]),
    ("what's the landlord's phone number", "tenancy-agreement", None, "attribute"),
    ("how much is the rent going up by next year", "tenancy-agreement", None, "type"),
    # vacuum warranty card
    ("how long is the battery on the hoover guaranteed for", "vacuum-warranty", ["12 months"]),
    ("how do i claim on the vacuum warranty", "vacuum-warranty", ["08081 570 219", "proof of purchase"]),
    ("how much did we pay for the vacuum and where did we get it", "vacuum-warranty",
     ["249.99", "Brindlecombe"]),
    ("what's not covered by the vacuum warranty", "vacuum-warranty", ["filters", "brush rolls"]),
    ("how do i clean the filter", "vacuum-warranty", ["cold water", "24 hours"]),
    ("how long is the charger covered for", "vacuum-warranty", None, "subject"),
    ("what's the phone number for brindlecombe electricals", "vacuum-warranty", None, "attribute"),
    # residents' meeting minutes
    ("what did bartholomew say he'd do", "residents-meeting", ["report"]),
    ("when's the planting day", "residents-meeting", ["16 June"]),
    ("how much is the service charge going up to", "residents-meeting", ["104"]),
    ("who's getting the quotes for the visitor bays", "residents-meeting", ["Fintan"]),
    ("when and where is the next residents meeting", "residents-meeting",
     ["18 September 2029", "community room"]),
    ("what did perpetua agree to do", "residents-meeting", None, "role"),
    ("what did henrike agree to take on", "residents-meeting", None, "role"),
    ("how much did it cost to fix the bin store lock last time", "residents-meeting", None, "type"),
    # lemon drizzle
    ("how many eggs go in the lemon drizzle", "lemon-drizzle", ["4 eggs"]),
    ("what temperature for the lemon cake in a fan oven", "lemon-drizzle", ["160C"]),
    ("how long does the lemon drizzle bake for", "lemon-drizzle", ["45 to 50 minutes"]),
    ("what goes in the drizzle", "lemon-drizzle", ["juice", "85g granulated sugar"]),
    ("how much sugar goes in the carrot cake", "lemon-drizzle", None, "subject"),
    ("how long does the lemon drizzle need to rest before icing it", "lemon-drizzle", None, "attribute"),
    # car insurance
    ("whats our car insurance policy number", "car-insurance", ["KMI-7730418-C"]),
    ("how much is the car insurance for the year", "car-insurance", ["612.48"]),
    ("what's the total excess if we have an accident", "car-insurance", ["400"]),
    ("how much is the windscreen excess and who do i ring for a cracked windscreen", "car-insurance",
     ["95", "08081 570 482"]),
    ("is ottilie insured to drive the brisa", "car-insurance", ["Named driver"]),
    ("how many years no claims has ottilie got", "car-insurance", None, "role"),
    ("what's the mileage limit on the car insurance", "car-insurance", None, "type"),
    # dentist letter
    ("when's my dentist appointment", "dentist-letter", ["10 July 2029", "8.40"]),
    ("who's the hygienist and what time am i seeing her", "dentist-letter", ["Kezia Marlow", "9.05"]),
    ("what happens if i miss my dentist appointment", "dentist-letter", ["25"]),
    ("how much do i still owe for the crown", "dentist-letter", ["180"]),
    ("how much was the first payment for the crown", "dentist-letter", None, "role"),
    ("what time is ottilie's dentist appointment", "dentist-letter", None, "subject"),
    # hardware receipt
    ("how much did i spend at pegwell", "hardware-receipt", ["55.76"]),
    ("how much was the decking oil", "hardware-receipt", ["24.99"]),
    ("can i take the tomato plants back", "hardware-receipt", ["cannot be returned"]),
    ("how much was the wood stain", "hardware-receipt", None, "subject"),
    ("what did i pay at holt's nursery", "hardware-receipt", None, "subject"),
    # cottage booking
    ("what time can we get into the cottage", "cottage-booking", ["4pm"]),
    ("how much is left to pay on the cottage and when's it due", "cottage-booking", ["840", "4 July 2029"]),
    ("do we need to bring towels to gull's rest", "cottage-booking", ["beach towels"]),
    ("who do i call if something goes wrong at the cottage", "cottage-booking", ["07700 900 931"]),
    ("whats the code for the key safe at the cottage", "cottage-booking", None, "type"),
    ("how many bedrooms has gull's rest got", "cottage-booking", None, "attribute"),
    # bike service
    ("how much did the bike service cost in total", "bike-service", ["81"]),
    ("what pressure should the front tyre be", "bike-service", ["50 psi"]),
    ("when's tamsin's bike due another service", "bike-service", ["6 months"]),
    ("what did spokesmith do to the bike", "bike-service", ["chain", "brake pads"]),
    ("what pressure is the back tyre at", "bike-service", None, "attribute"),
    ("how much were the front brake pads", "bike-service", None, "attribute"),
    ("what's jory's mobile number", "bike-service", None, "type"),
    # electricity bill (PDF)
    ("how much is the electric bill this month", "electricity-bill", ["91.10"]),
    ("what's the night rate on our electricity", "electricity-bill", ["14.20p"]),
    ("when does brightwater take the direct debit and how much", "electricity-bill", ["95.00", "15 March 2029"]),
    ("are we in credit with brightwater", "electricity-bill", ["42.77"]),
    ("what was the meter reading on the electric bill", "electricity-bill", None, "attribute"),
    ("how much gas did we use in february", "electricity-bill", None, "subject"),
    # plumber invoice (PDF)
    ("how much do i owe the plumber", "plumber-invoice", ["306.00"]),
    ("how long have i got to pay haverleigh", "plumber-invoice", ["14 days"]),
    ("what are the plumber's bank details", "plumber-invoice", ["40-19-62", "55310872"]),
    ("how much was the tap itself", "plumber-invoice", ["54.50"]),
    ("how long is the new tap guaranteed for", "plumber-invoice", None, "attribute"),
    ("what's the total on the electrician's invoice", "plumber-invoice", None, "subject"),
    # council tax (PDF)
    ("what council tax band are we in", "council-tax", ["band: C"]),
    ("how much is our council tax this year", "council-tax", ["2,092.15"]),
    ("how much is the first council tax payment and when's the last one", "council-tax",
     ["210.25", "1 February 2030"]),
    ("how much of our council tax goes to the police", "council-tax", ["211.44"]),
    ("how much goes to the parish council", "council-tax", None, "subject"),
    ("how much was our council tax last year", "council-tax", None, "type"),
    # ferry booking (PDF)
    ("what time does the ferry leave on the way out", "ferry-booking", ["08:15"]),
    ("what time do we get back into holmport", "ferry-booking", ["21:00"]),
    ("how much did the ferry cost altogether", "ferry-booking", ["684.40"]),
    ("what's our cabin number going out", "ferry-booking", ["7112"]),
    ("whats the cabin number on the way back", "ferry-booking", None, "attribute"),
    ("how much was the dog's ferry ticket", "ferry-booking", None, "role"),
    # nursery invoice (PDF)
    ("how much do we owe the nursery for june", "nursery-invoice", ["498.40"]),
    ("who's bertie's key person", "nursery-invoice", ["Ysolde Carraway"]),
    ("which day is the nursery shut in june", "nursery-invoice", ["29 June"]),
    ("how much is the farm trip and when is it", "nursery-invoice", ["8 per child", "20 July"]),
    ("how much is an afternoon half day at nursery", "nursery-invoice", None, "attribute"),
    ("what's the nursery's phone number", "nursery-invoice", None, "type"),
    # mobile bill (PDF)
    ("how much is my phone bill this month", "mobile-bill", ["17.60"]),
    ("when does my phone contract end", "mobile-bill", ["30 November 2029"]),
    ("what was the extra charge on my phone bill", "mobile-bill", ["Premium rate"]),
    ("how much is tellwyn putting my price up by", "mobile-bill", ["1.50"]),
    ("how many texts did i send this month", "mobile-bill", None, "attribute"),
    ("how much is tellwyn's 100gb plan", "mobile-bill", None, "subject"),
    # pet insurance (PDF)
    ("how much is pickle's insurance a month", "pet-insurance", ["19.84"]),
    ("what's the vet fees limit on pickle's insurance", "pet-insurance", ["6,000"]),
    ("how do i claim on the pet insurance", "pet-insurance", ["01632 960 810"]),
    ("what happens to claims once pickle gets older", "pet-insurance", ["20%"]),
    ("what's the limit for behavioural treatment", "pet-insurance", None, "subject"),
    ("when did we last claim on pickle's insurance", "pet-insurance", None, "type"),
])]
