"""Records shared by the sandbox's host side and its callers: limits, config, jobs, results."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from graders.code.sandbox.large_outputs import LargeOutputs


@dataclass(frozen=True)
class SandboxLimits:
    """Resource caps for one sample process (and, via cgroups, everything it starts)."""

    memory_mb: int = 2048
    file_size_mb: int = 16
    open_files: int = 64
    processes: int = 16
    tmpfs_mb: int = 64
    max_output_bytes: int = 32 << 20
    digest_over_bytes: int = 16 << 10
    max_captured_chars: int = 2000
    load_time_limit_s: float = 10.0
    wall_per_cpu: float = 3.0  # the host kills an input after this many times its CPU limit
    grace_s: float = 1.0
    max_cpu_s: int = 300
    # the job's CPU time (all its processes) may pass an input's limit by this much: the
    # harness's own work around a call (encoding and sending a large output) counts too
    cpu_slack_s: float = 2.0


# third-party packages samples may import, bound read-only into the sandbox when installed
# (EvalPlus runs samples with whatever is installed; numpy is the one HumanEval samples use)
DEFAULT_PACKAGES = ("numpy",)


@dataclass(frozen=True)
class SandboxConfig:
    """How samples are confined; `uid_base + slot` is the sample uid when running as root.

    `use_namespaces=False` runs samples without isolation on purpose (tests of the fallback);
    `unsafe_no_isolation` allows that fallback only where the kernel refuses the namespaces
    (the CLI's --unsafe-no-isolation). Otherwise a refusal is an error: nothing runs."""

    limits: SandboxLimits = field(default_factory=SandboxLimits)
    uid_base: int = 61000
    use_cgroups: bool = True
    use_namespaces: bool = True
    unsafe_no_isolation: bool = False
    packages: tuple[str, ...] = DEFAULT_PACKAGES
    python: str = sys.executable


@dataclass(frozen=True)
class Segment:
    """A run of test indices with its own total time budget (EvalPlus: per test set)."""

    start: int
    stop: int
    budget_s: float


@dataclass
class RunResult:
    """How one job ended, as seen from the host."""

    next_index: int
    loaded: bool = False
    ended: bool = False
    stopped: bool = False
    watchdog: str | None = None
    load: dict[str, Any] | None = None
    setup_error: str | None = None
    protocol_error: str | None = None
    exit_code: int | None = None
    signal: int | None = None
    budget: dict[str, Any] | None = None  # the job-wide limit that ended it, from its helper
    elapsed_s: float = 0.0
    job: int = 0
    cpu_clock: str | None = None  # the job's CPU time ran over at `next_index`: read from this
    sliced: bool = False  # ended after its slice of CPU time: inputs from `next_index` not run
    large: LargeOutputs | None = None  # the marshal bytes of large outputs, when kept


@dataclass(frozen=True)
class TestSuite:
    """Test inputs as the fork server loads them: a key and the JSON list of argument lists."""

    key: str
    payload: bytes
