"""One real Ray instance for the whole test session (started on first use), and data slices."""

from __future__ import annotations

import pytest

from tests.cluster.ray_head import RayHead, ray_head


@pytest.fixture(scope="session")
def ray_cluster() -> RayHead:
    """A two-CPU Ray head on the loopback address; stopped, with all its processes, at the end."""
    pytest.importorskip("ray", reason="the ray extra is not installed (pip install '.[test]')")
    with ray_head(cpus=2, object_store_mb=100) as head:
        yield head
