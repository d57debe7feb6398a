"""Run a command where the kernel refuses new user namespaces, as a locked-down kernel would.

Usage: python no_userns.py COMMAND...

The command runs in a user namespace of its own (mapping every uid when root, only our own
otherwise) whose limit on nested user namespaces is 0, so the sandbox's unshare fails with
ENOSPC exactly as it fails where unprivileged user namespaces are disabled.
"""

from __future__ import annotations

import ctypes
import os
import sys

CLONE_NEWUSER = 0x10000000


def main() -> None:
    uid, gid = os.geteuid(), os.getegid()
    ready_read, ready_write = os.pipe()
    mapped_read, mapped_write = os.pipe()
    child = os.fork()
    if child == 0:
        if ctypes.CDLL(None, use_errno=True).unshare(CLONE_NEWUSER) != 0:
            os._exit(99)
        os.write(ready_write, b"x")
        os.read(mapped_read, 1)
        with open("/proc/sys/user/max_user_namespaces", "w") as limit:
            limit.write("0")
        os.execv(sys.argv[1], sys.argv[1:])
    os.read(ready_read, 1)
    if uid == 0:
        maps = {"uid_map": "0 0 4294967295", "gid_map": "0 0 4294967295"}
    else:
        with open(f"/proc/{child}/setgroups", "w") as handle:
            handle.write("deny")
        maps = {"uid_map": f"{uid} {uid} 1", "gid_map": f"{gid} {gid} 1"}
    for name, text in maps.items():
        with open(f"/proc/{child}/{name}", "w") as handle:
            handle.write(text)
    os.write(mapped_write, b"x")
    _, status = os.waitpid(child, 0)
    sys.exit(os.waitstatus_to_exitcode(status))


if __name__ == "__main__":
    main()
