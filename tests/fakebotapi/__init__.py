"""A fake Telegram Bot API server for end-to-end tests of the bot (independent of ``bot/``)."""

from .balancer import Balancer
from .methods import FLOOD_METHODS
from .server import DEFAULT_TOKEN, ChatRef, FakeBotApi, UserRef
from .state import (
    ApiError,
    Call,
    CallbackAnswer,
    FakeBotApiError,
    Fault,
    FloodLimits,
    WebhookDelivery,
)
from .views import ANY, BotMessageEvent, Button, MessageView

__all__ = [
    "ANY",
    "DEFAULT_TOKEN",
    "FLOOD_METHODS",
    "ApiError",
    "Balancer",
    "BotMessageEvent",
    "Button",
    "Call",
    "CallbackAnswer",
    "ChatRef",
    "FakeBotApi",
    "FakeBotApiError",
    "Fault",
    "FloodLimits",
    "MessageView",
    "UserRef",
    "WebhookDelivery",
]
