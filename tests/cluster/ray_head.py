"""A real Ray instance on this machine for tests and benchmarks: `ray start --head --block`.

Everything binds to the loopback address, on ports picked free for this instance, under a
temporary directory of its own, with a token of its own (drivers joining it need its
`environment`); workers import this checkout (`PYTHONPATH`). Stopping it ends
the `ray start` process this started (by its id), whose own reaper then ends every process of
the instance; nothing else on the machine is touched (`ray stop` would stop every instance).
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import TextIO

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 300
PORT_OPTIONS = ("--port", "--dashboard-port", "--dashboard-agent-listen-port",
                "--dashboard-agent-grpc-port", "--runtime-env-agent-port",
                "--metrics-export-port", "--node-manager-port", "--object-manager-port")


@dataclass(frozen=True)
class RayHead:
    """A running instance: its address and the environment a driver joins it with."""

    address: str
    environment: dict[str, str]
    pid: int  # the `ray start` process, every process of the instance descends from it


def ray_environment(token: str) -> dict[str, str]:
    """The environment of the instance and of every driver that joins it."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    return {**os.environ, "RAY_DISABLE_USAGE_STATS": "1", "PYTHONPATH": path,
            "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": token,
            # Ray's switch for binding to the loopback address instead of the host's own
            "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}


def _free_ports(count: int) -> list[int]:
    sockets = [socket.socket() for _ in range(count)]
    for sock in sockets:
        sock.bind(("127.0.0.1", 0))
    ports = [sock.getsockname()[1] for sock in sockets]
    for sock in sockets:
        sock.close()
    return ports


def ray_command() -> str:
    return str(Path(sys.executable).with_name("ray"))


@contextmanager
def ray_head(cpus: int = 2, object_store_mb: int = 100) -> Iterator[RayHead]:
    """A running head node, stopped when the block ends."""
    temp = tempfile.mkdtemp(prefix="adjray-", dir="/tmp")  # short: Ray's socket paths
    ports = _free_ports(len(PORT_OPTIONS))
    command = [ray_command(), "start", "--head", "--block", f"--num-cpus={cpus}",
               "--include-dashboard=false", "--disable-usage-stats", f"--temp-dir={temp}",
               f"--object-store-memory={object_store_mb * 1024**2}"]
    command += [f"{option}={port}" for option, port in zip(PORT_OPTIONS, ports, strict=True)]
    log = open(Path(temp) / "ray-start.log", "w+")
    environment = ray_environment(secrets.token_hex(32))
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, text=True,
                               env=environment, stdin=subprocess.DEVNULL)
    try:
        _wait_until_up(process, log)
        yield RayHead(f"127.0.0.1:{ports[0]}", environment, process.pid)
    finally:
        _stop(process)
        log.close()
        shutil.rmtree(temp, ignore_errors=True)


def _wait_until_up(process: subprocess.Popen, log: TextIO) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        log.seek(0)
        text = log.read()
        if "Ray runtime started" in text:
            return
        if process.poll() is not None:
            raise RuntimeError(f"ray start exited {process.returncode}:\n{text[-3000:]}")
        time.sleep(0.5)
    raise RuntimeError(f"ray start did not come up within {START_TIMEOUT_S} s")


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
