"""Reaching Ray: the optional extra, the cluster's address, and starting a local instance.

Ray is imported here only, when `--executor ray` asks for it, so every other command starts
without it and a machine without the extra gets one clear sentence instead of a traceback.
"""

from __future__ import annotations

import logging
import os
from types import ModuleType

EXTRA = "pip install 'adjudicate[ray]'"
# a Ray instance started for one run (no address, no RAY_ADDRESS) keeps its object store small
LOCAL_OBJECT_STORE_BYTES = 512 * 1024**2
TOKEN_NOTICE_LOGGER = "ray._private.authentication.authentication_token_setup"


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
    try:
        ray.init(address=address, **options)
    except (ConnectionError, ValueError, RuntimeError) as error:
        where = "on this machine" if address == "local" else f"at {address}"
        raise ClusterUnreachable(f"cannot reach a Ray cluster {where}: "
                                 f"{str(error).splitlines()[0][:300]}") from None
    return ray, True


def cluster_cpus(ray: ModuleType) -> int:
    """How many CPUs the cluster offers (one grading worker each)."""
    return max(1, int(ray.cluster_resources().get("CPU", 1)))
