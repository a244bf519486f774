"""The deploy files: an image that checks its own health, a compose setup and a systemd
unit that come back after a restart, a dashboard that asks only for metrics the bot
exports. Read as text (PyYAML is not a dependency); neither Docker nor systemd is needed.
"""

from __future__ import annotations

import configparser
import fnmatch
import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"

# What the bot exports on /metrics (bot/metrics.py), the names PromQL sees; tests/bot/test_health.py
# checks that /metrics serves each.
HISTOGRAMS = {
    "domino_rate_limit_wait_seconds",
    "domino_update_seconds",
    "domino_delivery_lag_seconds",
}
METRICS = {
    "domino_updates_total",
    "domino_moves_total",
    "domino_games_started_total",
    "domino_games_finished_total",
    "domino_games_abandoned_total",
    "domino_active_games",
    "domino_errors_total",
    "domino_telegram_calls_total",
    "domino_telegram_retries_total",
    "domino_redis_retries_total",
} | HISTOGRAMS


def metric_names(expr: str) -> set[str]:
    """The metrics a PromQL expression reads, a histogram's series by its own name."""
    names = set()
    for name in re.findall(r"\bdomino_[a-z0-9_]+", expr):
        for suffix in ("_bucket", "_sum", "_count"):
            if name.endswith(suffix) and name.removesuffix(suffix) in HISTOGRAMS:
                name = name.removesuffix(suffix)
        names.add(name)
    return names


# --- Dockerfile ---------------------------------------------------------------------


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions as (KEYWORD, arguments), continuations joined."""
    lines = [
        line
        for line in (DEPLOY / "Dockerfile").read_text().splitlines()
        if not line.lstrip().startswith("#")
    ]
    text = re.sub(r"\\\n", " ", "\n".join(lines))
    found = []
    for line in text.splitlines():
        if line.strip():
            keyword, _, rest = line.strip().partition(" ")
            found.append((keyword.upper(), rest.strip()))
    return found


def final_stage() -> list[tuple[str, str]]:
    steps = instructions()
    last_from = max(i for i, (keyword, _) in enumerate(steps) if keyword == "FROM")
    return steps[last_from:]


def healthcheck_code() -> str:
    """The Python the image's HEALTHCHECK runs (`python -c CODE`, exec form)."""
    (check,) = [rest for keyword, rest in final_stage() if keyword == "HEALTHCHECK"]
    command = json.loads(check[check.index("CMD") + len("CMD") :].strip())
    assert command[:2] == ["python", "-c"], command
    code: str = command[2]
    return code


def test_the_image_is_a_slim_python_311_with_the_package_installed() -> None:
    steps = instructions()
    text = (DEPLOY / "Dockerfile").read_text()
    assert re.search(r"python:3\.11-slim", text)
    assert any(
        keyword == "RUN" and re.search(r"pip install\b.* \.$", rest) for keyword, rest in steps
    )
    (entrypoint,) = [rest for keyword, rest in final_stage() if keyword == "ENTRYPOINT"]
    assert json.loads(entrypoint) == ["domino-bot"]


def test_the_image_runs_as_a_user_that_is_not_root() -> None:
    users = [rest for keyword, rest in final_stage() if keyword == "USER"]
    assert users, "the final stage sets no USER: the bot would run as root"
    user = users[-1].split(":")[0]
    assert user not in {"root", "0", ""}


def test_the_image_checks_its_health_on_healthz_without_curl() -> None:
    (check,) = [rest for keyword, rest in final_stage() if keyword == "HEALTHCHECK"]
    assert "/healthz" in check
    assert "HEALTH_PORT" in check
    assert "curl" not in check and "wget" not in check
    env = " ".join(rest for keyword, rest in final_stage() if keyword == "ENV")
    assert re.search(r"\bHEALTH_LISTEN=0\.0\.0\.0\b", env), "a check from inside needs 0.0.0.0"


