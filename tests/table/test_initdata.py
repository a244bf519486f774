"""Telegram's init data: what is signed with the bot's token is trusted, nothing else."""

from __future__ import annotations

import time
from urllib.parse import parse_qsl, urlencode

import pytest

from bot.table.initdata import Unauthorized, check_init_data, sign
from tests.support.table import init_data
from tests.table.conftest import OTHER_BOT, TOKEN

DAY = 24 * 3600.0


def fields(raw: str) -> dict[str, str]:
    return dict(parse_qsl(raw))


def test_signed_data_names_the_user_and_the_game() -> None:
    now = time.time()
    raw = init_data(TOKEN, 42, "Андрей", "abc123", language_code="en", last_name="Петров")
    found = check_init_data(raw, TOKEN, DAY, now)
    assert (found.user_id, found.name, found.language_code) == (42, "Андрей Петров", "en")
    assert found.start_param == "abc123"


def test_the_hash_is_the_bot_api_s() -> None:
    # The Bot API's recipe written out once more, by hand: HMAC-SHA256 keyed with
    # HMAC-SHA256("WebAppData", token) over the sorted key=value lines.
    import hashlib
    import hmac

    data = {"auth_date": "1700000000", "user": '{"id":1}', "query_id": "AAA"}
    secret = hmac.new(b"WebAppData", TOKEN.encode(), hashlib.sha256).digest()
    check = 'auth_date=1700000000\nquery_id=AAA\nuser={"id":1}'
    assert sign(data, TOKEN) == hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()


def tampered(raw: str, **changes: str) -> str:
    found = fields(raw)
    found.update(changes)
    return urlencode(found)


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda: "", "missing"),
        (lambda: None, "missing"),
        (lambda: "x" * 5000, "too long"),
        (lambda: "%%%", "malformed"),
        (lambda: init_data(OTHER_BOT, 42, "Андрей", "g1"), "bad signature"),
        (lambda: tampered(init_data(TOKEN, 42, "Андрей", "g1"), user='{"id":43}'), "bad signature"),
        (lambda: tampered(init_data(TOKEN, 42, "Андрей", "g1"), start_param="g2"), "bad signature"),
        (lambda: init_data(TOKEN, 42, "Андрей", "g1") + "&start_param=g2", "a field given twice"),
        (lambda: urlencode({"auth_date": "1", "user": "{}"}), "no hash"),
        (lambda: init_data(TOKEN, 42, "Андрей", "g1", auth_date=time.time() - DAY - 60), "expired"),
        (
            lambda: init_data(TOKEN, 42, "Андрей", "g1", auth_date=time.time() + 3600),
            "dated in the future",
        ),
    ],
)
def test_untrusted_data_is_refused(make: object, reason: str) -> None:
    raw = make()  # type: ignore[operator]
    with pytest.raises(Unauthorized) as refused:
        check_init_data(raw, TOKEN, DAY, time.time())
    assert refused.value.reason == reason
    # The refusal never repeats the data (it is a credential while fresh).
    if isinstance(raw, str) and raw:
        assert raw not in str(refused.value)


@pytest.mark.parametrize("user", ["", "[]", '{"id": "42"}', '{"id": 0}', '{"id": true}', "{"])
def test_signed_data_without_a_user_is_refused(user: str) -> None:
    data = {"auth_date": str(int(time.time())), "user": user}
    raw = urlencode({**data, "hash": sign(data, TOKEN)})
    with pytest.raises(Unauthorized, match="no user"):
        check_init_data(raw, TOKEN, DAY, time.time())


def test_a_user_without_a_name_that_shows_has_none() -> None:
    raw = init_data(TOKEN, 42, "\u2800 \u200b", "g1")
    assert check_init_data(raw, TOKEN, DAY, time.time()).name == ""
