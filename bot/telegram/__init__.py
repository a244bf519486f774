"""The Telegram edge: Bot API calls with one failure policy, keyboards, callback data, texts."""
