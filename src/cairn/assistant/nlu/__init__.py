"""Understanding a person's message offline, without a language model (issue 32).

`classify` (intents: softmax regression over MiniLM vectors, trained on `utterances.txt` at first
use, cached per home), `slots` (times, note titles, texts), `understand` (one message -> ordered
actions, compound requests split), `state` (the conversation state follow-ups resolve against,
kept in the session log), `replies` (honest refusals, feelings, note summaries, lists).
`cairn.assistant.understood` acts on the result through the judge and approvals.
"""