def test_no_secret_is_baked_into_the_image() -> None:
    for keyword, rest in instructions():
        if keyword in {"ENV", "ARG", "LABEL"}:
            assert not re.search(r"TOKEN|SECRET|PASSWORD|REDIS_URL", rest, re.I), rest
        if keyword in {"COPY", "ADD"}:
            assert ".env" not in rest.split(), rest


class Healthz(BaseHTTPRequestHandler):
    status = 200

    def do_GET(self) -> None:
        self.send_response(self.status if self.path == "/healthz" else 404)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(b'{"redis": "ok", "telegram": "ok"}')

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def healthz() -> Iterator[ThreadingHTTPServer]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Healthz)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
    Healthz.status = 200


def run_check(code: str, **env: str) -> int:
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("HEALTH_", "WEBHOOK_"))}
    environment.update(env)
    done = subprocess.run(
        [sys.executable, "-c", code], env=environment, capture_output=True, timeout=30
    )
    return done.returncode


@pytest.mark.parametrize("mode", ["polling", "webhook"])
def test_the_healthcheck_passes_on_200_and_fails_on_503(
    healthz: ThreadingHTTPServer, mode: str
) -> None:
    port = str(healthz.server_address[1])
    if mode == "polling":
        env = {"HEALTH_PORT": port, "HEALTH_LISTEN": "0.0.0.0"}
    else:  # /healthz is beside /telegram on WEBHOOK_PORT; HEALTH_PORT is the image's own
        env = {"WEBHOOK_URL": "https://bot.example.org", "WEBHOOK_PORT": port}
        env["HEALTH_PORT"] = "1"
    code = healthcheck_code()
    assert run_check(code, **env) == 0
    Healthz.status = 503
    assert run_check(code, **env) != 0


def test_the_healthcheck_fails_when_nothing_listens() -> None:
    with ThreadingHTTPServer(("127.0.0.1", 0), Healthz) as server:
        port = str(server.server_address[1])  # bound, closed on leaving: nobody answers
    assert run_check(healthcheck_code(), HEALTH_PORT=port) != 0


# --- .dockerignore ------------------------------------------------------------------


def ignored() -> list[str]:
    return [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]


def is_ignored(path: str) -> bool:
    """Whether .dockerignore leaves `path` out (`**/` matching at any depth)."""
    parts = path.split("/")
    for pattern in ignored():
        if pattern.startswith("!"):
            continue
        if fnmatch.fnmatch(path, pattern):
            return True
        if pattern.startswith("**/"):
            tails = ("/".join(parts[i:]) for i in range(len(parts)))
            if any(fnmatch.fnmatch(tail, pattern.removeprefix("**/")) for tail in tails):
                return True
    return False


@pytest.mark.parametrize(
    "path",
    [
        ".venv",
        ".git",
        ".env",
        "bot/__pycache__",
        "tests/bot/__pycache__",
        "engine/game.pyc",
        ".pytest_cache",
        ".mypy_cache",
        ".ruff_cache",
        ".hypothesis",
    ],
)
def test_the_build_context_leaves_out(path: str) -> None:
    assert is_ignored(path)


def test_the_build_context_keeps_what_the_image_copies() -> None:
    copied = [
        part
        for keyword, rest in instructions()
        if keyword == "COPY" and "--from" not in rest
        for part in rest.split()[:-1]
    ]
    assert {"pyproject.toml", "README.md", "engine", "bot"} <= set(copied)
    for path in copied:
        assert not is_ignored(path), path


# --- docker-compose.yml, nginx.conf -------------------------------------------------


def compose_text() -> str:
    lines = (DEPLOY / "docker-compose.yml").read_text().splitlines()
    return "\n".join(line for line in lines if not line.lstrip().startswith("#")) + "\n"


