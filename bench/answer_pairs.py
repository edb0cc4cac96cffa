#!/usr/bin/env python3
"""Answer pairs (typed22): does a quoted line of a note answer the question asked of it?

    python bench/answer_pairs.py            # fit on the train notes, print the held-out figures
    python bench/answer_pairs.py --write    # also print the constants for answer/fit.py

`answer/fit.py` scores an untyped answer (a question whose kind has no value pattern: who, how
do I, yes/no, "how did X get on", "what engine oil") by logistic regression over a handful of
features of (question, quoted line, note title). The notes and questions below were written for
this file from scratch by typed22 (household documents of kinds chosen to be unlike the typed
sets' documents; none of their questions was read for them; every name and number invented).
Each question names the lines that answer it (by index); every other line of its note is a
negative pair (the hard negatives: same note, same subject, another attribute). Every third note
is held out.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# (title, lines, [(question, indices of the lines that answer it)])
NOTES: list[tuple[str, list[str], list[tuple[str, list[int]]]]] = [
    ("Chimney sweep visit", [
        "Sweep: Bramwell Ostrander", "Swept on 4 October 2027", "Certificate number: CS-20991",
        "The flue was clear apart from a small bird's nest, which was removed.",
        "Next sweep recommended in twelve months.", "Fee: £65 paid in cash."],
     [("who swept the chimney", [0]), ("was there anything in the flue", [3]),
      ("did they find a nest in the chimney", [3]), ("who did the chimney", [0])]),
    ("Window cleaner", [
        "Ferdie comes every four weeks on a Wednesday.", "He does the conservatory roof for an extra £10.",
        "Pay him by bank transfer to Clearview Windows.", "If you need to skip a visit, text him the day before.",
        "He cannot reach the skylight above the stairs."],
     [("how do i skip a window clean", [3]), ("does the window man do the conservatory roof", [1]),
      ("can he clean the skylight", [4]), ("how do we pay the window cleaner", [2])]),
    ("Bread maker", [
        "Model: Loafwell 900", "Put the water in first, then the flour, then the yeast in the dispenser.",
        "Choose programme 3 for wholemeal and press start.", "The basic white loaf takes 3 hours 10 minutes.",
        "Do not open the lid during the first rise.", "The paddle lifts out for washing; the tin is not dishwasher safe."],
     [("how do i make a wholemeal loaf in the bread maker", [1, 2]), ("can the bread tin go in the dishwasher", [5]),
      ("is it ok to open the lid while it rises", [4]), ("what order do the ingredients go in", [1])]),
    ("Year 2 report, Wilf", [
        "Pupil: Wilf Ambrose", "Teacher: Mrs Delphine Ruske", "Reading: working at the expected standard.",
        "Maths: exceeding the expected standard; Wilf loves number puzzles.",
        "Writing: working towards the expected standard; handwriting needs practice.",
        "Wilf is a cheerful boy who is always kind to others."],
     [("how is wilf doing in maths", [3]), ("how did wilf get on with his writing", [4]),
      ("who is wilf's teacher", [1]), ("how's wilf's reading", [2])]),
    ("Boiler service", [
        "Engineer: Ottilie Varga", "Gas Safe number: 558120", "Serviced on 11 November 2027",
        "Flue gas analysis within limits; pressure set to 1.2 bar.", "Condensate pipe lagged against frost.",
        "Next service due November 2028."],
     [("who serviced the boiler", [0]), ("did they do anything about the condensate pipe", [4]),
      ("was the flue ok", [3]), ("who came to do the boiler", [0])]),
    ("Library card", [
        "Card holder: Isadora Penk", "Card number: 2900 4418 7712", "You can borrow up to 12 books at a time.",
        "Loans last three weeks and can be renewed online twice.", "To renew, log in to the library website with your card number and PIN.",
        "Lost cards cost £2 to replace."],
     [("how do i renew my library books", [4]), ("can i renew online", [3]),
      ("how many books can i take out", [2]), ("what happens if i lose my library card", [5])]),
    ("Hedge trimming quote", [
        "From: Greenedge Gardening, Tobin Fairweather", "Trim the front privet hedge to 1.5 m and shape the top.",
        "Cut back the laurel on the left boundary by a third.", "All green waste taken away.",
        "Quote: £180 for the day.", "We do not work on hedges during the main bird nesting season unless checked first."],
     [("will they take the cuttings away", [3]), ("who quoted for the hedge", [0]),
      ("are they doing the laurel", [2]), ("can they cut the hedge in nesting season", [5])]),
    ("Kayak club rules", [
        "Members must wear a buoyancy aid on the water at all times.", "Under 14s paddle only with an adult member.",
        "Club boats are booked on the noticeboard in the boathouse.", "Wash boats down with fresh water after a sea trip.",
        "The boathouse key is kept by the duty coach, Marisa Quell.", "Dogs are not allowed in club boats."],
     [("can my 12 year old go out on his own", [1]), ("how do i book a club kayak", [2]),
      ("can i take the dog in a club boat", [5]), ("who has the boathouse key", [4]),
      ("do i need to wear a buoyancy aid", [0])]),
    ("Pressure cooker risotto", [
        "Serves 4.", "Fry the onion in butter on the saute setting for 3 minutes.",
        "Add 300 g risotto rice and stir until the grains are coated.",
        "Pour in 900 ml hot stock, lock the lid and cook on high pressure for 6 minutes.",
        "Release the pressure quickly, then stir in parmesan.", "Leftovers keep for two days in the fridge."],
     [("how long is the risotto under pressure", [3]), ("how do i release the pressure", [4]),
      ("can i keep the leftover risotto", [5]), ("how much rice for the risotto", [2])]),
    ("Dentist letter", [
        "Patient: Cosmo Thrale", "Dentist: Dr Anouk Bellweather", "At your check-up we found a small crack in an upper filling.",
        "We recommend a crown on the upper right molar.", "The crown will need two visits, two weeks apart.",
        "Band 3 treatment charge applies."],
     [("who is cosmo's dentist", [1]), ("what's wrong with cosmo's tooth", [2]),
      ("how many visits for the crown", [4]), ("does he need a crown", [3])]),
    ("Bike shop service", [
        "Bike: Ridgeway Trail 3, frame number RT3-55201", "Mechanic: Kasimir Oyelowo",
        "Gears indexed and rear mech hanger straightened.", "New brake pads fitted front and rear.",
        "The chain is worn and should be replaced at the next service.", "Tyres are fine."],
     [("who fixed my bike", [1]), ("did they change the brake pads", [3]), ("is the chain ok", [4]),
      ("how are the tyres", [5]), ("what did they do to the gears", [2])]),
    ("Holiday let house rules", [
        "Check-in is from 3pm; the key box code is sent on the morning of arrival.",
        "Please do not smoke anywhere in the house or garden.", "Well-behaved dogs are welcome downstairs only.",
        "The hot tub is emptied and cleaned between every stay.",
        "To report a problem, call the housekeeper, Pilar Ostrowski.", "Bins are collected on Tuesday mornings."],
     [("can we bring the dog to the holiday house", [2]), ("who do we call if something breaks", [4]),
      ("is smoking allowed in the garden", [1]), ("how do we get the key", [0]),
      ("is the hot tub cleaned", [3])]),
    ("Orthodontist plan", [
        "Patient: Lark Emberley", "Orthodontist: Dr Casimir Holt", "Fixed brace on the top teeth for about 18 months.",
        "Adjustments every 6 to 8 weeks.", "Avoid hard and sticky foods such as toffee and crusty bread.",
        "If a bracket comes loose, phone the practice the next working day."],
     [("can lark eat toffee with her brace", [4]), ("what do we do if a bracket falls off", [5]),
      ("who is lark's orthodontist", [1]), ("how long will lark wear the brace", [2])]),
    ("Choir concert", [
        "Harbourside Choir spring concert", "St Aldric's Church, Saturday 22 April, 7pm",
        "Tickets £12, under 16s free.", "Singers arrive at 5:30pm for the warm-up and wear black with a blue scarf.",
        "Conductor: Emeric Sallow", "Interval refreshments are served in the church hall."],
     [("who's conducting the choir concert", [4]), ("what do the singers wear", [3]),
      ("are there refreshments at the concert", [5]), ("do kids pay for the concert", [2])]),
    ("Solar panels", [
        "Installer: Brightfold Solar, fitted on 3 August 2026", "Twelve panels on the south roof, 4.8 kW in total.",
        "The inverter is in the loft; a green light means it is working.",
        "If the light is red, switch the isolator off and on again, then call the installer.",
        "Panels are cleaned once a year by Brightfold.", "Export payments are paid quarterly by the energy supplier."],
     [("how do i reset the solar inverter", [3]), ("who put the solar panels in", [0]),
      ("how do i know if the inverter is working", [2]), ("does anyone clean the panels", [4])]),
    ("Swimming lessons, Ada", [
        "Swimmer: Ada Quintrell", "Teacher: Rosalind Deverell", "Stage 4 badge awarded in March.",
        "Ada can now swim 25 metres front crawl and is working on backstroke.",
        "Lessons are on Saturday mornings at 9:30.", "Goggles are allowed; please bring a swim hat."],
     [("how is ada getting on at swimming", [2, 3]), ("who teaches ada to swim", [1]),
      ("can ada wear goggles", [5]), ("what is ada working on", [3])]),
    ("Car club membership", [
        "Member: Thaddeus Crane", "Cars are booked in the app by the hour or by the day.",
        "Fuel is included; use the fuel card in the glovebox.", "Leave the car clean and return it on time or a late fee applies.",
        "To end your membership, cancel in the app under Account, Close membership.",
        "Pets must travel in a carrier."],
     [("how do i cancel the car club", [4]), ("do i have to pay for fuel in the club car", [2]),
      ("can the dog come in the club car", [5]), ("how do i book a car", [1])]),
    ("Neighbourhood watch meeting", [
        "Present: Odile Fensome (coordinator), Barnaby Quist, Hettie Loam", "Two sheds on Crane Lane were broken into in May.",
        "Barnaby will ask the council about a street light on the footpath.", "Hettie will set up a group chat for the street.",
        "Next meeting in September at the community centre."],
     [("who runs the neighbourhood watch", [0]), ("what is barnaby doing about the footpath", [2]),
      ("who is setting up the group chat", [3]), ("were there any break-ins", [1])]),
    ("piano-report", [
        "Pupil: Rosalind Okafor-Hale", "Grade 2 piano, autumn term", "Scales: confident in C, G and F major.",
        "Sight-reading: still hesitant; practise a short piece every day.", "Rosalind is a lovely, enthusiastic pupil.",
        "Lesson fee: £19 for 30 minutes."],
     [("how is rosalind doing with her scales", [2]), ("how did rosalind get on with sight reading", [3]),
      ("what should rosalind practise", [3])]),
    ("vet-letter", [
        "Patient: Biscuit, cocker spaniel, age 7", "Owner: Mr Leander Voss", "Biscuit is a friendly dog and was very good during his visit.",
        "Blood tests show his kidneys are working normally.", "His weight is up by 1.5 kg; please cut his dinner by a quarter.",
        "Booster vaccination given today."],
     [("how were biscuit's blood results", [3]), ("did biscuit have his booster", [5]),
      ("does biscuit need to lose weight", [4]), ("who owns biscuit", [1])]),
    ("rugby-club", [
        "Player: Ezekiel Marsh, under 12s", "Training: Sundays 10am to 12pm at Kilnfield Park.",
        "Ezekiel has been picked for the county development squad.", "Coach: Gwendolyn Teague",
        "Ezekiel is always first to help carry the kit.", "Boots with moulded studs only; no metal studs."],
     [("who coaches ezekiel at rugby", [3]), ("has ezekiel been picked for anything", [2]),
      ("can ezekiel wear metal studs", [5]), ("how is ezekiel getting on at rugby", [2])]),
    ("tenancy", [
        "Tenant: Philippa Drago", "Landlord: Cuthbert Oyelaran", "Rent: £875 a month, paid on the 1st.",
        "Philippa may keep one cat at the property.", "The tenant must not redecorate without written consent.",
        "Repairs are reported to Bramble Lettings, who manage the flat."],
     [("can philippa have a pet", [3]), ("who is philippa's landlord", [1]),
      ("is philippa allowed to paint the walls", [4]), ("who do we tell about repairs", [5])]),
    ("energy-switch", [
        "Supplier: Lumenford Energy", "Tariff: Fixed Saver 12, fixed until 31 October 2029.",
        "To leave before the end of the fix, give 14 days' notice; an exit fee of £75 per fuel applies.",
        "Meter readings can be sent in the app or by text to 60125.", "Payment: direct debit of £118 on the 20th of each month.",
        "Warm Home Discount: not eligible this year."],
     [("how do i get out of the energy contract", [2]), ("who supplies our gas and electric", [0]),
      ("how do i send a meter reading", [3]), ("do we get the warm home discount", [5])]),
    ("osteopath-plan", [
        "Client: Benedikt Scholl", "Osteopath: Freya Ingledew", "Lower back strain after moving furniture.",
        "Do the cat-cow stretch twice a day and walk for 20 minutes.", "Avoid lifting anything heavy for two weeks.",
        "Follow-up appointment in three weeks if the pain is not better."],
     [("what's wrong with benedikt's back", [2]), ("what exercises should benedikt do", [3]),
      ("can benedikt lift heavy things", [4]), ("who is treating benedikt", [1])]),
    ("Lodger agreement", [
        "Lodger: Anneliese Goodbody", "Room: the back bedroom, furnished.", "Rent: £520 a month including bills.",
        "The lodger may use the kitchen and the garden but not the garage.", "Overnight guests need the householder's agreement.",
        "Either side may end the agreement with one month's notice in writing."],
     [("can anneliese use the garage", [3]), ("how does the lodger agreement end", [5]),
      ("can the lodger have friends to stay", [4]), ("which room is anneliese in", [1])]),
    ("Caravan storage", [
        "Site: Hollins Meadow Storage, bay 31", "Annual fee: £420, due each April.",
        "Access from 8am to 6pm; the gate opens with your fob.", "Hitch locks and wheel clamps must be fitted at all times.",
        "To collect the caravan outside these hours, ring the site manager the day before.",
        "Insurance is the owner's responsibility."],
     [("how do i get the caravan out on a sunday night", [4]), ("does the storage place insure the caravan", [5]),
      ("where is the caravan kept", [0]), ("do we need a wheel clamp", [3])]),
    ("Driving lessons", [
        "Learner: Tamsin Oyelowo-Brandt", "Instructor: Percival Haines, Roadwise Driving School",
        "Lessons are 90 minutes on Wednesday evenings.", "Tamsin is confident on roundabouts but needs practice reversing into a bay.",
        "Mock test result: 6 driving faults, no serious faults.", "The practical test is booked at Fenmoor test centre."],
     [("how is tamsin getting on with her driving", [3, 4]), ("who is tamsin's instructor", [1]),
      ("how did the mock test go", [4]), ("where is the driving test", [5])]),
    ("Bin collections", [
        "General waste: grey bin, every other Monday.", "Recycling: blue bin for paper, cans and plastic bottles.",
        "Glass goes in the green box, collected with the recycling.", "Garden waste needs a permit, £48 a year, from the council website.",
        "Put bins out by 7am and take them in by the evening."],
     [("does glass go in the blue bin", [2]), ("how do we get a garden waste bin", [3]),
      ("what goes in the blue bin", [1]), ("what time do the bins need to be out", [4])]),
    ("Cat sitter notes", [
        "Cats: Juniper and Moth", "Sitter: Leocadia Frome, 07700 900 287",
        "Feed half a pouch each morning and evening; dry food is left out all day.",
        "Moth takes a thyroid tablet hidden in a treat every morning.", "The cats are not allowed in the front bedroom.",
        "Litter trays are in the utility room and should be scooped daily."],
     [("what medicine does moth take", [3]), ("how much food do the cats get", [2]),
      ("are the cats allowed upstairs in the front bedroom", [4]), ("who's looking after the cats", [1])]),
    ("Broadband fault", [
        "Fault reference: opened on 3 July with Tidewater Broadband.", "The engineer found a damaged cable at the street cabinet.",
        "The line was repaired the next day and speed is back to normal.", "We were given a £15 credit on the next bill.",
        "If it happens again, restart the router first, then report it in the app."],
     [("what caused the broadband fault", [1]), ("did we get any money back for the outage", [3]),
      ("what should i do if the internet goes down again", [4]), ("is the broadband fixed", [2])]),
]


def pairs(notes: list) -> list[tuple[str, str, str, bool]]:
    """(question, line, title, answers?) for every question and every line of its note."""
    return [(q, line, title, i in gold) for title, lines, qs in notes for q, gold in qs
            for i, line in enumerate(lines)]


def split() -> tuple[list, list]:
    """(train notes, held notes): every third note is held out."""
    return [n for i, n in enumerate(NOTES) if i % 3 != 2], [n for i, n in enumerate(NOTES) if i % 3 == 2]


def matrix(ps: list, embedder):
    """(features, labels) of `ps` by answer/fit.py's `features`."""
    import numpy as np
    from cairn.answer import fit
    from cairn.search.asked import asked as read_asked
    X = np.array([fit.features(q, read_asked(q), line, title, embedder) for q, line, title, _ in ps])
    return X, np.array([float(y) for *_, y in ps])


