"""A seat's private chat: his hand message, the turn's reminder, the result in words.

`plan` decides what it should show and the next call, `converger` makes a pass (claim,
call, record), `calls` draws and makes each call, `results` records what Telegram
confirmed.
"""
