"""What a chat's changes do to its match (bot.game.chats), as plain functions."""

from __future__ import annotations

import pytest

from bot.game import chats
from bot.game.outcomes import KEPT, UNCHANGED, Change, Outcome
from bot.storage.models import Match, MatchStatus


def a_match(status: MatchStatus = "playing") -> Match:
    return Match(id="g1", chat_id=-100, creator_id=1, status=status, deadline=5.0, topic="Турнир")


def changed(outcome: Outcome) -> Match:
    assert isinstance(outcome, Change) and outcome.game is KEPT, outcome
    return outcome.match


@pytest.mark.parametrize("game_id", [None, "g1"])
def test_the_bot_removed_ends_the_game_under_way(game_id: str | None) -> None:
    for status in ("lobby", "playing"):
        ended = changed(chats.abandon(a_match(status), game_id))
        assert (ended.status, ended.ended, ended.deadline) == ("cancelled", "bot_removed", None)
    for status in ("over", "cancelled"):
        assert chats.abandon(a_match(status), game_id) is UNCHANGED  # told as it ended
    assert chats.abandon(None, game_id) is UNCHANGED


def test_the_bot_removed_from_another_game_changes_nothing() -> None:
    assert chats.abandon(a_match(), "g2") is UNCHANGED


def test_a_topic_renamed_names_its_running_game() -> None:
    match = a_match()
    named = changed(chats.name_topic(match, "Финал"))
    assert named.topic == "Финал" and named.lobby_rev == match.lobby_rev + 1
    assert match.topic == "Турнир"  # what it was given stays as it was
    assert chats.name_topic(match, "Турнир") is UNCHANGED
    assert chats.name_topic(a_match("over"), "Финал") is UNCHANGED
    assert chats.name_topic(None, "Финал") is UNCHANGED


def test_a_group_moved_to_a_new_id_takes_its_match_along() -> None:
    moved = changed(chats.move_to(a_match("over"), -100999))
    assert moved.chat_id == -100999
    assert chats.move_to(moved, -100999) is UNCHANGED
    assert chats.move_to(None, -100999) is UNCHANGED


def test_lang_changes_the_running_game_only() -> None:
    match = a_match("lobby")
    spoken = changed(chats.speak(match, "en"))
    assert spoken.lang == "en" and spoken.lobby_rev == match.lobby_rev + 1
    assert chats.speak(spoken, "en") is UNCHANGED
    assert chats.speak(a_match("over"), "en") is UNCHANGED
