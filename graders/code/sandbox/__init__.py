"""The code sandbox's host side: what starts the fork server, talks to it and reads what it sends.

`host.py` starts a fork server per worker and runs jobs in it; `channel.py` reads a job's result
lines, each checked strictly (`results.py`, `marshal_data.py`, `large_outputs.py`); `watch.py`
and `cpu_watch.py` keep the host's clocks; `cgroups.py`, `job_cgroups.py`, `uids.py`,
`leftovers.py` and `packages.py` prepare what a job runs in; `slot.py` restarts a sandbox that
dies. `inside/` is the only code that runs inside the sandbox: stdlib only, loaded by path by the
fork server. Grading (what an output means, which inputs to run) lives one level up in
`graders/code/`; nothing in this folder imports it.
"""

from graders.code.sandbox.host import (
    HASH_SEED,
    IsolationUnavailable,
    Sandbox,
    SandboxError,
    say_once,
)
from graders.code.sandbox.records import RunResult, SandboxConfig, SandboxLimits, Segment, TestSuite

__all__ = [
    "HASH_SEED", "IsolationUnavailable", "RunResult", "Sandbox", "SandboxConfig", "SandboxError",
    "SandboxLimits", "Segment", "TestSuite", "say_once",
]