def train(X, y, l2: float = 0.01, steps: int = 3000, lr: float = 0.5):
    """Logistic regression by gradient descent on the mean log loss + l2/2 |w|^2, positives weighted to
    balance the classes; returns (weights, bias). Deterministic (zero start)."""
    import numpy as np
    w, b = np.zeros(X.shape[1]), 0.0
    pos = y.mean()
    sw = np.where(y > 0, 0.5 / pos, 0.5 / (1 - pos))
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(X @ w + b)))
        g = (p - y) * sw
        w -= lr * (X.T @ g / len(y) + l2 * w)
        b -= lr * g.mean()
    return w, b


def top1(notes: list, embedder, w, b) -> float:
    """The share of questions whose best-scored line of its note answers it."""
    import numpy as np
    from cairn.answer import fit
    from cairn.search.asked import asked as read_asked
    right = n = 0
    for title, lines, qs in notes:
        for q, gold in qs:
            s = [float(np.array(fit.features(q, read_asked(q), x, title, embedder)) @ w + b) for x in lines]
            right += int(np.argmax(s)) in gold
            n += 1
    return right / n


def main() -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    import numpy as np
    from cairn.answer import fit
    from cairn.embed import get_embedder
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    emb = get_embedder()
    tr, he = split()
    Xt, yt = matrix(pairs(tr), emb)
    Xh, yh = matrix(pairs(he), emb)
    w, b = train(Xt, yt)
    for name, X, y, notes in (("train", Xt, yt, tr), ("held", Xh, yh, he)):
        p = 1 / (1 + np.exp(-(X @ w + b)))
        at = p >= fit.THRESHOLD
        print(f"{name}: pairs {len(y)} (answering {int(y.sum())}); at {fit.THRESHOLD}: answering kept "
              f"{at[y > 0].mean():.3f}, others passed {at[y == 0].mean():.3f}; best line answers {top1(notes, emb, w, b):.3f}")
    print("shipped:", [round(x, 3) for x in fit.WEIGHTS], round(fit.BIAS, 3))
    if args.write:
        print("WEIGHTS = (" + ", ".join(f"{x:.3f}" for x in w) + ")")
        print(f"BIAS = {b:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
