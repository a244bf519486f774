"""Configuration from the environment or a `.env` file (pydantic-settings)."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.i18n import DEFAULT_LANGUAGE, Language

# A bot token is "<numeric bot id>:<35 or so url-safe characters>".
TOKEN_SHAPE = re.compile(r"^\d{3,15}:[A-Za-z0-9_-]{20,100}$")

# What Telegram accepts as a webhook's secret_token.
WEBHOOK_SECRET_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,256}")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    telegram_bot_token: SecretStr
    redis_url: SecretStr | None = None
    telegram_api_url: str = "https://api.telegram.org"
    default_language: Language = DEFAULT_LANGUAGE
    turn_seconds: int = Field(default=90, ge=15, le=3600)
    # The lobby's "no clock" option, for friends who play across a day: no time per move;
    # the player to act is reminded once after the first pause, and the game ends after
    # the second one without a move (well before a week, when an untouched game expires).
    no_clock_reminder_hours: float = Field(default=4, gt=0, le=6 * 24)
    no_clock_end_hours: float = Field(default=24, gt=0, le=6 * 24)
    # A lobby nobody touched this long is closed; after the shorter pause, /newgame by
    # anyone takes it over.
    lobby_idle_seconds: float = Field(default=1800, gt=0, le=7 * 24 * 3600)
    lobby_takeover_seconds: float = Field(default=300, ge=0, le=7 * 24 * 3600)
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    log_format: Literal["text", "json"] = "text"  # json: one JSON object per line
    # Pauses and pacing; tests shorten them.
    computer_delay_seconds: float = Field(default=1.5, ge=0, le=30)
    group_edit_interval_seconds: float = Field(default=3.5, ge=0, le=60)
    group_messages_per_minute: int = Field(default=20, ge=1, le=600)
    # The bot token's calls a second, shared by every process (Telegram allows about 30).
    overall_max_rate: int = Field(default=30, ge=1, le=10_000)
    # Updates handled at once; the Redis pool is sized with it.
    concurrent_updates: int = Field(default=64, ge=1, le=1024)
    redis_max_connections: int = Field(default=160, ge=4, le=10_000)
    # Seconds the bot waits at start for Redis to answer (it may start alongside it).
    redis_connect_seconds: float = Field(default=30, ge=0, le=600)
    # Seconds a Bot API call may take before it counts as unanswered (uploads get twice
    # as long to be sent). An unanswered send may still have arrived: the delivery layer
    # then reconciles rather than sending blindly again.
    telegram_timeout_seconds: float = Field(default=10.0, ge=0.2, le=120)
    sweep_interval_seconds: float = Field(default=0.5, gt=0, le=10)
    # A bot started before the network is up tries again (PTB backs off between tries).
    startup_retries: int = Field(default=5, ge=0, le=100)
    key_prefix: str = "dom"
    # uvloop's event loop (bot.event_loop), or asyncio's own.
    event_loop: Literal["uvloop", "asyncio"] = "uvloop"
    # Webhook mode (several processes behind a load balancer); empty: long polling.
    webhook_url: str = ""
    webhook_secret: SecretStr | None = None
    webhook_listen: str = "0.0.0.0"
    webhook_port: int = 8443
    # Long polling: /healthz and /metrics on this address (HEALTH_PORT=0: not served). In
    # webhook mode they are served on the webhook's port instead.
    health_listen: str = "127.0.0.1"
    health_port: int = Field(default=8080, ge=0, le=65535)
    # The live table (bot.table), served by the same server: the public HTTPS address that
    # reaches it (empty: no table at all), and how old Telegram's signed init data may be
    # before the table refuses it.
    webapp_url: str = ""
    webapp_max_age_hours: float = Field(default=24, gt=0, le=7 * 24)

    @field_validator("telegram_bot_token")
    @classmethod
    def _token_shape(cls, value: SecretStr) -> SecretStr:
        if not TOKEN_SHAPE.match(value.get_secret_value().strip()):
            # Never echo the value: it is a secret even when malformed.
            raise ValueError("is not a bot token (expected <digits>:<letters>)")
        return SecretStr(value.get_secret_value().strip())

    @field_validator("webhook_secret")
    @classmethod
    def _webhook_secret(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None or value.get_secret_value() == "":
            return None  # WEBHOOK_SECRET= (empty): no secret
        if not WEBHOOK_SECRET_SHAPE.fullmatch(value.get_secret_value()):
            # Never echo the value: it is a secret.
            raise ValueError("must be 1-256 characters, each A-Z, a-z, 0-9, _ or -")
        return value

    @field_validator("no_clock_end_hours")
    @classmethod
    def _end_after_reminder(cls, value: float, info: ValidationInfo) -> float:
        reminder = info.data.get("no_clock_reminder_hours")
        if reminder is not None and value <= reminder:
            raise ValueError("must be longer than NO_CLOCK_REMINDER_HOURS")
        return value

    @field_validator("telegram_api_url")
    @classmethod
    def _api_url(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")):
            raise ValueError("must start with http:// or https://")
        return value.rstrip("/")

    @field_validator("webapp_url")
    @classmethod
    def _webapp_url(cls, value: str) -> str:
        if value and not value.startswith("https://"):
            raise ValueError("must start with https:// (Telegram opens Mini Apps over HTTPS only)")
        return value.rstrip("/")

    @property
    def api_base_url(self) -> str:
        return f"{self.telegram_api_url}/bot"

    @property
    def api_file_url(self) -> str:
        return f"{self.telegram_api_url}/file/bot"


def describe_error(error: ValidationError) -> str:
    """One line naming the broken setting, without its value."""
    first = error.errors()[0]
    name = ".".join(str(part) for part in first["loc"]).upper() or "settings"
    if first["type"] == "missing":
        return f"{name} is not set"
    return f"{name} {first['msg'].removeprefix('Value error, ')}"
