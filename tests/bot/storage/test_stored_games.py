"""Games stored by an earlier release load and play on after an upgrade.

`tests/data/stored/` holds the exact bytes a release's service stored for a chat's
game at chosen moments (see its README.md: they are never regenerated in place):
format 2 in the folder itself, format 3 in `v3/`, format 4 (this release's) in `v4/`. Each one must
parse as this release's match, and the service,
given those bytes in a fresh key of the real Redis, must carry the game on to its
end: people's moves, turn deadlines and computer seats, with the engine's
invariants holding after every action. A value it cannot read must be reported as
`BrokenGameError` (what the handlers turn into "this game cannot be read").
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio import Redis

from bot.game.match_records import Current
from bot.game.options import LobbyAction
from bot.game.people import Person
from bot.game.service import GameService, Played
from bot.i18n import translator
from bot.render import localized_name
from bot.settings import Settings
from bot.storage.keys import Keys
from bot.storage.models import MATCH_FORMAT, GroupDelivery, HandDelivery, Match, Note, Seat
from bot.storage.store import Store
from bot.storage.store_errors import BrokenGameError, GameLostError, NewerGameError
from bot.storage.stored import parse_match
from engine import ALL_TILES, Game, pack, unpack
from engine.compact import FORMAT as ENGINE_FORMAT
from engine.players import computer_player
from tests.support.clocks import ManualClock

STORED = Path(__file__).resolve().parents[2] / "data" / "stored"
# Each format's stored games, by the folder they are in.
FOLDERS = {2: STORED, 3: STORED / "v3", 4: STORED / "v4"}
MANIFESTS: dict[int, dict[str, Any]] = {
    written: json.loads((folder / "manifest.json").read_text())
    for written, folder in FOLDERS.items()
}
# "v<format>/<file name>" of every stored game.
NAMES = sorted(
    f"v{written}/{name}" for written, found in MANIFESTS.items() for name in found["files"]
)
TOKEN = "123456:TEST-token-abcdefghijklmnopqrstuvwxyz123"
COMPUTER_DELAY = 1.5
MAX_ACTIONS = 400  # every stored game ends well within this (the longest takes ~190)


class Clock(ManualClock):
    def __init__(self) -> None:
        super().__init__(1_750_000_000.0)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(redis_client: Redis, key_prefix: str, clock: Clock) -> GameService:
    return new_service(redis_client, key_prefix, clock)


def new_service(redis_client: Redis, key_prefix: str, clock: Clock) -> GameService:
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None,
        telegram_bot_token=TOKEN,
        key_prefix=key_prefix,
        computer_delay_seconds=COMPUTER_DELAY,
    )
    return GameService(Store(redis_client, Keys(key_prefix)), settings, clock=clock)


def path_of(name: str) -> Path:
    """The file of a stored game ("v3/fives-lobby.match.json"), or of one beside it."""
    written, _, file_name = name.partition("/")
    return FOLDERS[int(written.removeprefix("v"))] / file_name


def raw_of(name: str) -> bytes:
    return path_of(name).read_bytes()


def expected_of(name: str) -> dict[str, Any]:
    written, _, file_name = name.partition("/")
    found: dict[str, Any] = MANIFESTS[int(written.removeprefix("v"))]["files"][file_name]
    return found


def beside(name: str, suffix: str) -> Path:
    """The delivery record stored beside a match file (`suffix`: ".group.json" ...)."""
    path = path_of(name)
    return path.with_name(path.name.removesuffix(".match.json") + suffix)


def check_engine(game: Game) -> None:
    """What holds for every engine state the service stores."""
    rnd = game.round
    held = [t for hand in rnd.hands for t in hand] + rnd.boneyard + rnd.table.tiles()
    assert len(held) == len(ALL_TILES) == 28
    assert set(held) == set(ALL_TILES)
    for done in game.rounds[:-1]:
        assert done.over
    assert len(game.totals) == len(game.players)
    assert unpack(pack(game)) == game
    if game.over:
        assert game.turn is None
    else:
        assert game.turn is not None and game.legal_moves()


# -- the files as they are ------------------------------------------------------------


def test_the_manifests_list_every_stored_game() -> None:
    assert max(FOLDERS) == MATCH_FORMAT == 4  # this release's own games are kept too
    for written, manifest in MANIFESTS.items():
        assert manifest["match_format"] == written
        assert manifest["engine_format"] == ENGINE_FORMAT == 1
        files = manifest["files"]
        assert sorted(p.name for p in FOLDERS[written].glob("*.match.json")) == sorted(files)
        assert all(entry["format"] == written for entry in files.values())
        moments = {(f["variant"], f["moment"]) for f in files.values()}
        for variant in ("fives", "muggins", "twolane"):
            for moment in ("lobby", "midround-computer", "midround-human", "over"):
                assert (variant, moment) in moments
        assert ("fives", "roundend") in moments and ("muggins", "roundend") in moments


# The fields of each match format. A release that adds, drops or renames one must
# bump MATCH_FORMAT: an older process (its models forbid unknown fields) then sees a
# newer format and leaves the record to the newer processes, instead of taking it for
# a damaged one and setting it aside in the middle of a rolling deploy.
FORMAT_2_FIELDS = (
    ("format", "rev", "id", "chat_id", "thread_id", "status", "variant", "creator_id"),
    ("creator_name", "seats", "target", "turn_seconds", "seed", "lobby_rev"),
    ("chat_title", "lang", "notes", "notes_dropped", "deadline", "engine", "ended"),
    ("stopped_by", "topic", "lobby_touched"),
    ("name", "user_id", "level", "lang", "computer", "left", "missed", "hand_requests"),
)
MATCH_FIELDS = {
    2: FORMAT_2_FIELDS,
    # The same, and the notes became codes with the player's name (format 2 kept sentences).
    3: (*FORMAT_2_FIELDS, ("code", "name", "text")),
    # The same, and a computer player kept by its number, not its name in words.
    4: (
        *FORMAT_2_FIELDS[:-1],
        ("name", "user_id", "number", "level", "lang", "computer", "left", "missed"),
        ("hand_requests",),
        ("code", "name", "text"),
    ),
}


def test_a_change_of_the_match_fields_comes_with_a_new_format() -> None:
    *match_rows, seat_fields, more_seat_fields, note_fields = MATCH_FIELDS[MATCH_FORMAT]
    assert tuple(Match.model_fields) == tuple(f for row in match_rows for f in row)
    assert tuple(Seat.model_fields) == seat_fields + more_seat_fields
    assert tuple(Note.model_fields) == note_fields


# How each format kept the note that Андрей's time ran out.
TIMED_OUT_NOTES = {
    2: Note(code="text", text="Андрей: время вышло, ход сделан автоматически."),
    3: Note(code="timed_out", name="Андрей"),
    4: Note(code="timed_out", name="Андрей"),
}


@pytest.mark.parametrize("name", NAMES)
def test_a_stored_game_parses_as_it_was_written(name: str) -> None:
    expected = expected_of(name)
    raw = raw_of(name)
    match = parse_match(raw)
    assert match is not None
    assert match.format == MATCH_FORMAT  # read as this release's, whatever it was written in
    written = json.loads(raw)
    assert written["format"] == expected["format"]
    if written["format"] == 2:  # its notes were sentences: shown as they were written
        assert match.notes == [Note(code="text", text=note) for note in written["notes"]]
    else:
        assert [note.model_dump() for note in match.notes] == written["notes"]
    computers = [seat for seat in match.seats if seat.kind == "computer"]
    assert [(seat.name, seat.number) for seat in computers] == [("", 1)]  # (was «Компьютер 1»)
    if expected["moment"] == "midround-human":  # Андрей missed a turn: a note says so
        said = TIMED_OUT_NOTES[written["format"]]
        assert match.seats[0].missed == 1 and match.notes == [said]
    assert match.variant == expected["variant"]
    assert match.status == expected["status"]
    assert match.rev == expected["rev"]
    assert match.deadline == expected["deadline"]
    assert len(match.seats) == expected["seats"]
    if expected["status"] == "lobby":
        assert match.engine is None
        return
    assert match.engine is not None
    game = unpack(match.engine)
    assert game.variant == match.variant
    assert game.players == [seat.player for seat in match.seats]
    assert game.version == expected["version"]
    assert len(game.rounds) == expected["rounds"]
    assert game.turn == expected["turn"]
    assert game.over == (match.status == "over")
    check_engine(game)
    if expected["moment"] == "roundend":
        assert len(game.rounds) >= 2 and game.rounds[-2].over and not game.round.moves
    if expected["to_act"] is not None:
        assert game.turn is not None
        assert match.seats[game.turn].human == (expected["to_act"] == "human")
    # The delivery records stored beside it (this release's models) parse too.
    group = GroupDelivery.model_validate_json(beside(name, ".group.json").read_bytes())
    assert group.game_id == match.id
    for seat, place in enumerate(match.seats):
        path = beside(name, f".hand-{seat}.json")
        assert path.exists() == (place.user_id is not None)
        if path.exists():
            assert HandDelivery.model_validate_json(path.read_bytes()).game_id == match.id


@pytest.mark.parametrize("called", ["Компьютер 2", "Computer 2"])
def test_an_upgraded_game_numbers_its_computers_and_keeps_its_peoples_names(called: str) -> None:
    """Format 3 named computer players in words: read now, they are numbered and named
    where shown, while a person who calls himself so keeps his name in every language."""
    data = json.loads(raw_of("v3/fives-midround-human.match.json"))
    data["seats"][0]["name"] = called  # Андрей, in the match and in its game
    game = unpack(data["engine"])
    game.players[0] = called
    data["engine"] = pack(game)
    match = parse_match(json.dumps(data, ensure_ascii=False))
    assert match is not None and match.format == MATCH_FORMAT
    assert [(seat.kind, seat.name, seat.number) for seat in match.seats] == [
        ("person", called, 0),
        ("person", "Ирина", 0),
        ("computer", "", 1),
    ]
    assert match.engine is not None
    players = unpack(match.engine).players
    assert players == [called, "Ирина", computer_player(1)]
    for tr, computer in ((translator("ru"), "Компьютер 1"), (translator("en"), "Computer 1")):
        assert [localized_name(tr, name) for name in players] == [called, "Ирина", computer]


# -- loading them and playing on --------------------------------------------------------


async def put(service: GameService, name: str) -> Match:
    """The stored bytes (and delivery records) in this test's fresh keys, as Redis held them."""
    raw = raw_of(name)
    match = parse_match(raw)
    assert match is not None
    keys, redis = service.store.keys, service.store.redis
    await redis.set(keys.game(match.chat_id, match.thread_id), raw)
    group = beside(name, ".group.json")
    if group.exists():
        await redis.set(keys.group(match.chat_id, match.thread_id), group.read_bytes())
    for seat in range(len(match.seats)):
        hand = beside(name, f".hand-{seat}.json")
        if hand.exists():
            await redis.set(keys.hand(match.chat_id, match.thread_id, seat), hand.read_bytes())
    return match


