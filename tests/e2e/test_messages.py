"""Every message a whole match leaves, read as a player would (issue "Players II").

A match of several rounds is played by pressing buttons through the real bot process;
then every message each chat holds is read: no turn is claimed by anything once the
game is over, each private chat keeps only the line saying its player joined and his
result, every end-choice button named its end as the one naming module does for that
position, and no text uses the record's notation or the words players found wrong.
"""

from __future__ import annotations

import random
import re

from tests.e2e.harness import check_finished_game, export_record
from tests.e2e.reading import (
    bot_messages,
    check_end_names,
    check_words,
    claims_a_turn,
    contents,
)
from tests.fakebotapi import FakeBotApi
from tests.support.bot_process import BotProcess
from tests.support.players import Human, open_table, play_to_the_end

# What a player's private chat holds once a match is over: the line that said he had
# joined, and his result (docs/pictures.md gives the same bound).
PRIVATE_MESSAGES_AFTER_A_MATCH = 2
JOINED = "Вы присоединились к игре"


def test_a_whole_match_leaves_each_chat_only_what_is_true(api: FakeBotApi, bot: BotProcess) -> None:
    group, people, lobby_id = open_table(api, "muggins", "hh")
    humans = [Human(api, user, random.Random(user)) for user in people]
    final = play_to_the_end(api, group, humans, timeout=300)
    record = check_finished_game(api, group, people, final, lobby_id)
    assert len(record["rounds"]) >= 5, "a match of several rounds"

    # Each private chat: the join line and the result, nothing else of the match (the
    # hands before it, and any reminder, were deleted: the deletes come last).
    def tidy(a: FakeBotApi) -> bool:
        return all(len(bot_messages(a, user)) <= PRIVATE_MESSAGES_AFTER_A_MATCH for user in people)

    api.wait_for(tidy, 60, "the private chats tidied")
    api.wait_quiet(1.0, 30)
    for user in people:
        joined, result = bot_messages(api, user)
        assert (joined.text or "").startswith(JOINED), joined.text
        # The result in words (a picture of the hand would show an empty table).
        assert result.photo is None and result.buttons == []
        said = result.text or ""
        assert "Игра окончена." in said and "Ваше место:" in said, said
        assert "Ваш рейтинг в группе: " in said, said
        sent = [m for m in api.messages(user, from_bot=True, include_deleted=True)]
        assert len(sent) > len(record["rounds"]), "his turns came as new messages"

    # Nothing claims a turn once the game is over, in the group or in private.
    for chat in [group, *people]:
        claiming = [m.id for m in bot_messages(api, chat) if claims_a_turn(m)]
        assert claiming == [], (chat, [contents(api.message(chat, i)) for i in claiming])
    # The final table tells the match round by round, with the rating changes labelled.
    rounds = [line for line in (final.caption or "").splitlines() if re.match(r"^Кон \d+", line)]
    assert rounds, final.caption
    assert "рейтинг" in (final.caption or "")

    check_words(api)
    assert check_end_names(api, record) > 0, "some tile fitted two ends"


def test_export_speaks_to_people(api: FakeBotApi, bot: BotProcess) -> None:
    group, people, _ = open_table(api, "twolane", "hh")
    humans = [Human(api, user, random.Random(user)) for user in people]
    play_to_the_end(api, group, humans)
    user = next(iter(people))
    record = export_record(api, user, group)
    assert record["variant"] == "twolane"
    document = api.last_message(group, where=lambda m: m.document is not None)
    assert document is not None
    caption = document.caption or ""
    assert caption == "Запись последней законченной игры: все раздачи, все ходы и счёт."
