"""Third-party packages samples may import: where each is installed, what version it is.

The sandbox binds each chosen package's directory (and its vendored `<name>.libs` directory,
where wheels keep shared libraries) read-only into the sample's root; nothing else of the
host's site-packages is visible. Packages that are not installed are left out.
"""

from __future__ import annotations

import functools
import importlib.metadata
import importlib.util
import os


@functools.lru_cache(maxsize=None)
def package_paths(names: tuple[str, ...]) -> list[str]:
    """Directories (or module files) to expose for `names`, in order."""
    paths = []
    for name in names:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        if spec is None:
            continue
        if spec.submodule_search_locations:
            location = os.path.realpath(list(spec.submodule_search_locations)[0])
        elif spec.origin and os.path.isfile(spec.origin):
            location = os.path.realpath(spec.origin)
        else:
            continue
        paths.append(location)
        libs = os.path.join(os.path.dirname(location), f"{name}.libs")
        if os.path.isdir(libs):
            paths.append(os.path.realpath(libs))
    return paths


@functools.lru_cache(maxsize=None)
def package_versions(names: tuple[str, ...]) -> list[str]:
    """`name==version` of each chosen package that is installed (what samples could import)."""
    found = []
    for name in names:
        if importlib.util.find_spec(name) is None:
            continue
        try:
            found.append(f"{name}=={importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            found.append(name)
    return found
