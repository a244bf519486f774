"""The «Open the table» button under the bot's messages, when the live table is on
(setting WEBAPP_URL, the public address of the bot's web server; empty: no button).

In a group it is a link to the bot's Main Mini App, `https://t.me/<bot>?startapp=<game
id>`: Telegram opens the table inside the group and signs the game id into the init data
(`web_app` buttons work in private chats only). In the private chat (a hand, a practice
game) it is a `web_app` button opening `<WEBAPP_URL>/table/?game=<game id>`: Telegram
signs no start parameter for those, so the page names the game itself (docs/table.md).
"""

from __future__ import annotations

from urllib.parse import quote

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from bot.i18n import N_, Translator
from bot.storage.models import Match

OPEN_TABLE = N_("🎲 Open the table")


def table_link(bot_username: str, game_id: str) -> str:
    """The Main Mini App's link that opens the table of `game_id` (in a group too)."""
    return f"https://t.me/{bot_username}?startapp={quote(game_id, safe='')}"


def table_page(webapp_url: str, game_id: str) -> str:
    """The table's page for `game_id`, as a private chat's `web_app` button opens it."""
    return f"{webapp_url}/table/?game={quote(game_id, safe='')}"


def with_table(
    markup: InlineKeyboardMarkup | None,
    match: Match,
    tr: Translator,
    webapp_url: str,
    bot_username: str,
) -> InlineKeyboardMarkup | None:
    """`markup` with the button that opens the table of `match` as its last row (a link in
    a group, a `web_app` button in the private chat of a practice game); unchanged when
    the table is off."""
    if not webapp_url:
        return markup
    if match.practice:
        return in_private(markup, match.id, tr, webapp_url)
    button = InlineKeyboardButton(tr(OPEN_TABLE), url=table_link(bot_username, match.id))
    return _add_row(markup, button)


def in_private(
    markup: InlineKeyboardMarkup | None, game_id: str, tr: Translator, webapp_url: str
) -> InlineKeyboardMarkup | None:
    """`markup` (a private hand's) with a `web_app` button opening the table; unchanged
    when the table is off."""
    if not webapp_url:
        return markup
    app = WebAppInfo(url=table_page(webapp_url, game_id))
    return _add_row(markup, InlineKeyboardButton(tr(OPEN_TABLE), web_app=app))


def _add_row(
    markup: InlineKeyboardMarkup | None, button: InlineKeyboardButton
) -> InlineKeyboardMarkup:
    rows = [list(row) for row in markup.inline_keyboard] if markup is not None else []
    return InlineKeyboardMarkup([*rows, [button]])
