"""The bot's texts: what each refusal says, lobby and caption texts.

Message ids are English; `bot/locales/*/messages.po` translate them. Texts are
Telegram HTML, so everything that comes from users is escaped here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from bot.i18n import N_, Translator
from bot.render import EndName, end_names, label, localized_name, play_words, variant_title
from bot.storage.models import Match
from bot.telegram import clock_texts, endings
from engine import Doubles, End, MoveEntry, Pass, Play, SeatView
from engine.variants import ruleset

# What a refused request says: service codes and the engine's error codes.
REFUSALS = {
    "stale_button": N_("This button is out of date."),
    "game_gone": N_("That game is over or no longer here."),
    "other_game": N_("This table shows another game: open the table of the game you mean."),
    "game_started": N_("The game has already started."),
    "game_running": N_("A game is already running here."),
    "lobby_full": N_("All four seats are taken."),
    "not_in_game": N_("You are not playing in this game."),
    "creator_only": N_("Only the player who created the game can do that."),
    "creator_or_admin_only": N_("Only the game's creator or a chat admin can do that."),
    "no_target_option": N_("This game has no target score to choose."),
    "need_players": N_("Two to four players are needed to start."),
    "need_human": N_("At least one person must play."),
    "seat_is_computer": N_("The computer plays your seat now."),
    "already_left": N_("You have already left this game; the computer plays your seat."),
    "seat_taken_over": N_(
        "The computer plays your seat until this game ends: it cannot be taken back. "
        "Join the next game!"
    ),
    "bot_removed": N_("I was removed from that group, so its game was cut short."),
    "lobby_closed": N_(
        "That lobby was closed: nobody pressed anything for a long while. "
        "Start a new one with /newgame."
    ),
    "lobby_removed": N_(
        "I was removed from that group, so its lobby closed before a game began there."
    ),
    "lobby_cancelled": N_(
        "That lobby was cancelled before its game began. Start a new one with /newgame."
    ),
    "no_game": N_("There is no game here. Start one with /newgame."),
    "not_your_turn": N_("It is not your turn."),
    "not_in_hand": N_("You do not have that tile."),
    "does_not_fit": N_("That tile does not fit there."),
    "no_such_end": N_("That end is not open yet."),
    "ambiguous_end": N_("Choose the end for that tile."),
    "must_open_with": N_("The first round opens with 3:2."),
    "opening_end": N_("The first tile is laid without an end."),
    "can_play": N_("You can play a tile, so you cannot draw or pass."),
    "drew_already": N_("You have drawn your tile: play it if it fits, otherwise pass."),
    "boneyard_empty": N_("The boneyard is empty."),
    "must_draw": N_("Draw from the boneyard first."),
    "must_open": N_("Open the round with a tile."),
    "game_over": N_("The game is over."),
    "one_tile_only": N_("One tile per move in this game."),
    "doubles_count": N_("Lay two to four doubles at once."),
    "doubles_repeat": N_("Each double can be laid once."),
    "doubles_same_end": N_("Each double goes on a different end."),
    "not_double": N_("Only doubles can be laid together."),
    "illegal": N_("That move is not allowed now."),
    "bad_notation": N_("That move could not be read."),
    "no_round": N_("The next round has not been dealt yet."),
    "error": N_("The game did not accept that move."),
    "bad_state": N_("This game's saved state cannot be read. Use /stop to clear it."),
    "newer_state": N_(
        "This game was saved by a newer version of the bot. Please try again in a minute."
    ),
    "bad_record": N_("That game record cannot be replayed: the rules do not allow it."),
    # A creator not seated yet (the bot cannot write to him until he opens its chat).
    "join_first": N_(
        "Take your seat first: press Join. It opens a private chat with me, "
        "where your tiles will come."
    ),
    "no_computer": N_("There is no computer player to remove."),
    "rematch_players_only": N_("Only the players of this game can start its rematch."),
    "rematch_left": N_(
        "You left this game, so its rematch is for the others. "
        "You can join the new lobby when it opens."
    ),
    "rematch_open": N_("The rematch is open already, and you have a seat in it."),
    "practice_alone": N_("A practice game is one person's: start your own with /practice."),
    "practice_only": N_("Hints are for practice games, in our private chat: /practice."),
    "hint_not_now": N_("A hint is for your own move, when it is your turn."),
    "broken_game": N_("This chat's saved game is damaged. Use /stop to clear it."),
    "game_lost": N_(
        "The saved game of this chat could not be read, so it was closed. "
        "Start a new one with /newgame."
    ),
    "newer_game": N_(
        "This chat's game is run by a newer version of the bot that is being rolled out. "
        "Please try again in a minute."
    ),
    "busy": N_("Too many players pressed at once. Please try again."),
    "storage_down": N_("The game storage is not answering. Please try again in a minute."),
    "internal_error": N_("Something went wrong on my side. Please try again."),
    "not_started": N_("The game has not started yet: the lobby is open."),
    "admin_only": N_("Only a chat admin can change the group's language."),
}
UNKNOWN_REFUSAL = N_("That is not possible right now.")


def refusal(tr: Translator, code: str) -> str:
    return tr(REFUSALS.get(code, UNKNOWN_REFUSAL))


def variant_name(tr: Translator, variant: str) -> str:
    """The game's one name, «Пятерное домино» (see `bot.variants`)."""
    return variant_title(tr, variant)


