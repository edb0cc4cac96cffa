"""Time: reminders and recurring jobs, their runs and deliveries (docs/reminders.md).

- when.py: plain words and cron expressions -> an APScheduler trigger in the person's zone.
- scheduler.py: the operations (remind, list, done, snooze, cancel, upcoming, run_due).
- notify.py: the notifier interface that delivery channels implement.
- daemon.py: the background loop (`cairn daemon`, and inside `cairn serve`).
"""
