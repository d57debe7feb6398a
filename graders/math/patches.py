"""Every attribute of SymPy, Math-Verify and latex2sympy2 this project replaces, in one table,
behind one version guard, installed only in the processes that check.

What is replaced (the table is `PATCHES`; the replacements live beside their reasons):

- SymPy's `parse_expr` and Math-Verify's reference to it (`parse_caches.parse_expr`): SymPy
  rebuilt its namespace (`from sympy import *`, ~0.7 ms) for every number Math-Verify read;
- Math-Verify's `Number` (memoised) and its `parse_latex_cached` / `parse_expr_cached` (4,096
  entries, not 20): a key and its common answers were parsed again and again;
- latex2sympy2's `_Latex2Sympy.create_parser` (`two_stage_latex.create_parser`): ANTLR's full-LL
  prediction was half of MATH-500's grading time; SLL first, LL on a syntax error, gives the
  same trees;
- Math-Verify's `sympy_numeric_eq` and `sympy_symbolic_eq` (`exact_mode`): `symbolic` compares
  numbers exactly, `mathverify-full` keeps Math-Verify's rounding. Only these two change
  results: they are part of what `symbolic`'s verdicts mean. The others change no result
  (tests/graders/math/test_math_parse_caches.py, test_math_two_stage_latex.py).

Each replacement copies or wraps internals of the releases in `WRITTEN_FOR`, and two of them
are part of what `symbolic`'s verdicts mean. On any other release `install()` refuses
(`UnsupportedVersions`), and `adjudicate grade` checks first (`check_versions`) so the refusal is
one clear line before any checking process starts: a verdict must never rest on internals
nobody compared (a silently different verdict would be stored under an unchanged grader
version and never regraded), and grading unpatched would change `symbolic`'s verdicts. The
dependency pins in pyproject.toml are these versions, so only a forced install meets the guard.

`install()` runs in the checking processes (their start, `checking.start_checking_process`,
and the fork server they start from), and in a process that compares numbers exactly itself
(`exact_mode.exact_numbers`, e.g. a test calling `grade_symbolic`); the grading process of
`adjudicate grade` never loads SymPy and is never patched. This module imports only the
standard library, so the version check costs the grading process nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from importlib.metadata import PackageNotFoundError, version
from typing import Any

# The releases the replacements were written and checked against: version prefixes.
WRITTEN_FOR = {
    "sympy": "1.14.",
    "math-verify": "0.9.",
    "latex2sympy2_extended": "1.11.",
    "antlr4-python3-runtime": "4.13.",
}


@dataclass(frozen=True)
class Patch:
    """One replaced attribute: `owner` is a module or `module:Class`; `replacement` names a
    function (`module:name`) that takes the original attribute and returns what replaces it."""

    owner: str
    attribute: str
    replacement: str
    why: str
    changes_results: bool = False


_CACHES = "graders.math.parse_caches"
PATCHES = (
    Patch("sympy.parsing.sympy_parser", "parse_expr", f"{_CACHES}:shared_namespace",
          "the default namespace built once, not per parse"),
    Patch("math_verify.parser", "parse_expr", f"{_CACHES}:shared_namespace",
          "Math-Verify's own reference to SymPy's parse_expr"),
    Patch("math_verify.parser", "Number", f"{_CACHES}:memoised",
          "numbers read from replies recur"),
    Patch("math_verify.parser", "parse_latex_cached", f"{_CACHES}:bigger_cache",
          "4,096 cached parses instead of 20"),
    Patch("math_verify.parser", "parse_expr_cached", f"{_CACHES}:bigger_cache",
          "4,096 cached parses instead of 20"),
    Patch("latex2sympy2_extended.latex2sympy2:_Latex2Sympy", "create_parser",
          "graders.math.two_stage_latex:two_stage", "LaTeX parsed SLL first, LL on an error"),
    Patch("math_verify.grader", "sympy_numeric_eq", "graders.math.exact_mode:numeric_hook",
          "`symbolic` compares numbers exactly", changes_results=True),
    Patch("math_verify.grader", "sympy_symbolic_eq", "graders.math.exact_mode:symbolic_hook",
          "`symbolic` keeps numbers it decided exactly", changes_results=True),
)


class UnsupportedVersions(RuntimeError):
    """Installed releases other than the ones the patches were written for."""


def mismatches() -> dict[str, str]:
    """{package: installed version} for each package whose release is not the one in
    `WRITTEN_FOR` ('not installed' when it is missing)."""
    found = {}
    for package, prefix in WRITTEN_FOR.items():
        try:
            installed = version(package)
        except PackageNotFoundError:
            installed = "not installed"
        if not installed.startswith(prefix):
            found[package] = installed
    return found


def check_versions() -> None:
    """Raise UnsupportedVersions, saying what to install, unless every release matches."""
    wrong = mismatches()
    if wrong:
        found = ", ".join(f"{package} {installed}" for package, installed in wrong.items())
        wanted = " ".join(f"'{package}=={WRITTEN_FOR[package]}*'" for package in wrong)
        raise UnsupportedVersions(
            f"the math graders replace parts of SymPy and Math-Verify written for other "
            f"releases than the installed {found}: their verdicts are not checked there, so "
            f"nothing is graded; install the releases they were written for: "
            f"pip install {wanted}")


_installed: list[Patch] = []  # what this process has replaced, in order


def installed() -> bool:
    """Whether this process has its patches in."""
    return bool(_installed)


def install() -> None:
    """Put every replacement in this process (idempotent); UnsupportedVersions, and nothing
    replaced, on other releases."""
    if _installed:
        return
    check_versions()
    # everything found (and every module imported) before anything is replaced
    found = [(_resolve(patch.owner), _resolve(patch.replacement), patch) for patch in PATCHES]
    for owner, make, patch in found:
        setattr(owner, patch.attribute, make(getattr(owner, patch.attribute)))
        _installed.append(patch)


def _resolve(name: str) -> Any:
    module, _, attribute = name.partition(":")
    found = import_module(module)
    return getattr(found, attribute) if attribute else found