def services() -> dict[str, str]:
    """Each service's block of docker-compose.yml (the lines under `  name:`)."""
    text = compose_text()
    body = re.search(r"^services:\n(.*?)(?=^\S|\Z)", text, re.M | re.S)
    assert body, "no services:"
    blocks = re.split(r"^  ([A-Za-z0-9][\w.-]*):[ \t]*\n", body.group(1), flags=re.M)
    return dict(zip(blocks[1::2], blocks[2::2], strict=True))


def test_compose_has_redis_and_the_bot() -> None:
    assert {"redis", "bot"} <= set(services())


def test_every_service_comes_back_after_a_restart() -> None:
    for name, block in services().items():
        assert re.search(r"^\s+restart:\s*[\"']?unless-stopped", block, re.M), name


def test_redis_keeps_its_data_on_a_named_volume() -> None:
    redis = services()["redis"]
    assert re.search(r"""appendonly["',\s]+["']?yes""", redis), "no --appendonly yes"
    volume = re.search(r"^\s+-\s*[\"']?([A-Za-z][\w-]*):/data\b", redis, re.M)
    assert volume, "redis has no named volume on /data"
    declared = re.search(r"^volumes:\n((?:[ \t]+.*\n|\n)*)", compose_text(), re.M)
    assert declared and re.search(rf"^\s+{volume.group(1)}:", declared.group(1), re.M)


def test_redis_has_a_healthcheck() -> None:
    redis = services()["redis"]
    assert re.search(r"^\s+healthcheck:", redis, re.M)
    assert re.search(r"redis-cli[\"',\s]+ping", redis)


def test_the_bot_waits_for_a_healthy_redis_and_checks_its_own_health() -> None:
    bot = services()["bot"]
    assert re.search(r"depends_on:\s*\n\s+redis:\s*\n\s+condition:\s*service_healthy", bot)
    assert re.search(r"^\s+healthcheck:", bot, re.M)
    assert "/healthz" in bot


def test_the_bot_takes_its_secrets_from_an_env_file() -> None:
    bot = services()["bot"]
    assert re.search(r"^\s+env_file:", bot, re.M)
    for name in ("TELEGRAM_BOT_TOKEN", "WEBHOOK_SECRET"):
        assert name not in compose_text(), f"{name} written into the compose file"


def test_the_webhook_port_is_the_same_in_compose_healthcheck_and_nginx() -> None:
    bot = services()["bot"]
    port = re.search(r"WEBHOOK_PORT:\s*[\"']?(\d+)", bot)
    assert port, "the bot's WEBHOOK_PORT is not set"
    assert f"127.0.0.1:{port.group(1)}/healthz" in bot
    nginx = (DEPLOY / "nginx.conf").read_text()
    assert re.search(rf"server\s+bot:{port.group(1)}\b", nginx)


def nginx_locations() -> dict[str, str]:
    nginx = (DEPLOY / "nginx.conf").read_text()
    return dict(re.findall(r"^\s*location\s+(.*?)\s*\{(.*?)\}", nginx, re.M | re.S))


def test_nginx_forwards_only_the_webhook_and_the_table() -> None:
    locations = nginx_locations()
    proxied = [where for where, body in locations.items() if "proxy_pass" in body]
    assert proxied == ["= /telegram", "/table/", "= /table/ws"], proxied
    assert "return 404" in locations["/"]  # /healthz and /metrics are not forwarded


def test_nginx_upgrades_the_table_s_websocket() -> None:
    socket = nginx_locations()["= /table/ws"]
    assert "proxy_http_version 1.1;" in socket
    assert re.search(r"proxy_set_header\s+Upgrade\s+\$http_upgrade;", socket)
    assert re.search(r'proxy_set_header\s+Connection\s+"upgrade";', socket)
    timeout = re.search(r"proxy_read_timeout\s+(\d+)s;", socket)
    assert timeout and int(timeout.group(1)) > 20  # longer than the bot's ping interval


