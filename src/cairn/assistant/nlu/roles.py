"""What the people a home's notes name by their role do: a note says "Architect: Wilhelmina
Strand", the person asks "who's drawing up the plans?". The glosses live with the answerer, which
answers such who-questions itself (cairn.answer.rota: GLOSS, role_words, role_terms); the
assistant reads them too, to count a role's work among a note's sentences (replies.py).

    role_terms("Architect: Wilhelmina Strand (Strand Design)")  # {"plan", "draw", "design", ...}
    role_words("Electrician: Marisol Pike")                     # {"wiring", "socket", ...}
"""

from __future__ import annotations

from cairn.answer.rota import GLOSS, role_terms, role_words

__all__ = ["GLOSS", "role_terms", "role_words"]
