"""What the bot answers a button press with: the short notes Telegram shows at the top.

A refusal's words are in `texts.REFUSALS`; these are the answers to a press that did
something. Plain text (an answer shows no HTML).
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.game.options import LobbyAction
from bot.i18n import N_, Translator
from bot.render import EndName
from bot.telegram.texts import move_words
from engine import End

REMATCH_OPEN = N_("A new lobby is open.")
WHICH_END = N_("Which end?")  # a tile that fits several ends
PICK_DOUBLES = N_("Pick 2 to 4 doubles and their ends.")


def lobby_answer(tr: Translator, action: LobbyAction) -> str:
    return {
        LobbyAction.ADD_EASY: tr("A computer player joined."),
        LobbyAction.ADD_STRONG: tr("A computer player joined."),
        LobbyAction.REMOVE_COMPUTER: tr("A computer player left."),
        LobbyAction.LEAVE: tr("You left the lobby."),
        LobbyAction.START: tr("The game starts!"),
        LobbyAction.CANCEL: tr("The game was cancelled."),
    }.get(action, tr("Done."))


def stop_answer(tr: Translator, stopped: bool) -> str:
    """What the «End the game for everyone?» message becomes once answered."""
    return tr("The game was stopped.") if stopped else tr("The game goes on.")


def hand_request_answer(tr: Translator, practice: bool) -> str:
    """«My tiles»: where they are (in practice the board and the hand share a chat)."""
    if practice:
        return tr("Your tiles come below.")
    return tr("Your tiles are in our private chat.")


def played_answer(
    tr: Translator,
    text: str,
    points: int,
    pass_penalty: int,
    names: Mapping[End, EndName] | None,
) -> str:
    """The answer to one's own move (`text` as the record has it: «draw», «pass», «6:2@E»)
    in the user's words, the ends as the buttons named them (`names`), with what it
    scored or, for a pass in twolane, cost."""
    penalty = pass_penalty if text == "pass" else 0
    if text == "draw":
        said = tr("You drew a tile.")
    elif text == "pass":
        said = tr("You passed, penalty") if penalty else tr("You passed.")
    else:
        said = tr("Played {move}").format(move=move_words(text, names))
    scored = points or penalty
    return said + (tr(" (+{points})").format(points=scored) if scored else "")
