"""The fork server's sibling modules as one namespace: this module is its type, for mypy only.

Inside the sandbox the graders package cannot be imported, so the fork server loads each file
of this folder by path (`server.load_kit`, before its pivot hides the folder) into one
namespace, `KIT`, and gives that same namespace to each file that calls its siblings
(job.py and root.py, which name it `KIT` too). mypy reads every such `KIT` as this module, whose
attributes are the siblings imported below, so each call through it is checked. At run time
this file defines nothing and is never loaded; `server.SIBLINGS` lists the same files.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from . import budget as budget
    from . import confine as confine
    from . import guard as guard
    from . import harness as harness
    from . import job as job
    from . import reap as reap
    from . import root as root
    from . import seccomp as seccomp
    from . import spec as spec
    from . import tagged as tagged
