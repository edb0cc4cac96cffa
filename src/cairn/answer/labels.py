"""What a value's label says it is (issue 33): a run of digits labelled as another kind of number is not the phone
number asked for, though it has a phone number's digits."""

from __future__ import annotations

import re

# A run of digits labelled as another kind of number ("VAT no: GB 284 5519 07", "Account number: 20417733", "Serial 4451
# 2290 118") is no phone number, though it has the digits of one.
OTHER_NUMBERS = True
_OTHER_NUMBER = frozenset("vat account acct sort iban bic swift serial policy reg registration company order "
                          "invoice member membership customer card licence license passport nhs insurance "
                          "microchip chip meter mpan mprn tax vin booking reference ref".split())


def names_other_number(before: str) -> bool:
    """True when the label just before a value (on its line; the text before its last colon) ends in a word naming a
    number that is not a phone's (`_OTHER_NUMBER`), after the generic "no" / "number" / "num": "VAT No:", "Account
    number:", "Serial"; not "Membership enquiries" (its last word names what the line is for). Always False with
    OTHER_NUMBERS off."""
    line = before.rsplit("\n", 1)[-1]
    label = (line.rsplit(":", 1)[0] if ":" in line else line).rstrip().rstrip("#")
    words = re.findall(r"[a-z]+", label.lower())[-4:]
    while words and words[-1] in ("no", "number", "num", "nr"):
        words.pop()
    return OTHER_NUMBERS and bool(words) and words[-1] in _OTHER_NUMBER
