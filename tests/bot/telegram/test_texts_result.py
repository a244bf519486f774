"""A finished game's last private message says the result in words: the place, the
points, the rating's change, the winner and where the final table is."""

from __future__ import annotations

from bot.i18n import translator
from bot.storage.models import Match, Seat
from bot.telegram.texts import hand_caption, result_text
from engine import Game, pack, view_for
from tests.support.samples import play

RU, EN = translator("ru"), translator("en")


def finished(chat_id: int = -1001234, **seats: bool) -> tuple[Match, Game]:
    game = play("fives", ["Андрей", "Ирина"], seed=6)
    match = Match(
        id="g1",
        chat_id=chat_id,
        creator_id=1,
        status="over",
        chat_title="Клуб",
        engine=pack(game),
        seats=[Seat(name="Андрей", user_id=1, **seats), Seat(name="Ирина", user_id=2)],
    )
    return match, game


def test_the_result_says_place_points_rating_and_where_the_table_is() -> None:
    match, game = finished()
    view = view_for(game, 0)
    place = view.standings.places[0]
    text = result_text(match, view, RU, "https://t.me/c/1234/77", rating=-12)
    lines = text.splitlines()
    assert lines[0] == "🁫 <b>Пятерное домино</b> · Клуб"
    assert lines[1] == "Игра окончена."
    assert lines[2] == f"Ваше место: {place} из 2 · очки: {view.totals[0]}"
    assert lines[3] == "Ваш рейтинг в группе: −12"
    assert any(line.startswith("Победител") for line in lines)
    assert lines[-1] == '<a href="https://t.me/c/1234/77">Итоговая таблица</a> — в группе.'
    english = result_text(match, view, EN, None, rating=7)
    assert (
        "Your rating in the group: +7" in english and "The final table is in the group." in english
    )
    # Not rated: no rating line; a leaver is told he is last.
    left, _ = finished(left=True, computer=True)
    told = result_text(left, view, RU, None)
    assert "рейтинг" not in told and "Вы вышли из игры: последнее место (2 из 2)" in told
    # The hand's caption of a finished game says the same (without a rating).
    assert hand_caption(match, view, RU, live=False) == result_text(match, view, RU)


def test_practice_says_the_final_table_is_in_this_chat() -> None:
    match, game = finished(chat_id=1)
    text = result_text(match, view_for(game, 0), RU)
    assert "🁫 <b>Пятерное домино</b> · Тренировка" in text
    assert "Итоговая таблица — в этом чате." in text and "в группе" not in text
