"""Pictures of a game for the group: the board, a seat's hand, the final table.

Pure functions from an engine view to image bytes (Pillow); nothing here knows
Telegram, and nothing sees a hand but the seat's own. Every text goes through
the `tr` given (a gettext function; English message ids, see `MESSAGES`).

The package is built in wings, lowest first (a wing imports only those below it;
tests/render/test_wings.py holds them to it):

    kit       colours, fonts, text in lines, sprites, the encoded picture
    layout    the board's sizes and the table's grid, in numbers
    words     names of people, ends and moves; rounds, marks, captions, message ids
    board, hand, final    the three pictures, each drawn from the wings below

Other packages import what they use from here, never from a wing: these names are
render's vocabulary for the rest of the bot.
"""

from bot.render.board.board_picture import render_board
from bot.render.final.final_layout import final_layout
from bot.render.final.final_picture import render_final
from bot.render.hand.hand_picture import render_hand
from bot.render.kit.picture import Picture
from bot.render.kit.theme import RGB
from bot.render.layout.board_geometry import PICTURE_HEIGHT, PICTURE_WIDTH, TileBox, mark_radius
from bot.render.layout.board_layout import board_layout, layout_board
from bot.render.words.captions import board_heading, board_text, final_text
from bot.render.words.ends import EndName, end_names, label, names_or_own
from bot.render.words.history import names_at, names_before
from bot.render.words.marks import Mark, legend
from bot.render.words.message_ids import MESSAGES, PLURALS
from bot.render.words.move_words import (
    action_points,
    action_words,
    count_parts,
    count_words,
    play_words,
    recent_actions,
)
from bot.render.words.naming import (
    Translate,
    computer_name,
    identity,
    localized_name,
    signed,
    variant_title,
)
from bot.render.words.round_end import (
    points_name_who_went_out,
    round_end_points,
    round_end_words,
)
from bot.render.words.takeover_words import Takeover

__all__ = [
    "MESSAGES",
    "PICTURE_HEIGHT",
    "PICTURE_WIDTH",
    "PLURALS",
    "RGB",
    "EndName",
    "Mark",
    "Picture",
    "Takeover",
    "TileBox",
    "Translate",
    "action_points",
    "action_words",
    "board_heading",
    "board_layout",
    "board_text",
    "computer_name",
    "count_parts",
    "count_words",
    "end_names",
    "final_layout",
    "final_text",
    "identity",
    "label",
    "layout_board",
    "legend",
    "localized_name",
    "mark_radius",
    "names_at",
    "names_before",
    "names_or_own",
    "play_words",
    "points_name_who_went_out",
    "recent_actions",
    "render_board",
    "render_final",
    "render_hand",
    "round_end_points",
    "round_end_words",
    "signed",
    "variant_title",
]
