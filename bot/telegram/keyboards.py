"""Inline keyboards: pure builders from a game (and a seat's view) to markup."""

from __future__ import annotations

from urllib.parse import quote

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo
from telegram.helpers import create_deep_linked_url

from bot.game.options import TURN_CHOICES, LobbyAction, next_option, target_choices
from bot.i18n import Translator
from bot.render import EndName, end_names, label
from bot.storage.models import Match
from bot.telegram import callbacks as cb
from bot.telegram.texts import variant_name
from engine import Doubles, Draw, End, Pass, Play, SeatView, Tile
from engine.variants import VARIANTS

ROW = 4  # tile buttons per row: readable on a phone
# A message's buttons, for the modules that pass them on without importing `telegram`.
Markup = InlineKeyboardMarkup
HALF_WIDTH_LABEL = 18  # characters a button sharing its row with another shows on a phone


def join_payload(game: Match) -> str:
    """Deep-link payload (A-Z, a-z, 0-9, _ and -, at most 64) naming the game to join."""
    return f"j_{game.chat_id}_{game.thread_id or 0}_{game.id}"


def parse_join_payload(payload: str) -> tuple[int, int | None, str] | None:
    parts = payload.split("_")
    if len(parts) != 4 or parts[0] != "j" or not cb.GAME_ID.match(parts[3]):
        return None
    try:
        return int(parts[1]), (int(parts[2]) or None), parts[3]
    except ValueError:
        return None


def lobby(game: Match, tr: Translator, bot_username: str) -> InlineKeyboardMarkup:
    """The lobby's buttons; an option button names the value it sets (the next one)."""

    def button(text: str, action: LobbyAction, value: object = "") -> InlineKeyboardButton:
        data = cb.encode(cb.LobbyPress(game.id, action, str(value)))
        return InlineKeyboardButton(text, callback_data=data)

    join_url = create_deep_linked_url(bot_username, join_payload(game))
    options = [
        button(tr("🎲 Game"), LobbyAction.VARIANT, next_option(tuple(VARIANTS), game.variant)),
        button(tr("⏱ Move time"), LobbyAction.TIME, next_option(TURN_CHOICES, game.turn_seconds)),
    ]
    targets = target_choices(game.variant, len(game.seats))
    if targets:
        shown = game.target or targets[0]
        options.insert(1, button(tr("🎯 Target"), LobbyAction.TARGET, next_option(targets, shown)))
    computers = [
        button(tr("🤖 + Easy"), LobbyAction.ADD_EASY),
        button(tr("🤖 + Strong"), LobbyAction.ADD_STRONG),
    ]
    if any(seat.user_id is None for seat in game.seats):
        computers.append(button(tr("🤖 −"), LobbyAction.REMOVE_COMPUTER))
    start = button(tr("▶️ Start"), LobbyAction.START)
    cancel = button(tr("✖️ Cancel"), LobbyAction.CANCEL)
    if game.practice:  # one person: nobody to join, nothing to leave but the whole game
        return InlineKeyboardMarkup([computers, options, [start], [cancel]])
    rows = [
        [InlineKeyboardButton(tr("🙋 Join"), url=join_url)],
        computers,
        options,
        [button(tr("🚪 Leave"), LobbyAction.LEAVE), start],
        [cancel],
    ]
    return InlineKeyboardMarkup(rows)


def call_to_lobby(game: Match, tr: Translator, bot_username: str) -> InlineKeyboardMarkup:
    """A subscriber's call (/notify): the lobby's own Join link."""
    join_url = create_deep_linked_url(bot_username, join_payload(game))
    return InlineKeyboardMarkup([[InlineKeyboardButton(tr("🙋 Join"), url=join_url)]])


def open_private_chat(tr: Translator, bot_username: str) -> InlineKeyboardMarkup:
    """A link to the private chat with the bot, where its Start button is."""
    url = f"https://t.me/{bot_username}"
    return InlineKeyboardMarkup([[InlineKeyboardButton(tr("💬 Open the chat with me"), url=url)]])


def board(game: Match, tr: Translator) -> InlineKeyboardMarkup | None:
    """«My tiles» under a group's board (a practice board has the hand right below it)."""
    if game.practice:
        return None
    data = cb.encode(cb.HandRequestPress(game.id))
    return InlineKeyboardMarkup([[InlineKeyboardButton(tr("🁢 My tiles"), callback_data=data)]])


def final(game: Match, tr: Translator) -> InlineKeyboardMarkup:
    data = cb.encode(cb.RematchPress(game.id))
    return InlineKeyboardMarkup([[InlineKeyboardButton(tr("🔁 Rematch"), callback_data=data)]])


def stop_confirmation(game: Match, tr: Translator) -> InlineKeyboardMarkup:
    def button(text: str, confirm: bool) -> InlineKeyboardButton:
        return InlineKeyboardButton(text, callback_data=cb.encode(cb.StopPress(game.id, confirm)))

    return InlineKeyboardMarkup(
        [[button(tr("Yes, end it"), True), button(tr("No, play on"), False)]]
    )


def rules(current: str, tr: Translator) -> InlineKeyboardMarkup:
    """One button per game: /rules switches to it in place."""
    buttons = [
        InlineKeyboardButton(
            ("• " if variant == current else "") + variant_name(tr, variant),
            callback_data=cb.encode(cb.RulesPress(variant)),
        )
        for variant in VARIANTS
    ]
    return InlineKeyboardMarkup([[b] for b in buttons])


def _hand(game: Match, view: SeatView) -> cb.Hand:
    """What every button of this hand names: its game, and the version it shows."""
    return cb.Hand(game.chat_id, game.thread_id, game.id, view.version)


