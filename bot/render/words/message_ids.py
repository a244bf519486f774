"""Every message id the pictures and captions may ask `tr` for.

Each is listed with `N_`, so that extraction finds even those passed to `tr`
through a variable; the catalogue's tests check that each has a translation.
"""

from __future__ import annotations

from bot.render.words.marks import Mark
from bot.render.words.move_words import DOUBLE_ONCE, DOUBLE_TWICE, LEFT_OUT
from bot.render.words.naming import N_, N_plural
from bot.render.words.takeover_words import HISTORY, TAGS
from bot.variants import shown
from engine.variants import VARIANTS

MESSAGES: tuple[str, ...] = (
    *(shown(name).title for name in VARIANTS),
    N_("Round {number}"),
    N_("Target: {points}"),
    N_("Turn: {name}"),
    N_("Boneyard: {count}"),
    N_("Tiles"),
    N_("Points"),
    N_("Penalties"),
    N_("Ends: {sum}"),
    N_("Ends count once all four arms are taken"),
    DOUBLE_TWICE,
    DOUBLE_ONCE,
    LEFT_OUT,
    N_("Lane"),
    N_("drew a tile"),
    N_("passed"),
    N_("Game over"),
    N_("Round {number} is over"),
    N_("{name} went out"),
    N_("Blocked"),
    N_("Nobody scores: the fewest pips are shared"),
    N_("Nobody passed: no penalties"),
    N_("Out of tiles: {names}"),
    N_("Winner: {names}"),
    N_("Player {number}"),
    N_("Your tiles"),
    N_("Your turn"),
    N_("No tile fits: draw"),
    N_("No tile fits: pass"),
    N_("No tile fits: pass, penalty +{points}"),
    N_("Standings"),
    N_("Record: {points}"),
    N_("Lost"),
    N_("Rounds played: {count}"),
    N_("passed, penalty"),
    N_("{name}: +{points} — left in the other hands: {hands}; {division}"),
    N_(
        "{name}: +{points} — the fewest pips in hand ({pips}); the other hands: {hands}; {division}"
    ),
    N_("{name}: +{points} — the other hands: {division}"),
    N_("{name}: +{points} — the fewest pips in hand ({pips}); the other hands: {division}"),
    N_("{pips} ÷ 5 = {points}, the remainder is dropped"),
    N_("{pips} ÷ 5 = {points}"),
    N_("+1 point each, the lowest score in the match ({score}): {names}"),
    N_("Penalties for passes: {list}"),
    # The final table: its per-round grid, its badges and the legend under it.
    N_("Round by round"),
    N_("How the places came about"),
    N_("Total"),
    N_("Passes"),
    N_("Out"),
    N_("Pips"),
    N_("rating {change}"),
    N_("Left the game"),
    N_("{name} left the game: the last place"),
    *TAGS.values(),
    *HISTORY.values(),
    N_("Rounds {first}–{last} are in the picture"),
    N_("Round {number} is in the picture"),
)

# Messages with plural forms: (singular, plural) ids, each used with a count.
PLURALS: tuple[tuple[str, str], ...] = (
    N_plural("{name}: +{points} point for going out", "{name}: +{points} points for going out"),
    N_plural(
        "{name}: +{points} point, the lowest score in the match: {score}",
        "{name}: +{points} points, the lowest score in the match: {score}",
    ),
    N_plural("{name} reached {points} point", "{name} reached {points} points"),
    N_plural(
        "{name}: {count} pass, +{points} penalty points",
        "{name}: {count} passes, +{points} penalty points",
    ),
    N_plural("drew {count} tile", "drew {count} tiles"),
)
# Every id a picture or caption may ask `tr` for: a `tr` without plural forms is
# asked the singular or the plural id itself.
MESSAGES += tuple(form for pair in PLURALS for form in pair)
# The final table's marks, explained in its legend.
MESSAGES += tuple(mark.value for mark in Mark)
