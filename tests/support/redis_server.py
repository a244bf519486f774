"""A redis-server of one's own on a free port of 127.0.0.1: for the suite when the
machine has no Redis, for tests that stop, kill and restart their Redis, for the cluster
nodes, and for the load bench.

It keeps nothing on disk unless asked (`aof=True`: everything in the append-only file,
which a restart on the same folder reads back); its log goes to its folder.
"""

from __future__ import annotations

import random
import shutil
import signal
import socket
import subprocess
import tempfile
from pathlib import Path

import redis

from tests.support.waiting import until

BUS_OFFSET = 10_000  # a cluster node also listens on its port + 10000 (the cluster bus)


class RedisMissing(RuntimeError):
    """No redis-server on the PATH."""


def redis_binary() -> str:
    found = shutil.which("redis-server")
    if found is None:
        raise RedisMissing("redis-server is not installed (not on the PATH)")
    return found


def free_port(bus: bool = False) -> int:
    """A port nothing listens on (with `bus`, its cluster bus port is free too)."""
    if not bus:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            return int(sock.getsockname()[1])
    for _ in range(200):
        # The kernel's pick may have no free port + 10000; a random one in range does.
        port = random.randint(20_000, 50_000)
        try:
            for each in (port, port + BUS_OFFSET):
                with socket.socket() as sock:
                    sock.bind(("127.0.0.1", each))
        except OSError:
            continue
        return port
    raise RuntimeError("no free port")


def answers(port: int, password: str | None = None) -> bool:
    """Whether a Redis on 127.0.0.1:`port` answers PING."""
    try:
        client = redis.Redis(port=port, password=password, socket_connect_timeout=0.5)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except redis.RedisError:
        return False


def stop_process(process: subprocess.Popen[bytes], timeout: float = 10) -> None:
    """SIGTERM, then SIGKILL if it does not go within `timeout`."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


class RedisServer:
    """One redis-server; `start` returns once it answers, and it may be stopped (or killed)
    and started again on the same port and folder."""

    def __init__(
        self,
        folder: Path | None = None,
        port: int | None = None,
        *,
        aof: bool = False,
        extra: tuple[str, ...] = (),
        start_timeout: float = 20,
    ) -> None:
        self.binary = redis_binary()
        self.own_folder = folder is None
        self.folder = Path(tempfile.mkdtemp(prefix="domino-redis-")) if folder is None else folder
        self.port = free_port() if port is None else port
        self.aof = aof
        self.extra = extra
        self.password = (
            extra[extra.index("--requirepass") + 1] if "--requirepass" in extra else None
        )
        self.start_timeout = start_timeout
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def log_path(self) -> Path:
        return self.folder / f"redis-{self.port}.log"

    def start(self) -> RedisServer:
        self.folder.mkdir(parents=True, exist_ok=True)
        args = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1"]
        args += ["--dir", str(self.folder), "--save", "", "--daemonize", "no"]
        args += ["--appendonly", "yes" if self.aof else "no", *self.extra]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                args, stdout=log, stderr=subprocess.STDOUT, cwd=self.folder
            )
        process = self.process
        try:
            until(
                lambda: self.answers() or process.poll() is not None,
                f"redis-server on {self.port} answering",
                self.start_timeout,
            )
        except AssertionError:
            self.stop()
            raise
        if process.poll() is not None:
            self.process = None
            tail = self.log_path.read_text(errors="replace")[-2000:]
            raise RuntimeError(f"redis-server on {self.port} exited:\n{tail}")
        return self

    def answers(self) -> bool:
        return answers(self.port, self.password)

    def stop(self) -> None:
        """SIGTERM (it exits cleanly, its AOF flushed)."""
        if self.process is not None:
            stop_process(self.process)
            self.process = None

    def kill(self) -> None:
        """SIGKILL: gone at once, as in a crash."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
            self.process = None

    def remove(self) -> None:
        """Stop it, and remove its folder if it made that folder itself."""
        self.stop()
        if self.own_folder:
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.remove()