async def stored_raw(service: GameService, match: Match) -> bytes | None:
    value = await service.store.redis.get(service.store.keys.game(match.chat_id, match.thread_id))
    return None if value is None else bytes(value)


def person(match: Match, seat: int) -> Person:
    place = match.seats[seat]
    assert place.user_id is not None
    return Person(place.user_id, place.name, place.lang)


def creator(match: Match) -> Person:
    return Person(match.creator_id, match.creator_name, match.lang)


async def play_to_the_end(
    service: GameService, clock: Clock, current: Current, rng: random.Random
) -> tuple[Current, int]:
    """Play on from `current` until the game is over: each person plays a random legal move
    (every third of his turns he lets the deadline pass instead), computers play when their
    deadline comes. Checks every action; the final state and how many actions there were."""
    match = current.match
    chat, thread = match.chat_id, match.thread_id
    human_turns = 0
    for actions in range(MAX_ACTIONS):
        match, game = current.match, current.game
        assert game is not None
        check_engine(game)
        if match.status == "over":
            assert game.over and match.deadline is None
            return current, actions
        assert match.status == "playing" and not game.over
        turn = game.turn
        assert turn is not None and match.deadline is not None
        seat = match.seats[turn]
        played: Played | None
        if seat.human:
            human_turns += 1
        if seat.human and human_turns % 3 != 0:
            clock.now = max(clock.now, match.deadline - 1)
            move = rng.choice(game.legal_moves())
            played = await service.play(
                chat, thread, match.id, game.version, person(match, turn), move
            )
            own = 1
        else:
            clock.now = max(clock.now, match.deadline) + 0.01
            played = await service.run_due(chat, thread)
            assert played is not None and played.entries
            own = next(
                (i for i, e in enumerate(played.entries) if e.seat != turn), len(played.entries)
            )
        after, engine_after = played.current.match, played.current.game
        assert engine_after is not None
        assert after.rev == match.rev + 1
        assert engine_after.version == game.version + len(played.entries)
        assert own >= 1 and all(entry.seat == turn for entry in played.entries[:own])
        # What follows was made for people who had no choice: draws and passes only.
        forced = played.entries[own:]
        assert all(e.text in ("draw", "pass") and after.seats[e.seat].human for e in forced)
        assert await stored_raw(service, after) == played.current.raw
        if after.status == "playing":
            next_seat = after.seats[engine_after.turn or 0]
            delay = after.turn_seconds if next_seat.human else COMPUTER_DELAY
            assert after.deadline == pytest.approx(clock.now + delay)
        clock.now += 0.25
        current = played.current
    raise AssertionError(f"not over after {MAX_ACTIONS} actions")


