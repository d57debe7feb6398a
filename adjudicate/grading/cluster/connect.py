"""Reaching Ray: the optional extra, the cluster's address, and starting a local instance.

Ray is imported here only, when `--executor ray` asks for it, so every other command starts
without it and a machine without the extra gets one clear sentence instead of a traceback.
"""

from __future__ import annotations

import logging
import os
import socket
from types import ModuleType

EXTRA = "pip install 'adjudicate[ray]'"
# a Ray instance started for one run (no address, no RAY_ADDRESS) keeps its object store small
LOCAL_OBJECT_STORE_BYTES = 512 * 1024**2
TOKEN_NOTICE_LOGGER = "ray._private.authentication.authentication_token_setup"
REACH_TIMEOUT_S = 5.0  # for the cluster's address to accept a connection at all


class ClusterError(RuntimeError):
    """Grading on Ray cannot start; the message says why and what to do."""


class RayMissing(ClusterError):
    """`--executor ray` on a machine without Ray installed."""


class ClusterUnreachable(ClusterError):
    """No Ray cluster answers where we looked, or its workers would not start."""


def import_ray() -> ModuleType:
    """The `ray` module, or `RayMissing` saying which extra to install."""
    os.environ.setdefault("RAY_DISABLE_USAGE_STATS", "1")  # no telemetry unless asked for
    try:
        import ray
    except ImportError:
        raise RayMissing(f"--executor ray needs Ray, an optional extra: {EXTRA}") from None
    return ray


def connect(address: str | None) -> tuple[ModuleType, bool]:
    """Join the cluster at `address`, else at `RAY_ADDRESS`, else start a Ray instance on
    this machine for this run (never joining one found running: it may be someone else's).
    Also says whether this call joined (so its caller leaves), or a caller's `ray.init` had."""
    ray = import_ray()
    if ray.is_initialized():
        return ray, False
    address = address or os.environ.get("RAY_ADDRESS") or "local"
    # workers report what the user must know (a node without isolation) in their results, so
    # their logs stay on the cluster instead of interleaving with the progress bar
    options: dict = {"logging_level": logging.WARNING, "log_to_driver": False}
    if address == "local":
        options |= {"include_dashboard": False, "object_store_memory": LOCAL_OBJECT_STORE_BYTES}
        # Ray announces the token it protects its own instance with: news for a cluster's
        # operator, not for a run's progress bar
        logging.getLogger(TOKEN_NOTICE_LOGGER).setLevel(logging.ERROR)
    else:
        refused = unreachable(address)
        if refused:
            raise ClusterUnreachable(
                f"cannot reach a Ray cluster at {address}: {refused}; check the address "
                "(`ray start --head` prints it) and that the head is running, or leave out "
                "--address (and RAY_ADDRESS) to start a Ray instance on this machine")
    try:
        ray.init(address=address, **options)
    except (ConnectionError, ValueError, RuntimeError) as error:
        where = "on this machine" if address == "local" else f"at {address}"
        raise ClusterUnreachable(f"cannot reach a Ray cluster {where}: "
                                 f"{str(error).splitlines()[0][:300]}") from None
    return ray, True


def unreachable(address: str) -> str | None:
    """Why nothing accepts a connection at `address` ("host:port", "ray://host:port"), or None.

    Ray's own connect retries a wrong address for minutes without a word; a plain TCP
    connection says at once whether anything listens there. Addresses Ray resolves itself
    ("auto") are left to Ray."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        return None
    try:
        socket.create_connection((host.strip("[]"), int(port)), REACH_TIMEOUT_S).close()
    except OSError as error:
        return error.strerror or str(error) or type(error).__name__
    return None


def cluster_cpus(ray: ModuleType) -> int:
    """How many CPUs the cluster offers (one grading worker each)."""
    return max(1, int(ray.cluster_resources().get("CPU", 1)))
