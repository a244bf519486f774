"""Who the bot may write to in private: only a /start there says so (issue 27, point 1).

`/start@bot` typed in a group marked the user as having opened the private chat; his
/newgame then seated him, his tiles could not be sent at Start (403), and the game, his
alone, ended at once with «Все вышли из игры — она окончена.», which was untrue.
"""

from __future__ import annotations

from bot.i18n import translator
from bot.storage.models import Match, Note, Seat
from bot.telegram import endings
from tests.bot.conftest import Harness, ru

RU = translator("ru")
NOT_SEATED = "Андрей пока не за столом: чтобы играть, нужно тоже нажать «Присоединиться»."
CLOSED = "Андрей: бот не может писать в личный чат, кости некуда отправить — игра окончена."
EVERYONE_LEFT = "Все вышли из игры — она окончена."


async def test_start_in_a_group_does_not_make_the_user_reachable(h: Harness) -> None:
    (a,) = h.people("Андрей")
    group = h.group(a)
    answer = await h.say(a, group, "/start@" + h.api.bot_username)
    assert "Домино для групповых чатов" in answer.text
    assert not (await h.store.prefs.user(a)).started

    # His /newgame does not seat him, and the lobby tells him how to take his seat.
    lobby = await h.newgame(a, group)
    assert (await h.game(group)).seats == []
    assert NOT_SEATED in lobby.content
    answer = await h.lobby_button(a, group, lobby, "ce")
    assert not answer.show_alert
    await h.lobby_settled(group)
    answer = await h.lobby_button(a, group, lobby, "st")
    assert (answer.text, answer.show_alert) == (ru("join_first"), True)
    assert ru("join_first").startswith("Сначала займите место: нажмите «Присоединиться».")
    assert (await h.game(group)).status == "lobby"

    # Join (a /start in private) seats him; the line goes, and Start works.
    await h.join(a, group, lobby)
    game = await h.lobby_settled(group)
    assert [seat.user_id for seat in game.seats if not seat.computer] == [a]
    assert NOT_SEATED not in h.api.message(group, lobby.id).content
    assert (await h.store.prefs.user(a)).started
    answer = await h.lobby_button(a, group, lobby, "st")
    assert not answer.show_alert, answer


async def test_a_start_that_finds_a_private_chat_closed_says_so_by_name(h: Harness) -> None:
    """Андрей joined, then blocked the bot: his hand cannot be sent at Start. The game,
    his alone, ends saying why, by name; the bot no longer takes him for reachable."""
    (a,) = h.people("Андрей")
    group = h.group(a)
    lobby = await h.newgame(a, group)
    await h.join(a, group, lobby)
    await h.lobby_settled(group)
    await h.lobby_button(a, group, lobby, "ce")
    await h.lobby_settled(group)
    h.api.block_bot(a)
    answer = await h.lobby_button(a, group, lobby, "st")
    assert not answer.show_alert, answer

    async def ended() -> Match | None:
        found = await h.snapshot(group)
        return found.match if found is not None and found.status == "cancelled" else None

    match = await h.until(ended, "the game ended")
    assert match.notes == [Note(code="blocked_bot", name="Андрей")]
    assert endings.ending_words(match, RU) == CLOSED
    assert not (await h.store.prefs.user(a)).started

    async def board_says() -> str | None:
        found = await h.snapshot(group)
        if found is None or found.board.message_id is None:
            return None
        caption = h.api.message(group, found.board.message_id).caption or ""
        return caption if CLOSED in caption else None

    caption = await h.until(board_says, "the board tells why the game ended")
    assert EVERYONE_LEFT not in caption

    # His next /newgame does not seat him until he opens the chat again.
    h.api.unblock_bot(a)
    await h.settle()
    lobby = await h.newgame(a, group)
    assert (await h.game(group)).seats == [] and NOT_SEATED in lobby.content


def a_match(*notes: Note) -> Match:
    people = [Seat(name=n, user_id=i, computer=True) for i, n in enumerate(["Андрей", "Ирина"])]
    match = Match(id="g", chat_id=-1, creator_id=0, seats=people, status="cancelled")
    match.ended = "everyone_left"
    match.notes = list(notes)
    return match


def test_the_ending_names_whoever_could_not_be_written_to() -> None:
    both = a_match(Note(code="blocked_bot", name="Андрей"), Note(code="blocked_bot", name="Ирина"))
    assert endings.ending_words(both, RU) == CLOSED.replace("Андрей", "Андрей, Ирина")
    # The last one left with /leave: everyone left, as before.
    left = a_match(Note(code="blocked_bot", name="Андрей"), Note(code="left", name="Ирина"))
    assert endings.ending_words(left, RU) == EVERYONE_LEFT
    english = endings.ending_words(both, translator("en"))
    assert english.startswith("Андрей, Ирина: the bot cannot write to their private chat")
