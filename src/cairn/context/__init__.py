"""The context engine (issue 18): what goes into each prompt of a long conversation.

tokens.py   token counting (llama.cpp's /tokenize for a local llama.cpp model, else a
            Unicode-aware estimate)
working.py  the deterministic working state (request, decisions, constraints, questions,
            errors, files and notes in play), folded event by event without a model
bm25.py     a small incremental BM25 index over the session's turns
distill.py  tool outputs shortened before they enter the prompt
compiler.py the token-budgeted prompt compiler with named bands and `/why`
"""
