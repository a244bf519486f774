"""The real bot (`python -m bot`, what `domino-bot` runs) as a subprocess against the fake
Bot API: its environment, its log, starting, waiting until it is ready, stopping."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.fakebotapi import FakeBotApi
from tests.support.redis_server import free_port
from tests.support.waiting import until

ROOT = Path(__file__).resolve().parents[2]
# Test pacing: computers and boards quick, so a whole game takes seconds.
QUICK = {
    "COMPUTER_DELAY_SECONDS": "0.05",
    "GROUP_EDIT_INTERVAL_SECONDS": "0.25",
    "GROUP_MESSAGES_PER_MINUTE": "120",
    "SWEEP_INTERVAL_SECONDS": "0.1",
}

TABLE_ON = {"WEBAPP_URL": "https://table.invalid"}  # the live table's public address


def bot_environment(
    api: FakeBotApi, redis_url: str, prefix: str, *, quick: bool = True, **overrides: str
) -> dict[str, str]:
    """The environment of a bot talking to `api` and keeping its keys under `prefix`.

    `quick`: the test pacing above; without it the bot's own defaults (the benches)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "REDIS_"))}
    env.update(
        TELEGRAM_BOT_TOKEN=api.token,
        TELEGRAM_API_URL=api.url,
        REDIS_URL=redis_url,
        KEY_PREFIX=prefix,
        LOG_LEVEL="INFO",
        PYTHONPATH=str(ROOT),
    )
    if quick:
        env.update(QUICK)
    env.update(overrides)
    return env


def serving_table_environment(
    api: FakeBotApi, redis_url: str, prefix: str, port: int
) -> dict[str, str]:
    """A polling bot whose web server, and so the live table, is on 127.0.0.1:`port`
    (the table is on once it has a public address; a browser reaches 127.0.0.1 directly)."""
    return bot_environment(
        api, redis_url, prefix, HEALTH_LISTEN="127.0.0.1", HEALTH_PORT=str(port), **TABLE_ON
    )


@dataclass(frozen=True)
class Webhook:
    """Where a bot in webhook mode listens (a free local port) and the secret Telegram
    sends it; `settings()` are the environment's webhook lines."""

    port: int
    secret: str

    @classmethod
    def new(cls, secret: str | None = None) -> Webhook:
        return cls(free_port(), secret or uuid.uuid4().hex)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def settings(self) -> dict[str, str]:
        return {
            "WEBHOOK_URL": self.base,
            "WEBHOOK_LISTEN": "127.0.0.1",
            "WEBHOOK_PORT": str(self.port),
            "WEBHOOK_SECRET": self.secret,
        }


@dataclass
class BotProcess:
    """One bot process; it may be stopped (or killed) and started again on the same log."""

    env: dict[str, str]
    log_path: Path
    cwd: Path | None = None  # default: the log's folder
    out_path: Path | None = None  # its standard output apart from the log (stderr)
    process: subprocess.Popen[bytes] | None = None
    log_start: int = 0  # where this run's log begins

    def start(self) -> BotProcess:
        self.log_start = self.log_path.stat().st_size if self.log_path.exists() else 0
        with self.log_path.open("ab") as log, (self.out_path or Path(os.devnull)).open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "bot"],
                env=self.env,
                cwd=self.cwd or self.log_path.parent,
                stdout=log if self.out_path is None else out,
                stderr=log,
            )
        return self

    def wait_ready(self, timeout: float = 20) -> None:
        """Ready once it says so (updates sent before then wait in the fake's queue)."""
        process = self.process

        def ready() -> bool:
            if process is not None and process.poll() is not None:
                raise AssertionError("the bot exited at start:\n" + self.log()[-3000:])
            return "is ready" in self.log()[self.log_start :]

        until(ready, "the bot ready", timeout, every=0.05, context=lambda: self.log()[-3000:])

    def stop(self, kill: bool = False) -> None:
        """SIGINT (a clean stop) or SIGKILL (nothing saved on the way out)."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL if kill else signal.SIGINT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process = None

    def restart(self, timeout: float = 40) -> None:
        """Killed (SIGKILL) and started again, ready."""
        self.stop(kill=True)
        self.start()
        self.wait_ready(timeout)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def check_log(self) -> None:
        """The log keeps the token secret and shows no traceback."""
        text = self.log()
        assert self.env["TELEGRAM_BOT_TOKEN"] not in text, "the token leaked into the log"
        assert "Traceback" not in text, text[-4000:]

    def cpu_seconds(self) -> float:
        """User and system CPU time of the running process (all its threads), from /proc."""
        assert self.process is not None
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = os.sysconf("SC_CLK_TCK")
        return (int(fields[11]) + int(fields[12])) / ticks


@contextmanager
def running(env: dict[str, str], log_path: Path, timeout: float = 40) -> Iterator[BotProcess]:
    """The bot, started and ready; stopped at the end, and then (if all went well) its log
    checked."""
    bot = BotProcess(env, log_path).start()
    try:
        bot.wait_ready(timeout)
        yield bot
    finally:
        bot.stop()
    bot.check_log()
