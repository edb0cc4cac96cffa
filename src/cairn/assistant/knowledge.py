"""The assistant's one knowledge answer (issue 32): a thin door onto the service operation
`Cairn.answer_about` (cairn/ops/knowledge.py), which consults memories, notes, entities,
reminders and earlier conversations together and says where its answer came from.

    from cairn.assistant.knowledge import answer_about
    ans = answer_about(app, "when is Ana's birthday?")
    ans.text     # 'You told me on 6 December: “my sister Ana's birthday is 9 May”.'
    ans.found, [s.kind for s in ans.sources], ans.why["chosen"]
"""

from __future__ import annotations

from datetime import datetime

from cairn.ops.knowledge import KnowledgeAnswer, KnowledgeSource

__all__ = ["KnowledgeAnswer", "KnowledgeSource", "answer_about"]


def answer_about(app, question: str, *, subject: str | None = None, now: datetime | None = None,
                 llm: str | None = "none") -> KnowledgeAnswer:
    """`app.answer_about(question, subject=, now=, llm=)`: see cairn.ops.knowledge.
    subject: what a follow-up's pronoun stands for (from the conversation state); now: the
    time to answer at; llm: the notes' answer path ("none" extractive by default). Raises
    InvalidInput for an empty question."""
    return app.answer_about(question, subject=subject, now=now, llm=llm)