@pytest.mark.parametrize("name", NAMES)
async def test_a_stored_game_loads_and_plays_on(
    name: str, service: GameService, clock: Clock
) -> None:
    expected = expected_of(name)
    stored = await put(service, name)
    chat, thread = stored.chat_id, stored.thread_id
    current = await service.current(chat, thread)
    assert current is not None
    assert current.raw == raw_of(name)
    assert current.match == stored
    clock.now = (stored.deadline or clock.now) - 1  # just before its deadline (if any)

    if stored.status == "lobby":
        assert await service.run_due(chat, thread) is None
        current = await service.lobby_action(
            chat, thread, stored.id, LobbyAction.START, "", creator(stored), False
        )
        assert current.match.rev == stored.rev + 1 and current.match.status == "playing"
        assert current.game is not None and current.game.version == 0
    elif stored.status == "over":
        # Nothing is due; the game counts in the stats once; a rematch starts from it.
        assert await service.run_due(chat, thread) is None
        assert await stored_raw(service, stored) == raw_of(name)
        stats = await service.store.scores.stats(chat)
        humans = {seat.user_id for seat in stored.seats if seat.user_id is not None}
        assert set(stats) == humans and all(line.games == 1 for line in stats.values())
        lobby = await service.rematch(chat, thread, stored.id, creator(stored))
        assert lobby.match.status == "lobby" and lobby.match.id != stored.id
        assert [s.name for s in lobby.match.seats] == [s.name for s in stored.seats]
        current = await service.lobby_action(
            chat, thread, lobby.match.id, LobbyAction.START, "", creator(stored), False
        )
        assert current.match.status == "playing"
    else:
        # Its deadline holds after the upgrade: nothing is played before it.
        assert await service.run_due(chat, thread) is None
        assert await stored_raw(service, stored) == raw_of(name)
        game = current.game
        assert game is not None and game.version == expected["version"]

    final, actions = await play_to_the_end(service, clock, current, random.Random(name))
    # Written in this release's format by its first change, the notes it had kept.
    assert json.loads(await stored_raw(service, stored) or b"")["format"] == MATCH_FORMAT
    after = final.match
    kept = range(max(stored.notes_dropped, after.notes_dropped), stored.notes_total)
    for number in kept if after.id == stored.id else ():  # (not the rematch of one over)
        assert (
            after.notes[number - after.notes_dropped] == stored.notes[number - stored.notes_dropped]
        )
    assert actions >= (1 if stored.status == "playing" else 5)
    assert final.game is not None and final.game.over
    record = await service.store.games.last_record(chat, thread)
    assert record == pack(final.game)
    stats = await service.store.scores.stats(chat)
    counted = 2 if stored.status == "over" else 1
    humans = {seat.user_id for seat in final.match.seats if seat.user_id is not None}
    assert set(stats) == humans and all(line.games == counted for line in stats.values())


