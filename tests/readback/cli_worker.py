"""Run `adjudicate` commands in a process of their own that stays up for the session.

`adjudicate export --format inspect` loads inspect_ai, which must stay out of the test process
(tests.line_worker); starting a process per export cost a few seconds of imports each. Each
request is a command's arguments; the answer is its exit code, standard output and standard
error, with the traceback of any exception the command let out (there should be none).
"""

from __future__ import annotations

import traceback
from typing import Any

from click.testing import CliRunner

from adjudicate.cli import main
from tests.line_worker import serve


def run(args: list[str]) -> dict[str, Any]:
    result = CliRunner().invoke(main, args, prog_name="adjudicate")
    stderr = result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        assert result.exc_info is not None
        stderr += "".join(traceback.format_exception(*result.exc_info))
    return {"code": result.exit_code, "stdout": result.stdout, "stderr": stderr}


if __name__ == "__main__":
    serve(run)
