"""Memory about the person: extraction of facts from conversations, fact-augmented keys for
the conversation archive, and (in other modules) the memory store and recall."""
