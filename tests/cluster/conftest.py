"""One real Ray instance for the whole test session, started on first use and shared by every
Ray test, so the suite pays Ray's start-up once.

It is `ray start --head --num-cpus=2` in a process of its own rather than `ray.init(num_cpus=2)`
in the test process: Ray's threads would then live in pytest's process, which later tests fork
(the math engine's checking pool) and a fork of a threaded process can deadlock. The drivers
(the CLI, `tests.cluster.drive`) join it by its address, as they would a cluster's head.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.cluster.ray_head import RayHead, ray_head

if TYPE_CHECKING:
    from collections.abc import Iterator


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[RayHead]:
    """A two-CPU Ray head on the loopback address; stopped, with all its processes, at the end."""
    pytest.importorskip("ray", reason="the ray extra is not installed (pip install '.[test-ray]')")
    with ray_head(cpus=2, object_store_mb=100) as head:
        yield head
