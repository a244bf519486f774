"""Pictures of a game for the group: the board, a seat's hand, the final table.

Pure functions from an engine view to image bytes (Pillow); nothing here knows
Telegram, and nothing sees a hand but the seat's own. Every text goes through
the `tr` given (a gettext function; English message ids, see `MESSAGES`).
"""

from bot.render.board import render_board
from bot.render.board_geometry import TileBox
from bot.render.captions import board_text, final_text
from bot.render.final import render_final
from bot.render.hand import render_hand
from bot.render.layout import layout_board
from bot.render.messages import MESSAGES
from bot.render.picture import Picture
from bot.render.words import Translate, identity

__all__ = [
    "MESSAGES",
    "Picture",
    "TileBox",
    "Translate",
    "board_text",
    "final_text",
    "identity",
    "layout_board",
    "render_board",
    "render_final",
    "render_hand",
]