def unnamed_player(tr: Translator, seat: int | None = None) -> str:
    """What someone is called who has no name Telegram shows: «Игрок 2» by his seat
    (counted from 1), «Игрок» while that is not known."""
    if seat is None:
        return tr("Player")
    return tr("Player {number}").format(number=seat)


def lobby_text(game: Match, tr: Translator, clock_note: str = "", called: int = 0) -> str:
    """The lobby message; `called`: subscribers (/notify) called to it in private."""
    lines = [
        "🁫 <b>" + escape(variant_name(tr, game.variant)) + "</b>",
        tr("New game: {seats} of 4 seats taken").format(seats=len(game.seats)),
    ]
    for number, seat in enumerate(game.seats, start=1):
        if seat.user_id is None:
            kind = tr("strong") if seat.level == "strong" else tr("easy")
            lines.append(f"{number}. 🤖 {escape(localized_name(tr, seat.player))} ({kind})")
        else:
            lines.append(f"{number}. {escape(seat.name)}")
    players = max(len(game.seats), 2)
    target = game.target or ruleset(game.variant).default_target(players)
    options = []
    if target is not None:
        options.append(
            tr.n("to {target} point", "to {target} points", target).format(target=target)
        )
    options.append(clock_texts.lobby_option(tr, game.turn_seconds))
    lines.append(" · ".join(options))
    if clock_note:  # what "no clock" means
        lines.append(clock_note)
    if called:
        line = tr.n(
            "🔔 {count} subscriber was called", "🔔 {count} subscribers were called", called
        )
        lines.append(line.format(count=called))
    if game.practice:
        lines.append(
            tr("Practice against the computer: add players or change the game, then Start.")
        )
    else:
        lines.append(
            tr("Press Join to take a seat. {creator} presses Start when everyone is in.").format(
                creator=escape(game.creator_name)
            )
        )
        if game.seat_of(game.creator_id) is None:  # the bot may not write to him yet
            line = tr("{creator} has no seat yet: to play, press Join too.")
            lines.append(line.format(creator=escape(game.creator_name)))
    return "\n".join(lines)


def describe_entries(
    tr: Translator,
    view: SeatView,
    entries: Sequence[MoveEntry],
    names: Sequence[Mapping[End, EndName] | None],
) -> list[str]:
    """Each entry in the caption's words, a player's draws in a row told as one («Ирина:
    берёт из базара 3 кости»); `names[i]`: the ends' names just before `entries[i]`."""
    told: list[str] = []
    run = 0  # draws in a row by the same player, told by the last line
    for index, entry in enumerate(entries):
        previous = entries[index - 1] if index else None
        same = previous is not None and previous.seat == entry.seat and previous.text == "draw"
        if entry.text == "draw" and same and told:
            run += 1
            told[-1] = describe_entry(tr, view, entry, draws=run)
            continue
        run = 1
        told.append(describe_entry(tr, view, entry, names[index]))
    return told


def since_last_picture(tr: Translator, described: Sequence[str]) -> str:
    """The moves a board caption lists below the last one (each described, HTML)."""
    return escape(tr("Since the last picture:")) + " " + "; ".join(described)


def describe_entry(
    tr: Translator,
    view: SeatView,
    entry: MoveEntry,
    names: Mapping[End, EndName] | None = None,
    draws: int = 1,
) -> str:
    """«Андрей: 3:5 🔵⬅️ (+4)» in the caption's words (HTML); `names`: the ends' names
    just before the move (see `bot.render.words.history`); `draws`: how many draws in a row."""
    name = localized_name(tr, view.players[entry.seat])
    points = entry.points
    if entry.text == "draw" and draws > 1:
        what = tr.n("drew {count} tile", "drew {count} tiles", draws).format(count=draws)
    elif entry.text == "draw":
        what = tr("drew a tile")
    elif entry.text == "pass":
        points = view.rules.pass_penalty
        what = tr("passed, penalty") if points else tr("passed")
    else:
        what = move_words(entry.text, names)
    shown = f" (+{points})" if points else ""
    return f"{escape(name)}: {escape(what)}{shown}"


