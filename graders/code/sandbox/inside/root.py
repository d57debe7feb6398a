"""The minimal root every job sees: Python's standard library, shared libraries, a few devices.

Stdlib only; loaded by path inside the fork server, which builds this root once, on an empty
tmpfs in its own mount namespace, and pivots into it. Everything in it is read-only; the
database, benchmark files, the user's home, the project and its virtualenv are simply not
there. Site-packages directories are covered by empty read-only mounts; the packages chosen
for samples (numpy by default) are bound read-only under /packages instead. Each job then
mounts its own /proc, /tmp and /dev/shm over the empty mount points (see confine.py).
"""

from __future__ import annotations

import glob
import os
import sys
import sysconfig
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from . import kit as KIT  # the siblings as mypy reads them (kit.py)
else:
    KIT = None  # the fork server's namespace of siblings, set by server.load_kit

PACKAGES = "/packages"
DEVICES = ("null", "zero", "full", "random", "urandom")
FILES = ("/etc/ld.so.cache",)
MOUNT_POINTS = ("/tmp", "/proc", "/dev/shm")


@dataclass
class RootPlan:
    """What the root holds: read-only directories and files, covered directories, packages."""

    directories: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    covered: list[str] = field(default_factory=list)
    packages: list[str] = field(default_factory=list)  # paths bound as /packages/<basename>
    symlinks: dict[str, str] = field(default_factory=dict)
    sys_path: list[str] = field(default_factory=list)  # the sample's sys.path


def _inside(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip("/") + "/")


def _library_directories() -> list[str]:
    """Where the dynamic loader finds the shared libraries extension modules link to."""
    arch = sysconfig.get_config_var("MULTIARCH") or ""
    found = []
    for base in ("/usr/lib", "/lib"):
        own = os.path.join(base, arch) if arch else ""
        found.append(own if own and os.path.isdir(own) else base)
    found += ["/usr/lib64", "/lib64", "/usr/lib32"]
    return [os.path.realpath(path) for path in found if os.path.isdir(path)]


def plan(packages: list[str]) -> RootPlan:
    """The root for this interpreter; `packages` are package directories (or modules) to expose."""
    root = RootPlan()
    # the base interpreter's library (a virtualenv's sysconfig names the venv's own lib dir)
    stdlib = [os.path.realpath(os.path.dirname(os.__file__))]
    stdlib += [os.path.realpath(os.path.dirname(p)) for p in sys.path
               if os.path.basename(p.rstrip("/")) == "lib-dynload"]
    for directory in dict.fromkeys([*stdlib, *_library_directories()]):
        if not any(_inside(directory, other) for other in root.directories if other != directory):
            root.directories = [d for d in root.directories if not _inside(d, directory)]
            root.directories.append(directory)
    site_like = set()
    for directory in root.directories:
        for pattern in ("python*/site-packages", "python*/dist-packages", "site-packages",
                        "dist-packages"):
            site_like.update(glob.glob(os.path.join(directory, pattern)))
    for entry in sys.path:
        real = os.path.realpath(entry) if entry else ""
        if real and os.path.isdir(real) and not any(_inside(real, s) for s in stdlib):
            site_like.add(real)
    root.covered = sorted(path for path in site_like
                          if any(_inside(path, d) for d in root.directories))
    root.files = [path for path in FILES if os.path.isfile(path)]
    for link in ("/lib", "/lib64", "/lib32"):
        if os.path.islink(link):
            root.symlinks[link] = os.readlink(link)
    root.packages = [os.path.realpath(path) for path in packages if os.path.exists(path)]
    kept = [os.path.realpath(p) for p in sys.path if p]
    root.sys_path = [p for p in dict.fromkeys(kept) if any(_inside(p, s) for s in stdlib)
                     and not any(_inside(p, c) for c in root.covered) and os.path.isdir(p)]
    if root.packages:
        root.sys_path.append(PACKAGES)
    return root


def build_and_enter(mount_point: str, root: RootPlan) -> None:
    """Make `root` on a tmpfs at the empty directory `mount_point` and pivot into it."""
    confine = KIT.confine
    new = mount_point.rstrip("/")
    confine.mount("tmpfs", new, "tmpfs", confine.MS_NOSUID | confine.MS_NODEV,
                  "size=1m,mode=755")
    for directory in root.directories:
        os.makedirs(new + directory, exist_ok=True)
        confine.bind_read_only(directory, new + directory)
    for path in root.covered:
        confine.mount("tmpfs", new + path, "tmpfs",
                      confine.MS_RDONLY | confine.MS_NOSUID | confine.MS_NODEV, "size=4k,mode=555")
    for path in root.files:
        os.makedirs(os.path.dirname(new + path), exist_ok=True)
        open(new + path, "w").close()
        confine.bind_read_only(path, new + path)
    for path in root.packages:
        target = f"{new}{PACKAGES}/{os.path.basename(path)}"
        if os.path.isdir(path):
            os.makedirs(target, exist_ok=True)
        else:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            open(target, "w").close()
        confine.bind_read_only(path, target)
    for link, destination in root.symlinks.items():
        if not os.path.lexists(new + link):
            os.symlink(destination, new + link)
    for directory in MOUNT_POINTS:
        os.makedirs(new + directory, exist_ok=True)
    for device in DEVICES:
        target = f"{new}/dev/{device}"
        open(target, "w").close()
        confine.mount(f"/dev/{device}", target, None, confine.MS_BIND)
        confine.mount("none", target, None,
                      confine.MS_REMOUNT | confine.MS_BIND | confine.MS_NOSUID | confine.MS_NOEXEC)
    # a full /proc must be visible for a job's user namespace to mount its own /proc over it
    confine.mount("/proc", new + "/proc", None, confine.MS_BIND)
    os.mkdir(new + "/.old")
    confine.pivot_root(new, new + "/.old")
    os.chdir("/")
    confine.detach("/.old")
    os.rmdir("/.old")
    confine.mount("none", "/", None,
                  confine.MS_REMOUNT | confine.MS_RDONLY | confine.MS_NOSUID | confine.MS_NODEV)
