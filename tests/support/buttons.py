"""The bot's inline buttons read as the typed presses they make (bot.telegram.callbacks),
so tests and benches pick "a tile", "an end", "Start" by type, never by a wire prefix
such as "P:" or "L:...:st"."""

from __future__ import annotations

from functools import lru_cache

from bot.game.options import LobbyAction
from bot.telegram.callbacks import (
    BACK,
    DOUBLES,
    DOUBLES_PLAY,
    DRAW,
    PASS,
    PLAY,
    TILE,
    BackPress,
    DoublesPress,
    DrawPress,
    EndPress,
    LayDoublesPress,
    LobbyPress,
    OnHand,
    PassPress,
    Press,
    RematchPress,
    TilePress,
    decode,
    tile_code,
)
from tests.fakebotapi import FakeBotApi
from tests.fakebotapi.views import Button, MessageView

# The buttons of a hand (the hint of a practice game is not one: it plays nothing).
HAND_PRESSES: tuple[type[OnHand], ...] = (
    TilePress,
    EndPress,
    DrawPress,
    PassPress,
    DoublesPress,
    LayDoublesPress,
    BackPress,
)
MOVE_PRESSES: tuple[type[OnHand], ...] = (TilePress, EndPress, DrawPress, PassPress)
CHOICE_PRESSES: tuple[type[OnHand], ...] = (EndPress, DoublesPress, LayDoublesPress)
# The same buttons by their data's first field, for data that need not decode (forged).
HAND_PREFIXES = tuple(f"{kind}:" for kind in (TILE, PLAY, DRAW, PASS, DOUBLES, DOUBLES_PLAY, BACK))
PLAYABLE_MARK = "🟢"  # a tile button's label when the tile fits


@lru_cache(maxsize=8192)
def _decoded(data: str | None) -> Press | None:
    return decode(data)


def press_of(button: Button) -> Press | None:
    """What pressing `button` does (None: a URL button, or data that is not ours)."""
    return _decoded(button.callback_data)


def of_kind(buttons: list[Button], *kinds: type) -> list[Button]:
    """The buttons whose press is one of `kinds`."""
    return [b for b in buttons if isinstance(press_of(b), kinds)]


def hand_buttons(message: MessageView) -> list[Button]:
    return of_kind(message.buttons, *HAND_PRESSES)


def newest_hand(api: FakeBotApi, user: int) -> MessageView | None:
    """The user's newest message with hand buttons, if any."""
    for message in reversed(api.messages(user, from_bot=True)):
        if hand_buttons(message):
            return message
    return None


def version_of(button: Button) -> int:
    """The game version a hand button was made for."""
    press = press_of(button)
    assert isinstance(press, OnHand), button
    return press.hand.version


def tile_of(button: Button) -> str:
    """The tile code ("64") of a tile or end button."""
    press = press_of(button)
    assert isinstance(press, TilePress | EndPress), button
    return tile_code(press.tile)


def tiles_on(buttons: list[Button]) -> set[str]:
    """Tiles named by tile buttons."""
    return {tile_of(b) for b in of_kind(buttons, TilePress)}


def playable(buttons: list[Button]) -> list[Button]:
    """The tile buttons marked as fitting."""
    return [b for b in of_kind(buttons, TilePress) if b.text.startswith(PLAYABLE_MARK)]


def lobby_button(
    message: MessageView, action: LobbyAction, value: str | None = ""
) -> Button | None:
    """The lobby's button for `action` (an option's: the one setting `value`; None: any)."""
    for button in message.buttons:
        press = press_of(button)
        if (
            isinstance(press, LobbyPress)
            and press.action is action
            and value in (None, press.value)
        ):
            return button
    return None


def rematch_button(message: MessageView) -> Button | None:
    found = of_kind(message.buttons, RematchPress)
    return found[0] if found else None


def is_final_table(message: MessageView) -> bool:
    """The final table: a picture with the Rematch button."""
    return message.photo is not None and rematch_button(message) is not None
