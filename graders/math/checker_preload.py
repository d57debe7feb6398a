"""Imported only by the checking processes' fork server (`fork_server.PRELOAD`): readies it.

Everything a check loads or builds on first use is loaded and built here once (SymPy,
Math-Verify, the parse caches, the LaTeX parser, SymPy's lazily imported modules), so each
checking process forked from the server starts warm. Only caches are filled: no verdict
depends on them.
"""

from graders.math.checking import ready_to_check

ready_to_check()
