"""A hand call waiting for the budget is given up only for a change its pass has not
read: a change noted before the read (which the call then shows) gives up nothing, so
the pass does not claim and release call after call for it."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.delivery.hand.plan import HandCall
from tests.bot.conftest import Harness


async def test_a_call_given_up_is_made_anew_and_claimed_once_more(h: Harness) -> None:
    table = await h.table("fives", people=2)
    await h.settle()
    await h.delivery.idle()
    andrey = table.users[0]
    sent_before = len(h.api.calls(("sendPhoto", "sendMessage"), andrey))

    def asks_for_his_tiles(match: Any) -> None:
        match.seats[0].hand_requests += 1  # "My tiles": a new hand message is due

    # Written past the bot (no kick): only the pass below makes the call.
    await h.store_change(table.chat, None, asks_for_his_tiles)
    hands = h.delivery.hands
    claims = 0
    claim = hands.claims.claim

    async def counted(record: Any, stored: Any, shown: Any, name: str, now: float) -> Any:
        nonlocal claims
        claims += name == HandCall.SEND.value  # (then the old message goes: a call of its own)
        return await claim(record, stored, shown, name, now)

    hands.claims.claim = counted  # type: ignore[method-assign]
    changed = asyncio.Event()
    changed.set()  # a change noted before the pass reads what is stored
    await hands.run(table.chat, None, 0, changed)
    assert len(h.api.calls(("sendPhoto", "sendMessage"), andrey)) == sent_before + 1
    assert claims == 1, claims
