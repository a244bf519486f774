"""Delivery: bringing Telegram in line with the stored games, within the token's call budget."""
