"""What the bot replies to a command: each command's lines in the menu and in /help, and
its answers.

The commands are listed once, in `bot.handlers.command_table`, which names each one's
lines here. A refusal's words are in `texts.REFUSALS`, /stats' and /top's in
`rating_texts`. Texts are Telegram HTML: what comes from users is escaped.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from html import escape

from babel.lists import format_list

from bot.i18n import LANGUAGES, N_, Translator
from bot.render import localized_name
from bot.storage.models import Match
from bot.telegram import texts
from engine import SeatView


@dataclass(frozen=True)
class CommandLines:
    """A command's line in Telegram's command menu and in /help (None: not listed there).

    A line may name the languages the bot speaks: `{languages}` («ru or en»), `{codes}`
    («ru|en»)."""

    menu: str | None
    help: str | None


START = CommandLines(None, None)  # Telegram's own Start button sends it
NEWGAME = CommandLines(
    N_("Start a domino game here"),
    N_("/newgame — start a game here; pick the game in its lobby"),
)
PRACTICE = CommandLines(
    N_("Practise against the computer, with hints (private chat)"),
    N_("/practice — in our private chat: play the computer, with hints"),
)
RULES = CommandLines(N_("The rules of each game"), N_("/rules — the rules of each game"))
SCORE = CommandLines(N_("The current table"), N_("/score — the current table"))
LEAVE = CommandLines(
    N_("The computer takes your seat"), N_("/leave — the computer takes over your seat")
)
STOP = CommandLines(
    N_("End the game (creator or admin)"), N_("/stop — end the game (its creator or an admin)")
)
STATS = CommandLines(N_("This chat's leaderboard"), N_("/stats — this chat's leaderboard"))
TOP = CommandLines(
    N_("The chat's best players by rating"), N_("/top — the chat's best players by rating")
)
NOTIFY = CommandLines(
    N_("Call me when a game opens here"),
    N_("/notify — a private call whenever a game opens here (/notify off stops it)"),
)
EXPORT = CommandLines(N_("The last game's record"), N_("/export — the last finished game's record"))
LANG = CommandLines(N_("Language: {languages}"), N_("/lang {codes} — language"))
HELP = CommandLines(N_("What I can do"), None)  # /help lists the others


def line(tr: Translator, text: str) -> str:
    """A command's line (menu or /help) in `tr`'s language, the languages named."""
    return tr(text).format(languages=either(tr, LANGUAGES), codes="|".join(LANGUAGES))


def help_text(tr: Translator, commands: Iterable[CommandLines]) -> str:
    """/help: the lines of `commands` that it lists, in their order."""
    listed = [line(tr, command.help) for command in commands if command.help is not None]
    return "\n".join(
        [
            tr("<b>Dominoes for group chats</b>"),
            *listed,
            "",
            tr("Your tiles come to you in a private chat with me; tap a tile to play it."),
        ]
    )


def either(tr: Translator, choices: Iterable[str]) -> str:
    """«a, b or c» in `tr`'s language (Babel knows each language's way of saying it)."""
    return format_list(list(choices), style="or", locale=tr.lang)


# /start
GREETING = N_(  # in private, without a game to join
    "Hello! Add me to a group and type /newgame there. "
    "To learn first, type /practice here: a game against the computer, with hints."
)
JOINED = N_("You joined the game in «{title}». Your tiles will come here.")
ALREADY_JOINED = N_("You are already in the game in «{title}».")

# /newgame and /practice
LOBBY_TAKEN_OVER = N_("Nobody pressed anything in this lobby for a while: it is yours now ↑.")
PRACTICE_IN_PRIVATE = N_("Practice games are played in our private chat: type /practice there.")
PRACTICE_HERE = N_("Your practice game is here ↑. Finish it, or /stop it to start another.")

# /stop
DAMAGED_GAME_CLEARED = N_("The damaged game was cleared. Start a new one with /newgame.")
STOP_QUESTION = N_("End the game for everyone?")

# /lang
CHOOSE_LANGUAGE = N_("Choose a language: {choices}")  # /lang ru or /lang en
LANGUAGE_SET = N_("Language: English")  # said in the language just chosen

# /export
NOTHING_TO_EXPORT = N_("No finished game to export yet.")
EXPORT_CAPTION = N_("The last finished game's record: every deal, every move and the score.")

# A repeated command in a group, answered a moment ago (bot.handlers.repeats).
ANSWER_ABOVE = N_("My answer is above ↑")


def choose_language(tr: Translator) -> str:
    """/lang without a language it knows: the ones it does, each as the command to type."""
    return tr(CHOOSE_LANGUAGE).format(choices=either(tr, [f"/lang {code}" for code in LANGUAGES]))


def joined(tr: Translator, place: str, new: bool) -> str:
    """A Join link followed: seated now (`new`), or seated already."""
    return tr(JOINED if new else ALREADY_JOINED).format(title=escape(place))


def unknown_game(tr: Translator, command: str, variants: Iterable[str]) -> str:
    """A command naming no game we have: the games, each as the command that opens it."""
    games = [
        f"<code>/{command} {name}</code> — {escape(texts.variant_name(tr, name))}"
        for name in variants
    ]
    return "\n".join([tr("Unknown game. Choose one:"), *games])


def running_here(tr: Translator, match: Match, may_stop: bool, takeover_minutes: int) -> str:
    """/newgame where a game is under way: what this user can do about it (`may_stop`:
    he created it or is an admin)."""
    if may_stop:
        return texts.refusal(tr, "game_running") + " " + tr("It is here ↑ (or /stop it).")
    if match.status == "lobby":
        text = tr(
            "A lobby is open here ↑: join it. If nobody presses anything in it for "
            "{minutes} min, /newgame hands it to you."
        )
        return text.format(minutes=takeover_minutes)
    return tr(
        "A game is being played here ↑. Wait for its end, or ask its creator or an admin "
        "to /stop it."
    )


def left(tr: Translator, match: Match) -> str:
    """/leave done: out of the lobby, or the computer plays on (or nobody is left)."""
    if match.status == "lobby":
        return tr("You left the lobby.")
    if match.ended == "everyone_left":
        return tr("Everyone left the game — it is over.")
    return tr("The computer plays your seat until this game ends.")


# /score, /leave and /stop in private, with no game there: the user's games elsewhere
# (bot.handlers.commands). What each says after the list.
ELSEWHERE = {
    "score": N_("/score in a game's chat shows its whole table."),
    "leave": N_(
        "Send /leave in the chat of the game you are leaving (in its topic, if it has one)."
    ),
    "stop": N_(
        "Send /stop in the game's chat (in its topic, if it has one): its creator or an admin "
        "can stop it there."
    ),
}


def your_games(tr: Translator, command: str, lines: Iterable[str]) -> str:
    """The user's games (`lines`, one each, see `game_line`) and where `command` works."""
    if command == "score":
        heading = tr("Your games:")
    else:
        heading = tr("There is no game in this chat. Your games:")
    return "\n".join([heading, *lines, tr(ELSEWHERE[command])])


def game_line(
    tr: Translator, match: Match, view: SeatView | None, link: str | None, place: str
) -> str:
    """One of the user's games, briefly (HTML): where (a link to its message, where there
    is one), which game, and how it stands for him (`view`: his seat's, once started)."""
    where = escape(place)
    if link is not None:
        where = f'<a href="{escape(link)}">{where}</a>'
    head = f"• {where} — {escape(texts.variant_name(tr, match.variant))}: "
    if view is None:
        return head + escape(tr("lobby, not started yet"))
    parts = []
    if not view.rules.one_round:
        parts.append(tr("Round {number}").format(number=view.round_number))
    if view.turn is not None and view.turn == view.seat:
        parts.append(tr("your move"))
    elif view.turn is not None:
        name = localized_name(tr, view.players[view.turn])
        parts.append(tr("Turn: {name}").format(name=name))
    if view.seat is not None:
        penalty = view.rules.penalty_scoring
        points = tr("penalty points: {points}") if penalty else tr("points: {points}")
        parts.append(points.format(points=view.totals[view.seat]))
    return head + escape(" · ".join(parts))
