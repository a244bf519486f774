"""The page and its files: served from the package, under a Content-Security-Policy that
allows only them, Telegram's script and the table's own WebSocket; the settings."""

from __future__ import annotations

import fnmatch
import re
import tomllib
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient
from pydantic import ValidationError

from bot.settings import Settings
from bot.table.routes import STATIC, TELEGRAM_SCRIPT
from tests.table.conftest import TOKEN

ROOT = Path(__file__).resolve().parents[2]


async def test_the_page_allows_only_its_own_files_telegram_s_script_and_its_socket(
    client: TestClient,
) -> None:
    page = await client.get("/table/")
    assert page.status == 200 and page.content_type == "text/html"
    policy = page.headers["Content-Security-Policy"]
    parts = dict(part.split(" ", 1) for part in policy.split("; "))
    assert parts["default-src"] == "'none'"
    assert parts["script-src"] == f"'self' {TELEGRAM_SCRIPT}"
    assert parts["style-src"] == "'self'"
    host = f"{client.host}:{client.port}"
    assert parts["connect-src"] == f"'self' wss://{host} ws://{host}"
    html = await page.text()
    # Nothing inline (the policy would block it): the page's script and styles are files.
    assert "<style" not in html and not re.search(r"<script>(?!</script>)", html)
    scripts = re.findall(r'<script src="([^"]+)"', html)
    assert scripts == [TELEGRAM_SCRIPT, "static/table.js"]
    for name, kind in (("table.js", "javascript"), ("table.css", "text/css")):
        served = await client.get(f"/table/static/{name}")
        assert served.status == 200 and kind in served.content_type
    assert (await client.get("/table/static/../routes.py")).status in (403, 404)
    moved = await client.get("/table", allow_redirects=False)
    assert (moved.status, moved.headers["Location"]) == (301, "/table/")


def test_the_page_writes_no_word_of_its_own() -> None:
    script = (STATIC / "table.js").read_text(encoding="utf-8")
    # Its texts come from the server's words (`words.…`); letters of either language in a
    # string literal would be a word written here.
    literals = re.findall(r'"([^"\\\n]*)"', script) + re.findall(r"'([^'\\\n]*)'", script)
    cyrillic = [text for text in literals if re.search("[А-Яа-яЁё]", text)]
    assert cyrillic == []
    sentences = [text for text in literals if re.fullmatch(r"[A-Z][a-z]+( [a-z]+)+[.!…]?", text)]
    assert sentences == []


def test_an_installed_package_carries_the_page() -> None:
    # pyproject's package data names every file of the page (`pip install .` copies them).
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["bot"]
    files = [path.relative_to(ROOT / "bot").as_posix() for path in STATIC.iterdir()]
    assert {"table/static/index.html", "table/static/table.js", "table/static/table.css"} <= set(
        files
    )
    for name in files:
        assert any(fnmatch.fnmatch(name, pattern) for pattern in patterns), name


@pytest.mark.parametrize("url", ["http://example.org", "example.org", "ftp://x"])
def test_the_table_s_address_must_be_https(url: str) -> None:
    with pytest.raises(ValidationError, match="webapp_url"):
        Settings(_env_file=None, telegram_bot_token=TOKEN, webapp_url=url)  # type: ignore[call-arg]


def test_the_table_s_settings() -> None:
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, telegram_bot_token=TOKEN, webapp_url="https://domino.example.org/"
    )
    assert settings.webapp_url == "https://domino.example.org"
    assert settings.webapp_max_age_hours == 24
    assert Settings(_env_file=None, telegram_bot_token=TOKEN).webapp_url == ""  # type: ignore[call-arg]