def move_words(text: str, names: Mapping[End, EndName] | None = None) -> str:
    """A move as people read it: «6:2 🟠➡️», «3:3 🔵⬅️ + 2:2 🟠➡️» (never the record's
    `6:2@E`); `names`: the ends' names before it (an end's own arrow without them)."""
    return play_words(text, names)


def hand_caption(
    game: Match, view: SeatView, tr: Translator, live: bool, final_link: str | None = None
) -> str:
    """The caption of a player's hand picture (HTML).

    A hand that waits (`live` False) is not edited at every move, so its caption says
    only what stays true until his turn comes. Once the game ended it says how (and a
    finished game's result, with `final_link` to the group's final table).
    """
    if game.status != "cancelled" and (view.over or game.status == "over"):
        return result_text(game, view, tr, final_link)
    lines = [hand_heading(game, tr)]
    if not view.rules.one_round:
        lines[0] += " · " + escape(tr("Round {number}").format(number=view.round_number))
    seat = game.seats[view.seat] if view.seat is not None else None
    if game.status == "cancelled":
        lines.append(endings.ending_line(game, tr, view.seat))
    elif seat is not None and seat.computer:
        lines.append(tr("The computer plays your seat until this game ends."))
    elif live:
        # Each end as the pictures mark it and the buttons name it: «🔵⬅️ 6 · 🟠➡️ 2».
        names = end_names(view.table, view.variant)
        ends = " · ".join(label(names[end], value) for end, value in view.table.ends)
        if ends:
            lines.append(tr("Your move! Ends: {ends}").format(ends=ends))
        else:
            lines.append(opening_prompt(tr, view))
        drawn = drawn_this_turn(view)
        if drawn:  # made for him: nothing fitted (docs/rules.md, "Moves without a choice")
            line = tr.n(
                "Nothing fitted, so you drew {count} tile from the boneyard.",
                "Nothing fitted, so you drew {count} tiles from the boneyard.",
                drawn,
            )
            lines.append(line.format(count=drawn))
        if view.legal and not any(isinstance(m, Play | Doubles) for m in view.legal):
            penalty = view.rules.pass_penalty
            if penalty and any(isinstance(m, Pass) for m in view.legal):
                lines.append(
                    tr.n(
                        "No tile fits: a pass costs {points} penalty point.",
                        "No tile fits: a pass costs {points} penalty points.",
                        penalty,
                    ).format(points=penalty)
                )
            else:
                lines.append(tr("No tile fits."))
    else:
        lines.append(tr("Your tiles. A new message comes when it is your move."))
    lines.append(tr("Boneyard: {count}").format(count=view.boneyard_size))
    return "\n".join(lines)


def hand_heading(game: Match, tr: Translator) -> str:
    """The first line of a player's private messages of a game: the game, and where (HTML)."""
    place = escape(endings.place_name(game, tr))
    return f"🁫 <b>{escape(variant_name(tr, game.variant))}</b> · {place}"


def result_text(
    game: Match,
    view: SeatView,
    tr: Translator,
    final_link: str | None = None,
    rating: int | None = None,
) -> str:
    """A finished game's last private message, in words (HTML): his place and points, his
    rating's change (`rating`, None if not rated), the winner, and where the final table
    is (`final_link`). A text: the hand's picture would show an empty table then."""
    lines = [hand_heading(game, tr), tr("The game is over.")]
    return "\n".join(lines + endings.result_lines(game, view, tr, final_link, rating))


def drawn_this_turn(view: SeatView) -> int:
    """How many tiles the seat drew in the turn it is playing now."""
    drawn = 0
    for entry in reversed(view.moves):
        if entry.seat != view.seat or entry.text != "draw":
            break
        drawn += 1
    return drawn


def old_hand_line(game: Match, tr: Translator) -> str:
    """An earlier hand message Telegram would not let the bot delete (it is over two days
    old), cut down to one line: the chat keeps one hand message that counts."""
    place = escape(endings.place_name(game, tr))
    return f"🁫 {place}: " + escape(tr("an earlier message; your tiles are in the newest one."))


def opening_prompt(tr: Translator, view: SeatView) -> str:
    """What the first tile may be: muggins' first round opens with 3:2; a one-round game
    (twolane) has no rounds to open."""
    openers = {move.tile for move in view.legal if isinstance(move, Play)}
    if len(openers) == 1 and len(view.hand) > 1:  # the rules name the opening tile
        return tr("Your move! Open with {tile}.").format(tile=next(iter(openers)))
    if view.rules.one_round:
        return tr("Your move! Open the game with any tile.")
    return tr("Your move! Open the round with any tile.")


def hints_used(tr: Translator, count: int) -> str:
    """A practice game's final table: how many of its moves had a hint shown."""
    if count == 0:
        return tr("💡 No hints used.")
    line = tr.n("💡 {count} hint used.", "💡 {count} hints used.", count)
    return line.format(count=count)
