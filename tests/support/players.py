"""People at a table of the fake Bot API: they open a game in a group (the lobby's
buttons, Join), and play a seat purely by pressing the buttons of the hand messages the
bot sent to their private chat, as a person would."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.game.options import LobbyAction
from bot.telegram.callbacks import (
    BackPress,
    DoublesPress,
    DrawPress,
    EndPress,
    LayDoublesPress,
    PassPress,
    TilePress,
)
from tests.fakebotapi import FakeBotApi, FakeBotApiError
from tests.fakebotapi.views import Button, MessageView
from tests.support.buttons import (
    CHOICE_PRESSES,
    hand_buttons,
    is_final_table,
    lobby_button,
    newest_hand,
    of_kind,
    playable,
    press_of,
)

NAMES = ["Андрей", "Ирина", "Ольга", "Вадим"]
JOIN = re.compile("Присоединиться|Join")
PLAYED = ("Сыграно", "Played")  # the answer to a press that played a tile at once
PICKED = "✅"  # a double already picked for laying several at once


@dataclass
class Human:
    """A person at the table: reads his private chat, presses buttons."""

    api: FakeBotApi
    user: int
    rng: random.Random
    pressed: set[tuple[int, str]] = field(default_factory=set)
    moves: int = 0
    refusals: list[str] = field(default_factory=list)

    def hand(self) -> MessageView | None:
        """His newest message with hand buttons, if any."""
        return newest_hand(self.api, self.user)

    def act(self) -> bool:
        """Make one move if it is his turn (by the buttons he has); whether he pressed."""
        message = self.hand()
        if message is None:
            return False
        buttons = hand_buttons(message)
        choice = self._choose(buttons)
        if choice is None or (message.id, choice.callback_data) in self.pressed:
            return False
        self.pressed.add((message.id, choice.callback_data))
        answer = self._press(message, choice)
        if answer is None:
            return True
        text, alert = answer
        if alert:
            self.refusals.append(text)
            return True
        if isinstance(press_of(choice), TilePress | DoublesPress) and not text.startswith(PLAYED):
            before = self.moves
            self._finish_choice(message)
            if self.moves == before:
                # The choice ended without a move (he went back, or the keyboard
                # changed): the hand's buttons are live again, as for a person.
                self.pressed = {p for p in self.pressed if p[0] != message.id}
            return True
        self.moves += 1
        return True

    def _choose(self, buttons: list[Button]) -> Button | None:
        doubles = of_kind(buttons, DoublesPress)
        if doubles and self.rng.random() < 0.5:
            return doubles[0]
        tiles = playable(buttons)
        if tiles:
            return self.rng.choice(tiles)
        others = of_kind(buttons, DrawPress, PassPress)
        return others[0] if others else None

    def _press(self, message: MessageView, button: Button) -> tuple[str, bool] | None:
        assert button.callback_data is not None
        try:
            query = self.api.press(self.user, self.user, message.id, button.callback_data)
            answer = self.api.callback_answer(query, timeout=15)
        except FakeBotApiError:  # the keyboard changed under his finger
            return None
        except TimeoutError:  # the press died with a killed bot: like a person, press again
            self.pressed.discard((message.id, button.callback_data))
            return None
        return answer.text or "", bool(answer.show_alert)

    def _finish_choice(self, message: MessageView) -> None:
        """After a tile with several ends, or "several doubles": pick from the new keyboard."""
        for _ in range(6):
            current = self.api.wait_for(
                lambda a: (
                    (m := a.message(self.user, message.id))
                    and of_kind(hand_buttons(m), *CHOICE_PRESSES)
                    and m
                ),
                10,
                "the choice keyboard",
            )
            buttons = hand_buttons(current)
            confirm = of_kind(buttons, LayDoublesPress)
            ends = of_kind(buttons, EndPress)
            picks = [b for b in of_kind(buttons, DoublesPress) if not b.text.startswith(PICKED)]
            if confirm and (not picks or self.rng.random() < 0.6):
                choice = confirm[0]
            elif ends:
                choice = self.rng.choice(ends)
            elif picks:
                choice = self.rng.choice(picks)
            else:
                back = of_kind(buttons, BackPress)
                if back:
                    self._press(current, back[0])
                return
            answer = self._press(current, choice)
            if answer is None:
                return
            if isinstance(press_of(choice), EndPress | LayDoublesPress):
                if not answer[1]:
                    self.moves += 1
                return


def final_message(api: FakeBotApi, group: int) -> MessageView | None:
    for message in api.messages(group, from_bot=True):
        if is_final_table(message):
            return message
    return None


def play_until(humans: list[Human], done: Callable[[], object], timeout: float, what: str) -> None:
    """The people play their turns (their games keep the boards busy) until `done()`."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() >= deadline:
            raise AssertionError(f"{what}: not within {timeout:g} s\n" + humans[0].api.dump(40))
        if not any([human.act() for human in humans]):
            time.sleep(0.05)


def play_moves(humans: list[Human], moves: int, timeout: float = 60) -> None:
    """The people play their turns until they have made `moves` moves in all."""
    play_until(humans, lambda: sum(h.moves for h in humans) >= moves, timeout, f"{moves} moves")


def play_to_the_end(
    api: FakeBotApi, group: int, humans: list[Human], timeout: float = 240
) -> MessageView:
    """Everybody plays his turns until the group gets the final table."""
    play_until(humans, lambda: final_message(api, group), timeout, "the game's end")
    final = final_message(api, group)
    assert final is not None
    return final


COMPUTER_LEVELS = {"e": LobbyAction.ADD_EASY, "s": LobbyAction.ADD_STRONG}


def press_lobby(api: FakeBotApi, user: int, group: int, lobby_id: int, action: LobbyAction) -> str:
    """`user` presses the lobby's button for `action`; the query's id."""
    button = lobby_button(api.message(group, lobby_id), action)
    assert button is not None and button.callback_data is not None, (action, lobby_id)
    return api.press(user, group, lobby_id, button.callback_data)


def open_table(api: FakeBotApi, variant: str, seats: str) -> tuple[int, dict[int, str], int]:
    """A group, its people (user id -> name), and a started game with the seats asked for
    ("h" a person, "e" an easy computer, "s" a strong one)."""
    people = {
        api.add_user(NAMES[i], language_code="ru"): NAMES[i]
        for i, kind in enumerate(seats)
        if kind == "h"
    }
    users = list(people)
    group = api.add_group("Домино", owner=users[0], members=users[1:])
    sent = api.send_text(users[0], group, f"/newgame {variant}")
    lobby = api.wait_message(group, after=sent, where=lambda m: bool(m.buttons))
    for kind in seats:
        level = COMPUTER_LEVELS.get(kind)
        if level is None:
            continue
        edits = api.message(group, lobby.id).edit_count
        query = press_lobby(api, users[0], group, lobby.id, level)
        assert not api.callback_answer(query).show_alert
        api.wait_edit(group, lobby.id, after_edits=edits)
    for user in users:
        edits = api.message(group, lobby.id).edit_count
        api.follow_url_button(user, group, lobby.id, JOIN)
        api.wait_edit(group, lobby.id, after_edits=edits)
    query = press_lobby(api, users[0], group, lobby.id, LobbyAction.START)
    text, alert = api.callback_answer(query)
    assert not alert, text
    return group, people, lobby.id