def _button(text: str, press: cb.Press) -> InlineKeyboardButton:
    return InlineKeyboardButton(text, callback_data=cb.encode(press))


def playable_tiles(view: SeatView) -> set[Tile]:
    found: set[Tile] = set()
    for move in view.legal:
        if isinstance(move, Play):
            found.add(move.tile)
    return found


def hand(game: Match, view: SeatView, tr: Translator) -> InlineKeyboardMarkup:
    """The player's tiles, numbered as in the hand picture; Draw/Pass only when allowed."""
    playable = playable_tiles(view)
    on_hand = _hand(game, view)
    tiles = [
        _button(
            f"{'🟢' if tile in playable else '▫️'} {number}) {tile}", cb.TilePress(on_hand, tile)
        )
        for number, tile in enumerate(view.hand, start=1)
    ]
    rows = [tiles[i : i + ROW] for i in range(0, len(tiles), ROW)]
    actions = []
    if any(isinstance(m, Draw) for m in view.legal):
        actions.append(_button(tr("📥 Draw"), cb.DrawPress(on_hand)))
    if any(isinstance(m, Pass) for m in view.legal):
        actions.append(_button(tr("⏭ Pass"), cb.PassPress(on_hand)))
    if any(isinstance(m, Doubles) for m in view.legal):
        actions.append(_button(tr("🁣 Several doubles"), cb.DoublesPress(on_hand, ())))
    if actions:
        rows.append(actions)
    if game.practice and view.legal:
        rows.append([_button(tr("💡 Hint"), cb.HintPress(on_hand))])
    return InlineKeyboardMarkup(rows)


def end_names_for(view: SeatView) -> dict[End, EndName]:
    """The name of each open end, as the board picture marks it."""
    return end_names(view.table, view.variant)


def end_label(view: SeatView, end: End, named: dict[End, EndName] | None = None) -> str:
    """An end's button label: its name and its number («🔵⬅️ 5»)."""
    name = (named if named is not None else end_names_for(view))[end]
    return label(name, dict(view.table.ends)[end])


def ends_for(game: Match, view: SeatView, tile: Tile, tr: Translator) -> InlineKeyboardMarkup:
    """Which end a tile that fits several should go to."""
    named = end_names_for(view)
    on_hand = _hand(game, view)
    choices = [
        _button(end_label(view, move.end, named), cb.EndPress(on_hand, tile, move.end))
        for move in view.legal
        if isinstance(move, Play) and move.tile == tile and move.end is not None
    ]
    back = _button(tr("↩️ Back"), cb.BackPress(on_hand))
    return InlineKeyboardMarkup([choices, [back]])


def doubles(game: Match, view: SeatView, picked: cb.Picked, tr: Translator) -> InlineKeyboardMarkup:
    """muggins: pick 2-4 doubles and their ends, then lay them together."""
    chosen = dict(picked)
    used_ends = set(chosen.values())
    values = dict(view.table.ends)
    named = end_names_for(view)
    on_hand = _hand(game, view)
    rows = []
    for tile in view.hand:
        if not tile.is_double:
            continue
        fits = [end for end, value in values.items() if value == tile.high]
        if not fits:
            continue
        row = []
        for end in fits:
            # A double fits only an end showing its own number: the end's name and
            # the tile say it all («🔵⬅️ 3:3»).
            text = label(named[end], tile)
            if chosen.get(tile) == end:
                selection = tuple((t, e) for t, e in picked if t != tile)
                text = f"✅ {text}"
            elif tile in chosen or end in used_ends:
                continue
            else:
                selection = (*picked, (tile, end))
            if len(selection) > 4:
                continue
            row.append(_button(text, cb.DoublesPress(on_hand, selection)))
        if row:
            rows.append(row)
    last = [_button(tr("↩️ Back"), cb.BackPress(on_hand))]
    if 2 <= len(picked) <= 4:
        count = len(picked)
        text = tr.n("▶️ Lay {count} double", "▶️ Lay {count} doubles", count).format(count=count)
        last.append(_button(text, cb.LayDoublesPress(on_hand, picked)))
    rows.append(last)
    return InlineKeyboardMarkup(rows)


# -- the live table's button (setting WEBAPP_URL, the bot web server's public address) --
#
# In a group it is a link to the bot's Main Mini App, `https://t.me/<bot>?startapp=<game
# id>`: Telegram opens the table inside the group and signs the game id into the init data
# (`web_app` buttons work in private chats only). In the private chat (a hand, a practice
# game) it is a `web_app` button opening `<WEBAPP_URL>/table/?game=<game id>`: Telegram
# signs no start parameter for those, so the page names the game itself (docs/table.md).
# Without WEBAPP_URL no button appears.


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
        return table_in_private(markup, match.id, tr, webapp_url)
    button = InlineKeyboardButton(tr("🎲 Open the table"), url=table_link(bot_username, match.id))
    return _add_row(markup, button)


def table_in_private(
    markup: InlineKeyboardMarkup | None, game_id: str, tr: Translator, webapp_url: str
) -> InlineKeyboardMarkup | None:
    """`markup` (a private hand's) with a `web_app` button opening the table; unchanged
    when the table is off."""
    if not webapp_url:
        return markup
    app = WebAppInfo(url=table_page(webapp_url, game_id))
    return _add_row(markup, InlineKeyboardButton(tr("🎲 Open the table"), web_app=app))


def _add_row(
    markup: InlineKeyboardMarkup | None, button: InlineKeyboardButton
) -> InlineKeyboardMarkup:
    rows = [list(row) for row in markup.inline_keyboard] if markup is not None else []
    return InlineKeyboardMarkup([*rows, [button]])
