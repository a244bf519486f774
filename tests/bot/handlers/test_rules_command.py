"""/rules opens on the game of its chat: the lobby's, the running one's, the one just played."""

from __future__ import annotations

from bot.game import rulebook
from tests.bot.conftest import Harness
from tests.fakebotapi import MessageView


def shows(answer: MessageView, variant: str, lang: str = "ru") -> bool:
    """The answer is that game's rules page, its button marked as the one shown."""
    marked = [b.callback_data for b in answer.buttons if b.text.startswith("• ")]
    return answer.raw_text == rulebook.text(lang, variant) and marked == [f"R:{variant}"]


async def test_rules_open_on_the_game_of_the_chat(h: Harness) -> None:
    andrey, irina = h.people("Андрей", "Ирина")
    group = h.group(andrey, [irina])
    assert shows(await h.say(irina, group, "/rules"), "fives")  # no game here: the first

    lobby = await h.newgame(andrey, group, "muggins")
    assert shows(await h.say(irina, group, "/rules"), "muggins")

    await h.lobby_button(andrey, group, lobby, "v")  # muggins -> twolane
    game = await h.lobby_settled(group)
    assert game.variant == "twolane"
    assert shows(await h.say(irina, group, "/rules"), "twolane")
    # A game named is the one shown, whatever is played here.
    assert shows(await h.say(irina, group, "/rules fives"), "fives")


async def test_rules_of_a_running_game_and_in_the_chats_language(h: Harness) -> None:
    table = await h.table("twolane", lang="en")
    andrey = table.users[0]
    assert shows(await h.say(andrey, table.chat, "/rules"), "twolane")
    # Another chat's game does not count: in private it opens on the first game.
    assert shows(await h.say(andrey, andrey, "/rules"), "fives", lang="en")


async def test_rules_in_a_topic_follow_that_topics_game(h: Harness) -> None:
    andrey, irina = h.people("Андрей", "Ирина")
    forum = h.group(andrey, [irina], is_forum=True)
    playing, quiet = h.api.add_topic(forum, "Стол 1"), h.api.add_topic(forum, "Стол 2")
    await h.newgame(andrey, forum, "muggins", thread_id=playing)
    assert shows(await h.say(irina, forum, "/rules", thread_id=playing), "muggins")
    assert shows(await h.say(irina, forum, "/rules", thread_id=quiet), "fives")


def test_the_opening_page_is_the_one_asked_then_the_chats_then_the_first() -> None:
    assert rulebook.opening_variant("twolane", "muggins") == "twolane"
    assert rulebook.opening_variant("", "muggins") == "muggins"
    assert rulebook.opening_variant("nonsense", "muggins") == "muggins"
    assert rulebook.opening_variant("", None) == "fives"
    assert rulebook.opening_variant("", "chess") == "fives"
