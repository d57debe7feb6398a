"""The fork server's two records: its own state, and one job as the host asks for it.

Stdlib only; loaded by path inside the fork server. Both are parsed once from what arrives
(the host's first message, each `run` message) and frozen, so every later step (the helper, the
sample's setup, the harness) reads named fields, and a field the host stops sending fails at
the parse, not in the middle of a job. The host builds the messages in `Sandbox._spawn` and
`Sandbox.run` (graders/code/sandbox/host.py).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any, Mapping, Sequence


@dataclass(frozen=True)
class ServerState:
    """What the server is and may do, fixed once it has (or has not) entered its namespaces."""

    root: bool  # the server runs as root (cgroups, a slot uid)
    uid: int | None  # the slot's uid, samples run as it (root only)
    server_pid: int  # a helper whose parent is not this pid exits at once
    seccomp: bool  # this machine has the seccomp filter
    cgroup_paths: tuple[str, ...]  # the cgroup.procs files a job joins (the slot's or its own)
    cgroup_fds: tuple[int, ...]  # the same, opened (the helper joins through these)
    isolated: bool = False  # jobs get their own namespaces in the server's minimal root
    refused: str | None = None  # why isolation was refused, when it was asked for
    packages: tuple[str, ...] = ()  # third-party packages samples may import
    exposed: tuple[str, ...] = ()  # the host paths bound into the root
    sys_path: tuple[str, ...] = ()  # a sample's sys.path inside the root (isolated only)

    def hello(self) -> dict[str, Any]:
        """What the host is told at start: everything but the cgroups (the host made them)."""
        return {key: value for key, value in asdict(self).items() if not key.startswith("cgroup")}

    def for_job(self, job: Job, cgroup_fds: Sequence[int]) -> ServerState:
        """The state as one job's helper sees it: it joins the job's own cgroups (fresh
        counters, the job's CPU clock) when the host made them, else the slot's."""
        if not cgroup_fds:
            return self
        return replace(self, cgroup_fds=tuple(cgroup_fds),
                       cgroup_paths=job.cgroup_paths or self.cgroup_paths)


@dataclass(frozen=True)
class Job:
    """One `run` message: which inputs of which suite, with what limits."""

    number: int  # the host's job number (`job`), named in the server's reports
    tests_key: str  # the suite whose inputs the job runs (kept by the server across jobs)
    entry_point: str  # the function the program must define
    start: int  # the inputs tests[start:stop]
    stop: int
    time_limits: tuple[float, ...]  # CPU seconds per input, from `start`
    wall_s: float  # the whole job's wall-clock deadline
    load_time_limit: float  # CPU seconds to load the program
    max_output_bytes: int  # a result line's cap
    digest_over: int  # outputs over this many marshal bytes travel as a digest
    keep_large: int  # ... with their bytes too, up to this size (0: never)
    plain_digests: bool  # plain data's digests settle equality (no bytes needed)
    max_captured_chars: int  # stdout/stderr kept per input
    limits: Mapping[str, Any]  # the host's SandboxLimits and the job's `cpu_s` (rlimits)
    cgroup_paths: tuple[str, ...] | None = None  # the job's own cgroups, when the host made them
    exact_digests: bool = False  # small outputs travel as a digest with their bytes too

    @classmethod
    def parse(cls, message: Mapping[str, Any]) -> Job:
        """The job of a `run` message (a missing field raises KeyError)."""
        paths = message.get("cgroup_paths")
        return cls(number=message["job"], tests_key=message["tests_key"],
                   entry_point=message["entry_point"], start=message["start"],
                   stop=message["stop"], time_limits=tuple(message["time_limits"]),
                   wall_s=message["wall_s"], load_time_limit=message["load_time_limit"],
                   max_output_bytes=message["max_output_bytes"],
                   digest_over=message["digest_over"], keep_large=message.get("keep_large", 0),
                   plain_digests=bool(message.get("plain_digests")),
                   exact_digests=bool(message.get("exact_digests")),
                   max_captured_chars=message["max_captured_chars"],
                   limits=dict(message["limits"]),
                   cgroup_paths=tuple(paths) if paths else None)
