"""The Telegram channel: the same conversation as `cairn chat`, on the phone (docs/telegram.md).

- format.py: markdown answers -> Telegram HTML messages within the 4096-character limit.
- bot.py: the bot (python-telegram-bot): allow-list, text, documents, photos, voice notes,
  inline approval buttons, and the notifier that delivers reminders and digests.
"""
