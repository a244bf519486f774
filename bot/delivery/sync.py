"""Brings Telegram in line with the stored game: the group's messages and the hands.

The stored game says what should be shown; each message remembers what it shows.
A sync compares the two and makes the next call needed, so it can run any number
of times, from any process, after a restart: it only does what is missing.

Group calls are paced (a few at once, then one every few seconds, never more than
the group limit per minute): moves that come faster are shown together in the
next edit, and a picture is rendered only for an edit actually sent. Each call is
claimed in a transaction first, so two processes never make the same one; a claim
whose process died (see bot.delivery.liveness) is taken over, so nothing waits for long.
"""

from __future__ import annotations

import html
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from telegram import Bot

from bot.delivery.liveness import Liveness
from bot.game.service import GameService, Refusal
from bot.i18n import N_, Translator, translator
from bot.render import board_text, final_text, render_board, render_final, render_hand
from bot.settings import Settings
from bot.storage.models import Board, ChatGame, Seat
from bot.storage.store import Store, Tx
from bot.telegram import api, keyboards, texts
from bot.telegram.api import Outcome, Result
from engine import Game, MoveEntry, SeatView, view_for

log = logging.getLogger(__name__)

BURST = 3  # group calls allowed in a burst; then one per interval
CAPTION_LIMIT = 1024
RECENT_SHOWN = 8  # moves listed in a caption at most
BUSY_LEASE = 45.0  # a claimed call not recorded by then is taken as lost, whoever made it
RETRY_FAILED = 10.0  # seconds before a failed group call is tried again
RETRY_WHILE_BUSY = 1.0  # seconds before looking again at a group another sync is calling


@dataclass(frozen=True)
class GroupStep:
    """The next call the group needs; `key` identifies it for the claim."""

    kind: str  # edit_lobby, close_lobby, new_board, edit_board, finish_board, stop_board, final
    key: str
    round_number: int = 0  # new_board: the round the new board is for


def plan_group_step(game: ChatGame, engine_game: Game | None) -> GroupStep | None:
    """What the group's messages still miss, one call at a time (None: up to date)."""
    if game.status == "lobby":
        if game.lobby_message_id is not None and game.lobby_shows != game.lobby_rev:
            return GroupStep("edit_lobby", f"lobby:{game.lobby_rev}")
        return None
    if game.lobby_message_id is not None and not game.lobby_closed:
        return GroupStep("close_lobby", "close_lobby")
    board = game.board
    if game.status == "cancelled":
        if board.message_id is not None and not board.finished:
            return GroupStep("stop_board", f"stop:{board.round_number}")
        return None
    if engine_game is None:
        return None
    current = engine_game.round.number
    if board.message_id is None:
        return GroupStep("new_board", f"new:{board.round_number}", board.round_number)
    over = game.status == "over"
    if not board.finished and (board.round_number < current or over):
        return GroupStep("finish_board", f"finish:{board.round_number}")
    if board.finished and board.round_number < current:
        # Every round gets its board, even one that began and ended while the group's
        # pace held us back: it is posted showing how that round ended.
        following = board.round_number + 1
        return GroupStep("new_board", f"new:{following}", following)
    if not board.finished and board.shows_version != engine_game.version:
        return GroupStep("edit_board", f"edit:{engine_game.version}")
    if over and game.final_message_id is None:
        return GroupStep("final", "final")
    return None


def next_group_call(calls: list[float], now: float, interval: float, per_minute: int) -> float:
    """The earliest time the group may get another call from us."""
    recent = sorted(t for t in calls if now - t < 60)
    earliest = now
    if len(recent) >= per_minute:
        earliest = max(earliest, recent[-per_minute] + 60)
    window = interval * BURST
    in_window = [t for t in recent if now - t < window]
    if len(in_window) >= BURST:
        earliest = max(earliest, in_window[-BURST] + window)
    return earliest


def hand_state(game: ChatGame, engine_game: Game, seat_index: int) -> tuple[bool, str]:
    """(active, what the seat's hand message should show): active ones carry buttons."""
    if game.status == "playing" and engine_game.turn == seat_index:
        return True, f"A:{engine_game.version}"
    hand = " ".join(str(t) for t in engine_game.round.hands[seat_index])
    return False, f"P:{game.status}:{engine_game.round.number}:{hand}"


