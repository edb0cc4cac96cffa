"""The operations of `cairn.service.Cairn`, grouped by domain. Each module holds one mixin
class; `Cairn` (the composition root, cairn/service.py) inherits them all, so every
operation is still a method of `Cairn` under its old name:

    jobs.py    JobOps     ingest, jobs, jobs_run, jobs_retry, import_file, import_notes,
                          import_chat, reindex, status
    search.py  SearchOps  search, search_batch, ask
    memory.py  MemoryOps  remember, memories, memory_history, forget, recall, core, core_set,
                          entity_alias, entities, rebuild_memories, extract, set_fact_keys
    entities.py EntityOps entity_show, entity_merge, entity_split (the entity graph)
    notes.py   NotesOps   sync, watch, find_note, links, unresolved_links, note_create,
                          notes_list, ingest_text, note_show, note_update, note_rename, note_delete
    knowledge.py KnowledgeOps answer_about (memories, notes, entities, reminders and sessions
                          as one answer; its wording in knowledge_text.py)
    sessions.py SessionOps session_stats, session_scorecard (the assistant's sessions as figures)
    artifacts.py ArtifactOps artifact_put, artifacts, artifact_show, artifact_lineage, artifacts_prune
    config.py  ConfigOps  config_show (the settings with where each came from)
    skills.py  SkillOps   skill_save, skills, skill, skill_rate, skill_ran, skill_delete, skill_patterns

A mixin reaches the resources through `self`: `conn` (the index), `settings`, `embedder`,
`vectors`. Every result has one `to_json()` (cairn.results).
"""
