"""A person at the live table as the tests (and benches) make him: Telegram's init data
signed with the test token, and Telegram's script stood in for by a small
`Telegram.WebApp` that carries it (the page loads https://telegram.org/js/... otherwise)."""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import urlencode

from bot.table.initdata import sign

THEME = {
    "bg_color": "#ffffff",
    "text_color": "#17212b",
    "hint_color": "#707579",
    "link_color": "#2481cc",
    "button_color": "#2481cc",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#eff1f3",
}
TELEGRAM_SCRIPT = "https://telegram.org/js/telegram-web-app.js"


def init_data(
    token: str,
    user_id: int,
    first_name: str,
    start_param: str,
    *,
    language_code: str | None = "ru",
    auth_date: float | None = None,
    last_name: str | None = None,
) -> str:
    """Init data as Telegram gives a Mini App opened by this user with `startapp=start_param`,
    signed with `token` (a wrong token makes data another bot's)."""
    user: dict[str, Any] = {"id": user_id, "first_name": first_name}
    if last_name:
        user["last_name"] = last_name
    if language_code:
        user["language_code"] = language_code
    fields = {
        "auth_date": str(int(time.time() if auth_date is None else auth_date)),
        "chat_instance": "-4815162342",
        "chat_type": "supergroup",
        "start_param": start_param,
        "user": json.dumps(user, ensure_ascii=False, separators=(",", ":")),
    }
    fields["hash"] = sign(fields, token)
    return urlencode(fields)


def stand_in_script(raw_init_data: str, theme: dict[str, str] | None = None) -> str:
    """Telegram's script as the tests serve it: `Telegram.WebApp` with the init data, the
    theme, and a HapticFeedback that records what it was asked (`window.hapticCalls`)."""
    from urllib.parse import parse_qsl

    fields = dict(parse_qsl(raw_init_data))
    unsafe = {"start_param": fields.get("start_param", "")}
    if "user" in fields:
        unsafe["user"] = json.loads(fields["user"])
    return f"""
window.hapticCalls = [];
window.telegramCalls = [];
(function () {{
  const events = {{}};
  window.Telegram = {{ WebApp: {{
    initData: {json.dumps(raw_init_data)},
    initDataUnsafe: {json.dumps(unsafe, ensure_ascii=False)},
    themeParams: {json.dumps(theme or THEME)},
    colorScheme: "light",
    ready() {{ window.telegramCalls.push("ready"); }},
    expand() {{ window.telegramCalls.push("expand"); }},
    onEvent(name, callback) {{ (events[name] = events[name] || []).push(callback); }},
    offEvent() {{}},
    emit(name) {{ (events[name] || []).forEach((callback) => callback()); }},
    HapticFeedback: {{
      impactOccurred(style) {{ window.hapticCalls.push("impact:" + style); }},
      notificationOccurred(kind) {{ window.hapticCalls.push("notification:" + kind); }},
      selectionChanged() {{ window.hapticCalls.push("selection"); }},
    }},
  }} }};
}})();
"""