class Syncer:
    def __init__(
        self,
        bot: Bot,
        service: GameService,
        settings: Settings,
        clock: Callable[[], float] = time.time,
        liveness: Liveness | None = None,
    ) -> None:
        self.bot = bot
        self.service = service
        self.store: Store = service.store
        self.settings = settings
        self.clock = clock
        self.liveness = liveness or Liveness(self.store)

    async def sync(self, chat_id: int, thread_id: int | None) -> None:
        """Do what is missing now; note in the due index when the rest can be done.

        If this process dies half-way, the chat is still noted as due: by the change
        that called for this sync (see `GameService._change`), or, for a sweep, by the
        entry that made it due. A sweeper somewhere then does the rest.
        """
        group_due = await self._sync_group(chat_id, thread_id)
        await self._sync_hands(chat_id, thread_id)
        game = await self.store.load(chat_id, thread_id)
        due = [] if group_due is None else [group_due]
        if game is not None and group_due is None:
            # What the group needed may have changed since we looked: another sync (here or
            # in another process) can have finished its call and noted the next one, which
            # the exact reschedule below would wipe out. Keep what the stored game needs.
            pending = await self._group_due(game)
            if pending is not None:
                due.append(pending)
        if game is not None and any(seat.hand_claim_by for seat in game.seats):
            due.append(self.clock() + RETRY_WHILE_BUSY)  # a hand under way: see it arrived
        if game is not None and game.status == "playing" and game.deadline is not None:
            due.append(game.deadline)
        await self.store.reschedule(chat_id, thread_id, min(due) if due else None)

    async def _held(self, by: str, since: float, now: float) -> bool:
        """Is a claim made by process `by` at `since` still being worked on?"""
        if now - since >= BUSY_LEASE:
            return False
        return not by or await self.liveness.alive(by)  # "": made before owners were noted

    async def _group_due(self, game: ChatGame) -> float | None:
        """When the stored game's next group call may go (None: the group is up to date)."""
        if plan_group_step(game, game.game() if game.engine is not None else None) is None:
            return None
        now = self.clock()
        if game.group_busy and await self._held(game.group_busy_by, game.group_busy_since, now):
            return now + RETRY_WHILE_BUSY  # someone is making a call: look again after it
        return next_group_call(
            game.group_calls,
            now,
            self.settings.group_edit_interval_seconds,
            self.settings.group_messages_per_minute,
        )

    # -- the group ----------------------------------------------------------------------

    async def _sync_group(self, chat_id: int, thread_id: int | None) -> float | None:
        """Make the group calls the pace allows; the time the next one may go, if any."""
        for _ in range(6):
            game = await self.store.load(chat_id, thread_id)
            if game is None:
                return None
            engine_game = game.game() if game.engine is not None else None
            now = self.clock()
            lost = ""  # the dead process whose claim we may take over
            if game.group_busy:
                if await self._held(game.group_busy_by, game.group_busy_since, now):
                    return None  # another sync is making a call; it plans the next one itself
                lost = game.group_busy_by
            step = plan_group_step(game, engine_game)
            if step is None:
                return None
            allowed = next_group_call(
                game.group_calls,
                now,
                self.settings.group_edit_interval_seconds,
                self.settings.group_messages_per_minute,
            )
            if allowed > now:
                return allowed
            claimed = await self._claim_group(chat_id, thread_id, step, now, lost)
            if claimed is None:
                continue  # someone else changed the game: plan again
            result = await self._perform(claimed, step)
            if result.outcome is Outcome.FORBIDDEN:  # the bot left the group, or may not write
                log.info("cannot write to chat %s: its game is abandoned", chat_id)
                await self.service.abandon(chat_id, thread_id, claimed.id)
                return None
            if result.outcome in (Outcome.FAILED, Outcome.MIGRATED):
                return self.clock() + RETRY_FAILED  # not in a tight loop: try again later
        return self.clock()

    async def _claim_group(
        self, chat_id: int, thread_id: int | None, step: GroupStep, now: float, lost: str
    ) -> ChatGame | None:
        interval = self.settings.group_edit_interval_seconds
        per_minute = self.settings.group_messages_per_minute
        await self.liveness.beat()  # our claim must not look abandoned to others
        owner = self.liveness.process_id

        def apply(tx: Tx) -> None:
            game = tx.game
            if game is None:
                raise Refusal("game_gone")
            engine_game = game.game() if game.engine is not None else None
            fresh = now - game.group_busy_since < BUSY_LEASE
            if game.group_busy and fresh and not (lost and game.group_busy_by == lost):
                raise Refusal("not_due")
            again = plan_group_step(game, engine_game)
            if again != step or next_group_call(game.group_calls, now, interval, per_minute) > now:
                raise Refusal("not_due")
            game.group_calls = [t for t in game.group_calls if now - t < 60] + [now]
            game.group_busy, game.group_busy_since, game.group_busy_by = step.key, now, owner
            if step.kind == "new_board" and step.round_number != game.board.round_number:
                game.board = Board(round_number=step.round_number)

        try:
            game, _ = await self.store.change(chat_id, thread_id, apply)
        except Refusal:
            return None
        return game

    async def _perform(self, game: ChatGame, step: GroupStep) -> Result:
        tr = translator(await self.service.chat_language(game.chat_id))
        if step.kind == "edit_lobby":
            return await self._edit_lobby(game, tr)
        if step.kind == "close_lobby":
            return await self._close_lobby(game, tr)
        if step.kind == "stop_board":
            return await self._stop_board(game, tr)
        if step.kind == "final":
            return await self._post_final(game, tr)
        return await self._show_board(game, step, tr)

    async def _edit_lobby(self, game: ChatGame, tr: Translator) -> Result:
        assert game.lobby_message_id is not None
        username = self.bot.username
        result = await api.edit_text(
            self.bot,
            game.chat_id,
            game.lobby_message_id,
            texts.lobby_text(game, tr),
            markup=keyboards.lobby(game, tr, username),
        )
        if await self._migrated(game, result):
            return result

        def record(tx: Tx) -> None:
            if tx.game is not None and tx.game.id == game.id:
                if result.outcome is Outcome.GONE:
                    tx.game.lobby_message_id = None
                elif result.ok:
                    tx.game.lobby_shows = max(tx.game.lobby_shows, game.lobby_rev)

        await self._record(game, record)
        return result

    async def _close_lobby(self, game: ChatGame, tr: Translator) -> Result:
        assert game.lobby_message_id is not None
        if game.status == "cancelled":
            result = await api.edit_text(
                self.bot, game.chat_id, game.lobby_message_id, tr("The game was cancelled.")
            )
        else:
            result = await api.delete(self.bot, game.chat_id, game.lobby_message_id)
            if result.outcome is Outcome.FAILED:  # no right to delete: say it started instead
                text = tr("The game has started.")
                result = await api.edit_text(self.bot, game.chat_id, game.lobby_message_id, text)
        if await self._migrated(game, result):
            return result

        def record(tx: Tx) -> None:
            if tx.game is not None and tx.game.id == game.id:
                tx.game.lobby_closed = True

        await self._record(game, record)
        return result

    async def _stop_board(self, game: ChatGame, tr: Translator) -> Result:
        assert game.board.message_id is not None
        engine_game = game.game()
        caption = _with_line(board_text(view_for(engine_game), tr), tr("The game was stopped."))
        result = await api.call(
            lambda: self.bot.edit_message_caption(
                chat_id=game.chat_id,
                message_id=game.board.message_id,
                caption=caption,
                parse_mode="HTML",
                reply_markup=None,
            ),
            "editMessageCaption",
        )
        if await self._migrated(game, result):
            return result

        def record(tx: Tx) -> None:
            if tx.game is not None and tx.game.id == game.id:
                tx.game.board.finished = True

        await self._record(game, record)
        return result

    async def _show_board(self, game: ChatGame, step: GroupStep, tr: Translator) -> Result:
        engine_game = game.game()
        board = game.board
        round_number = board.round_number
        round_over = round_number < engine_game.round.number or game.status == "over"
        finishing = step.kind == "finish_board" or (step.kind == "new_board" and round_over)
        view = view_for(engine_game, None, round_number)
        caption = self._board_caption(game, engine_game, view, tr, finishing)
        picture = render_board(view, tr)
        markup = None if finishing else keyboards.board(game, tr)
        result = await api.show_photo(
            self.bot,
            game.chat_id,
            None if step.kind == "new_board" else board.message_id,
            picture,
            caption,
            thread_id=game.thread_id,
            markup=markup,
        )
        if await self._migrated(game, result):
            return result
        actions = _actions(engine_game)
        notes_shown = len(game.notes)

        def record(tx: Tx) -> None:
            current = tx.game
            if current is None or current.id != game.id:
                return
            if result.outcome is Outcome.GONE:  # deleted by someone: post a new one
                current.board.message_id = None
                return
            if not result.ok:
                return
            if step.kind == "new_board":
                current.board.message_id = result.message_id
            current.board.shows_version = engine_game.version
            current.board.shows_actions = actions
            current.board.finished = finishing
            del current.notes[:notes_shown]

        await self._record(game, record)
        return result

    def _board_caption(
        self, game: ChatGame, engine_game: Game, view: SeatView, tr: Translator, finishing: bool
    ) -> str:
        base = board_text(view, tr)
        extra = [html.escape(note) for note in game.notes]
        entries = _entries(engine_game)[game.board.shows_actions :]
        if len(entries) > 1 and not finishing:  # the board text already names the last one
            shown = [texts.describe_entry(tr, view, e) for e in entries[-RECENT_SHOWN:]]
            if len(entries) > RECENT_SHOWN:
                shown.insert(0, "…")
            extra.insert(0, html.escape(tr("Since the last picture:")) + " " + "; ".join(shown))
        # Whole lines only: cutting Telegram HTML mid-tag would break the caption.
        while extra and len(base) + sum(len(part) + 2 for part in extra) > CAPTION_LIMIT:
            extra.pop(0 if len(extra) > len(game.notes) else -1)
        return "\n\n".join([base, *extra])

    async def _post_final(self, game: ChatGame, tr: Translator) -> Result:
        engine_game = game.game()
        view = view_for(engine_game)
        picture = render_final(view, tr)
        result = await api.send_photo(
            self.bot,
            game.chat_id,
            picture.data,
            final_text(view, tr),
            thread_id=game.thread_id,
            markup=keyboards.final(game, tr),
            filename=picture.filename,
        )
        if await self._migrated(game, result):
            return result

        def record(tx: Tx) -> None:
            if tx.game is not None and tx.game.id == game.id and result.ok:
                tx.game.final_message_id = result.message_id or 0

        await self._record(game, record)
        return result

    # -- the hands ----------------------------------------------------------------------

    async def _sync_hands(self, chat_id: int, thread_id: int | None) -> None:
        game = await self.store.load(chat_id, thread_id)
        if game is None or game.engine is None:
            return
        engine_game = game.game()
        now = self.clock()
        for seat_index, seat in enumerate(game.seats):
            if seat.user_id is None:
                continue
            _, shows = hand_state(game, engine_game, seat_index)
            if seat.computer and seat.hand_message_id is None:
                continue
            retake = None
            if seat.hand_shows == shows:
                if not await self._hand_lost(seat, now):
                    continue
                retake = (seat.hand_claim_by, seat.hand_claim_since)  # its sender died
            await self._update_hand(
                game.chat_id, game.thread_id, game.id, seat_index, shows, retake
            )

    async def _hand_lost(self, seat: Seat, now: float) -> bool:
        """Was this hand claimed by a process that died before sending it?"""
        claimed = bool(seat.hand_claim_by)
        return claimed and not await self._held(seat.hand_claim_by, seat.hand_claim_since, now)

    async def _update_hand(
        self,
        chat_id: int,
        thread_id: int | None,
        game_id: str,
        seat_index: int,
        shows: str,
        retake: tuple[str, float] | None = None,
    ) -> None:
        await self.liveness.beat()
        owner, since = self.liveness.process_id, self.clock()

        def claim(tx: Tx) -> str:
            game = tx.game
            if game is None or game.id != game_id or game.engine is None:
                raise Refusal("game_gone")
            seat = game.seats[seat_index]
            _, wanted = hand_state(game, game.game(), seat_index)
            if wanted != shows:
                raise Refusal("not_due")
            previous = seat.hand_shows
            if seat.hand_shows == wanted:
                if retake != (seat.hand_claim_by, seat.hand_claim_since):
                    raise Refusal("not_due")  # shown, or someone alive is showing it
                previous = ""  # if we fail too, the next sync tries again
            seat.hand_shows = wanted
            seat.hand_claim_by, seat.hand_claim_since = owner, since
            return previous

        try:
            game, previous = await self.store.change(chat_id, thread_id, claim)
        except Refusal:
            return
        assert game is not None
        seat = game.seats[seat_index]
        assert seat.user_id is not None
        engine_game = game.game()
        active, _ = hand_state(game, engine_game, seat_index)
        active = active and not seat.computer
        view = view_for(engine_game, seat_index)
        tr = translator(seat.lang)
        caption = texts.hand_caption(game, view, tr, game.chat_title)
        picture = render_hand(view, tr)
        markup = keyboards.hand(game, view, tr) if active else None
        old_id = seat.hand_message_id
        fresh = active or old_id is None or seat.hand_resend  # a new message notifies him
        result = await api.show_photo(
            self.bot, seat.user_id, None if fresh else old_id, picture, caption, markup=markup
        )
        if fresh and result.ok and old_id is not None:
            await api.delete(self.bot, seat.user_id, old_id)
        now = self.clock()
        group_tr = translator(await self.service.chat_language(chat_id))

        def record(tx: Tx) -> None:
            current = tx.game
            if current is None or current.id != game_id:
                return
            seated = current.seats[seat_index]
            if (seated.hand_claim_by, seated.hand_claim_since) == (owner, since):
                seated.hand_claim_by = ""  # our claim is done (a later one stays)
            if result.ok:
                if result.message_id is not None:
                    seated.hand_message_id = result.message_id
                seated.hand_resend = False
                return
            seated.hand_shows = previous  # not shown: the next sync tries again
            if result.outcome is Outcome.GONE:
                seated.hand_message_id = None
            elif result.outcome is Outcome.FORBIDDEN and not seated.computer:
                seated.computer = True
                seated.hand_message_id = None  # nothing more goes to a chat that refuses us
                # N_ marks the text for extraction, which only knows calls named `tr`.
                note = group_tr(N_("{name} blocked the bot; the computer plays for them."))
                current.notes.append(note.format(name=seated.name))
                if current.engine is not None and current.status == "playing":
                    engine_now = current.game()
                    if engine_now.turn == seat_index:
                        current.deadline = now + self.settings.computer_delay_seconds
                        current.deadline_version = engine_now.version

        changed = await self._record(game, record, group_call=False)
        if changed is not None and changed.deadline is not None:
            await self.store.schedule(chat_id, thread_id, changed.deadline)

    # -- helpers --------------------------------------------------------------------------

    async def _record(
        self, game: ChatGame, apply: Callable[[Tx], None], group_call: bool = True
    ) -> ChatGame | None:
        """Store what a call did; a group call also ends its claim."""
        busy = game.group_busy if group_call else ""

        def record(tx: Tx) -> None:
            if tx.game is not None and busy and tx.game.group_busy == busy:
                tx.game.group_busy, tx.game.group_busy_by = "", ""
            apply(tx)

        changed, _ = await self.store.change(game.chat_id, game.thread_id, record)
        return changed

    async def _migrated(self, game: ChatGame, result: Result) -> bool:
        if result.outcome is not Outcome.MIGRATED or result.new_chat_id is None:
            return False
        log.info("chat %s moved to %s", game.chat_id, result.new_chat_id)
        await self.service.move_chat(game.chat_id, result.new_chat_id)
        await self.sync(result.new_chat_id, game.thread_id)
        return True


def _entries(engine_game: Game) -> list[MoveEntry]:
    return [entry for rnd in engine_game.rounds for entry in rnd.moves]


def _actions(engine_game: Game) -> int:
    return sum(len(rnd.moves) for rnd in engine_game.rounds)


def _with_line(caption: str, line: str) -> str:
    """`line` first, then as much of the caption as still fits, in whole lines."""
    lines = [f"<b>{html.escape(line)}</b>", *caption.split("\n")]
    while len("\n".join(lines)) > CAPTION_LIMIT and len(lines) > 1:
        lines.pop()
    return "\n".join(lines)
