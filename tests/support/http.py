"""Talking to a running bot process over HTTP, as an operator or Telegram would: GET and
POST with urllib, /healthz until it answers a given status, /metrics read into numbers."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

from tests.support.waiting import until

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def get(url: str, timeout: float = 5) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def post(url: str, body: bytes, headers: dict[str, str] | None = None) -> int:
    request = urllib.request.Request(url, data=body, headers=headers or {}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


def health(base: str, status: int, timeout: float = 20) -> dict[str, object]:
    """/healthz's body once it answers `status`."""

    def check() -> dict[str, object] | None:
        code, body = get(f"{base}/healthz")
        return json.loads(body) if code == status else None

    found = until(check, f"/healthz answering {status}", timeout, every=0.05, ignore=(OSError,))
    assert isinstance(found, dict)
    return found


def scrape(base: str) -> Samples:
    """/metrics as {(sample name, sorted labels): value}."""
    code, body = get(f"{base}/metrics")
    assert code == 200
    found = {}
    for family in text_string_to_metric_families(body.decode()):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def series(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)