# -- what cannot be read ------------------------------------------------------------------


def _real(written: int = MATCH_FORMAT) -> bytes:
    return raw_of(f"v{written}/fives-midround-human.match.json")


def _with(written: int = MATCH_FORMAT, **changes: Any) -> bytes:
    data = json.loads(_real(written))
    data.update(changes)
    return json.dumps(data, ensure_ascii=False).encode()


UNREADABLE = {
    "garbage": b"\x00\xff\xfe garbage \x80",
    "empty": b"",
    "not json": b"not json at all",
    "a json list": b"[1, 2, 3]",
    "an empty object": b"{}",
    "cut short": _real()[: len(_real()) // 2],
    "a future format with a new field": _with(format=MATCH_FORMAT + 1, new_field=1),
    "notes in words in this format": _with(notes=["Андрей: время вышло."]),
    "format 2 with notes of this format": _with(2, notes=[{"code": "left", "name": "Андрей"}]),
    "format 2 with a field of no format": _with(2, new_field=1),
    "an old single record (format 1)": json.dumps(
        {"format": 1, "chat_id": 1, "state": "lobby"}
    ).encode(),
    "a seat of another shape": _with(seats=[{"name": "x", "kind": "human"}]),
}


@pytest.mark.parametrize("raw", list(UNREADABLE.values()), ids=list(UNREADABLE))
async def test_an_unreadable_stored_game_is_a_broken_game(raw: bytes, service: GameService) -> None:
    with pytest.raises(BrokenGameError):
        parse_match(raw)
    chat = -1001000000009
    await service.store.redis.set(service.store.keys.game(chat, None), raw)
    with pytest.raises(BrokenGameError):
        await service.store.games.read_match(chat, None)
    key = service.store.keys.game(chat, None)
    if isinstance(_reading(raw), NewerGameError):
        # A newer release's game (a rolling deploy): left as it is, for its processes.
        for _ in range(2):
            with pytest.raises(NewerGameError):
                await service.current(chat, None)
        assert await service.store.redis.get(key) == raw
        return
    # Anything else is set aside (kept for a look by hand) and the chat is free again.
    with pytest.raises(GameLostError):
        await service.current(chat, None)
    assert await service.store.redis.get(key) is None
    assert await service.store.redis.get(service.store.keys.broken(chat, None)) == raw
    assert await service.current(chat, None) is None
    assert await service.run_due(chat, None) is None


def _reading(raw: bytes) -> Exception | None:
    try:
        parse_match(raw)
    except Exception as exc:
        return exc
    return None


ENGINE_UNREADABLE = {
    "a future engine format": lambda text: text.replace("[1,", "[2,", 1),
    "engine garbage": lambda text: "\x00garbage",
    "a move that is not legal": lambda text: text + " 66W",
}


@pytest.mark.parametrize("change", list(ENGINE_UNREADABLE.values()), ids=list(ENGINE_UNREADABLE))
async def test_an_unreadable_engine_state_is_a_broken_game(
    change: Any, service: GameService
) -> None:
    match = parse_match(_real())
    assert match is not None and match.engine is not None
    broken = match.model_copy(update={"engine": change(match.engine)})
    raw = broken.model_dump_json().encode()
    assert parse_match(raw) is not None  # the record itself reads; its game does not
    key = service.store.keys.game(match.chat_id, None)
    await service.store.redis.set(key, raw)
    with pytest.raises(BrokenGameError) as caught:
        await service.current(match.chat_id, None)
    if isinstance(caught.value, NewerGameError):  # a newer engine's text: left for it
        assert await service.store.redis.get(key) == raw
    else:
        assert isinstance(caught.value, GameLostError)
        assert await service.store.redis.get(key) is None


def test_a_future_format_with_the_same_fields_is_a_broken_game() -> None:
    with pytest.raises(BrokenGameError):
        parse_match(_with(format=MATCH_FORMAT + 1))
