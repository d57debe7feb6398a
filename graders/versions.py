"""Every math grader's version, in a module light enough to import without SymPy.

A stored verdict is redone when its grader's version changes, so bump a version whenever the
grader's verdicts can change: the string graders and `symbolic` read the extracted answer, so
they bump with `extract.VERSION`; `symbolic` and `mathverify-full` both bump when
`rewrite.harden` changes (it prepares the key for both), and carry Math-Verify's version;
`symbolic` bumps too when `second_look` changes.
"""

from __future__ import annotations

from importlib.metadata import version as package_version

MATH_VERIFY_VERSION = package_version("math-verify")
EXACT_VERSION = "5"
NORMALIZED_VERSION = "5"
SYMBOLIC_VERSION = f"5+math-verify-{MATH_VERIFY_VERSION}"
FULL_VERSION = f"3+math-verify-{MATH_VERIFY_VERSION}"
