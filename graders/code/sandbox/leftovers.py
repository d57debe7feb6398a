"""Reap what a killed `adjudicate grade` left: its cgroups and the fork servers' directories.

A fork server exits when its host goes (and takes its jobs with it), but a host killed with
SIGKILL never removes the slot cgroups it made (and the job cgroups inside them) or the fork
servers' empty mount-point directories. Both are named after the host's pid; the next sandbox
to start removes those whose host is gone, killing anything still inside a cgroup first. A
live host's are never touched: its pid is alive.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import tempfile
import time
from pathlib import Path

from graders.code.sandbox.cgroups import job_directories, slot_parents

CGROUP_NAME = re.compile(r"adjudicate-(\d+)-\d+-\w+")
DIRECTORY_NAME = re.compile(r"adjudicate-(?:sandbox|work)-(\d+)-\w+")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def reap_leftovers(temp_dir: str | None = None) -> list[str]:
    """Remove cgroups and directories of dead hosts; the paths removed."""
    removed = []
    for parent in slot_parents():
        for directory in parent.glob("adjudicate-*"):
            match = CGROUP_NAME.fullmatch(directory.name)
            if match and not _alive(int(match.group(1))):
                jobs = [job for job in job_directories(directory) if _remove_cgroup(job)]
                removed += [str(job) for job in jobs]
                if _remove_cgroup(directory):
                    removed.append(str(directory))
    for directory in Path(temp_dir or tempfile.gettempdir()).glob("adjudicate-*"):
        match = DIRECTORY_NAME.fullmatch(directory.name)
        if match and directory.is_dir() and not _alive(int(match.group(1))):
            shutil.rmtree(directory, ignore_errors=True)
            if not directory.exists():
                removed.append(str(directory))
    return removed


def _remove_cgroup(directory: Path) -> bool:
    deadline = time.monotonic() + 5.0
    while time.monotonic() < deadline:
        try:
            directory.rmdir()
            return True
        except FileNotFoundError:
            return False
        except OSError:
            pass
        try:
            members = (directory / "cgroup.procs").read_text().split()
        except OSError:
            return False
        for pid in members:
            try:
                os.kill(int(pid), signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.01)
    return False
