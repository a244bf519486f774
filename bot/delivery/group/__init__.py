"""The group's messages: the lobby, each round's board and the final table.

`plan` decides what they should show and the next call, `converger` makes a pass (claim,
call, record), `calls` draws and makes each call, `results` records what Telegram
confirmed, `caption` writes a board's caption.
"""
