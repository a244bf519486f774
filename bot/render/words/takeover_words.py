"""Seats the computer took over from their people, as the pictures and captions tell them.

A seat changes hands when its person leaves with /leave, his private chat refuses the
bot (never opened, or the bot blocked), or he misses
three turns in a row; the computer then plays it to the end of the game. The board
says so beside the seat's name for as long as that holds, and the final table says
who did not play his seat to the end, and why (docs/rules.md, "Leaving").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from bot.render.words.naming import N_, Translate

# Why the computer took a seat over.
Takeover = Literal["left", "blocked_bot", "missed_turns"]
# By seat: the seats the computer took over, and why.
Takeovers = Mapping[int, Takeover]

# Beside the seat's name on the board: who plays it now, and why (no verb in the past:
# Russian would need the person's gender).
TAGS: dict[Takeover, str] = {
    "left": N_("computer: left the game"),
    "blocked_bot": N_("computer: private chat closed"),
    "missed_turns": N_("computer: 3 turns missed"),
}
# The final table's line for a seat the computer played to the end without his choosing
# (one given up with /leave has a line of its own: it is last).
HISTORY: dict[Takeover, str] = {
    "blocked_bot": N_(
        "{name}: the bot could not write to the private chat — the computer played the seat on"
    ),
    "missed_turns": N_("{name}: 3 turns missed in a row — the computer played the seat on"),
}


def takeover_tag(tr: Translate, why: Takeover) -> str:
    """«компьютер: игрок вышел из игры», for beside the seat's name."""
    return tr(TAGS[why])