# --- domino-bot.service -------------------------------------------------------------


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("=",))
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string((DEPLOY / "domino-bot.service").read_text())
    return parser


def test_the_unit_restarts_on_failure_but_not_after_a_bad_config() -> None:
    service = unit()["Service"]
    assert service["Restart"] == "on-failure"
    assert "2" in service["RestartPreventExitStatus"].split()


def test_the_bot_exits_2_on_a_bad_token(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.__main__ import main

    monkeypatch.chdir(tmp_path)  # no .env is read
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "not-a-token")
    assert main() == 2
    assert "TELEGRAM_BOT_TOKEN" in capsys.readouterr().err


def test_the_unit_is_sandboxed() -> None:
    service = unit()["Service"]
    assert service["NoNewPrivileges"] == "yes"
    assert service["ProtectSystem"] == "strict"
    assert service["ProtectHome"] == "yes"
    assert service["PrivateTmp"] == "yes"
    assert service["User"] not in {"root", "0"}


def test_the_unit_reads_its_settings_and_waits_for_the_network() -> None:
    parsed = unit()
    service, section = parsed["Service"], parsed["Unit"]
    assert service["EnvironmentFile"].lstrip("-") == "/etc/domino-bot/env"
    assert service["ExecStart"].endswith("/domino-bot")
    assert {"network-online.target", "redis-server.service"} <= set(section["After"].split())
    assert "network-online.target" in section["Wants"].split()


# --- grafana-dashboard.json, README -------------------------------------------------


def dashboard_queries() -> list[str]:
    dashboard = json.loads((DEPLOY / "grafana-dashboard.json").read_text())
    assert dashboard["title"] and dashboard["panels"]
    ids = [panel["id"] for panel in dashboard["panels"]]
    assert len(ids) == len(set(ids)), "two panels share an id"
    return [
        target["expr"]
        for panel in dashboard["panels"]
        for target in panel.get("targets", [])
        if "expr" in target
    ]


def test_the_dashboard_asks_only_for_metrics_the_bot_exports() -> None:
    queries = dashboard_queries()
    assert queries
    for expr in queries:
        assert metric_names(expr), expr
        assert metric_names(expr) <= METRICS, expr


def test_the_dashboard_shows_every_metric() -> None:
    shown = set().union(*(metric_names(expr) for expr in dashboard_queries()))
    assert shown == METRICS


def test_the_metrics_named_here_are_those_the_bot_exports() -> None:
    from bot import metrics

    exported = dict(re.findall(r"^# TYPE (\S+) (\S+)$", metrics.text().decode(), re.M))
    exported = {name: kind for name, kind in exported.items() if not name.endswith("_created")}
    assert set(exported) == METRICS
    assert {name for name, kind in exported.items() if kind == "histogram"} == HISTOGRAMS


def readme_section(title: str) -> str:
    text = (DEPLOY / "README.md").read_text()
    found = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert found, f"deploy/README.md has no section {title!r}"
    return found.group(1)


def test_the_readme_shows_promql_for_the_exported_metrics() -> None:
    blocks = re.findall(r"```promql\n(.*?)```", readme_section("Reading /metrics"), re.S)
    queries = [line for block in blocks for line in block.splitlines() if line.strip()]
    assert 5 <= len(queries) <= 10, queries
    for expr in queries:
        assert metric_names(expr) and metric_names(expr) <= METRICS, expr
    assert any("histogram_quantile(0.95" in expr for expr in queries)


def test_the_readme_says_when_to_leave_one_redis() -> None:
    section = readme_section("One Redis or a cluster")
    assert "redis+cluster://" in section
    assert "redis+sentinel://" in section
    assert "appendonly" in section


def test_the_readme_sets_up_the_unit() -> None:
    section = readme_section("systemd")
    assert "useradd --system" in section
    assert "/opt/domino-bot/.venv" in section
    assert "/etc/domino-bot/env" in section and "0600" in section
