"""The chat's standings as text: /stats (wins, points and penalties, then each variant's
ratings) and /top's best players."""

from __future__ import annotations

from html import escape

from bot.game.ratings import shown
from bot.i18n import Translator
from bot.render import signed, variant_title
from bot.storage.models import RatingLine, StatLine
from engine.variants import VARIANTS

STATS_ROWS = 15  # people in the leaderboard of /stats, and in each variant's table
TOP_ROWS = 3  # people of each variant in /top


def ranked(lines: dict[int, RatingLine]) -> list[RatingLine]:
    """Best first: by the shown rating, then more games, then the name."""
    return sorted(
        lines.values(), key=lambda line: (-shown(line.mu, line.sigma), -line.games, line.name)
    )


def rating_row(tr: Translator, place: int, line: RatingLine) -> str:
    """«1. Ирина — 1104 · 3 игры, 2 победы»."""
    games = tr.n("{count} game", "{count} games", line.games).format(count=line.games)
    wins = tr.n("{count} win", "{count} wins", line.wins).format(count=line.wins)
    return tr("{place}. {name} — {rating} · {games}, {wins}").format(
        place=place,
        name=escape(line.name),
        rating=shown(line.mu, line.sigma),
        games=games,
        wins=wins,
    )


def rating_tables(
    tr: Translator, by_variant: dict[str, dict[int, RatingLine]], rows: int = STATS_ROWS
) -> list[str]:
    """A heading and the best `rows` people for each variant that has ratings, each
    after an empty line."""
    text: list[str] = []
    for variant in VARIANTS:
        lines = ranked(by_variant.get(variant, {}))[:rows]
        if not lines:
            continue
        title = escape(variant_title(tr, variant))
        text += ["", tr("<b>Rating</b> · {variant}").format(variant=title)]
        text.extend(rating_row(tr, place, line) for place, line in enumerate(lines, start=1))
    return text


def no_stats(tr: Translator) -> str:
    return tr("No finished games in this chat yet.")


def stats_text(
    tr: Translator, lines: dict[int, StatLine], by_variant: dict[str, dict[int, RatingLine]]
) -> str:
    """/stats: the leaderboard (most wins, then most points, then fewest penalties), then
    the ratings."""
    ranked = sorted(lines.values(), key=lambda s: (-s.wins, -s.points, s.penalties, s.name))
    rows = [tr("<b>Leaderboard</b>")]
    for place, line in enumerate(ranked[:STATS_ROWS], start=1):
        row = tr("{place}. {name} — wins {wins} of {games}").format(
            place=place, name=escape(line.name), wins=line.wins, games=line.games
        )
        # What his games counted: points (fives, muggins), penalties (twolane), or both.
        if line.games > line.penalty_games:
            row += ", " + tr("points: {points}").format(points=line.points)
        if line.penalty_games:
            row += ", " + tr("penalty points: {points}").format(points=line.penalties)
        # Only a margin above zero is a record (one kept before that rule may be lower).
        if line.best_record is not None and line.best_record > 0:
            record = tr("best record ({game}): {record}")
            row += " · " + record.format(game=_record_games(tr), record=signed(line.best_record))
        rows.append(row)
    return "\n".join([*rows, *rating_tables(tr, by_variant)])


def _record_games(tr: Translator) -> str:
    """The games that keep a winner's record (запись), by their names."""
    return ", ".join(
        escape(variant_title(tr, name)) for name, rules in VARIANTS.items() if rules.keeps_record
    )


def top_text(tr: Translator, by_variant: dict[str, dict[int, RatingLine]]) -> str:
    """/top: the chat's best of each variant, or why there are none yet."""
    tables = rating_tables(tr, by_variant, TOP_ROWS)
    if not tables:
        return tr("No rated games in this chat yet: a finished game of two or more people counts.")
    return "\n".join([tr("<b>The chat's best</b>"), *tables])
