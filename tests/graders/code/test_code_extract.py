"""Program extraction from replies: which rule fires, which span it takes, how it is assembled."""

from __future__ import annotations

import pytest

from graders.code.extract import assemble_program, extract_program, is_completion

PROMPT = 'from typing import List\n\n\ndef f(xs: List[int]) -> int:\n    """Sum."""\n'
SOLUTION = "def f(xs):\n    return sum(xs)\n"


@pytest.mark.parametrize("reply, rule, code", [
    # the last complete fenced block that defines the entry point
    (f"Here:\n```python\n{SOLUTION}```\nDone.", "fenced_solution", SOLUTION),
    (f"```python\n{SOLUTION}```\nTest it:\n```python\nprint(f([1]))\n```\n", "fenced_solution",
     SOLUTION),
    (f"```py\ndef f(xs):\n    return 0\n```\nBetter:\n```python\n{SOLUTION}```", "fenced_solution",
     SOLUTION),
    (f"~~~\n{SOLUTION}~~~\n", "fenced_solution", SOLUTION),
    # a block in another language is never the program
    (f"```bash\npip install x\n```\n```python\n{SOLUTION}```", "fenced_solution", SOLUTION),
    # a reply cut off inside its fence (token limit) is graded as written
    (f"```python\n{SOLUTION}    # and more", "unclosed_fence", SOLUTION + "    # and more"),
    # no block defines it: the last Python block, as a body when indented
    ("```python\n    return sum(xs)\n```", "fenced_completion", "    return sum(xs)\n"),
    ("```python\nprint(1)\n```", "fenced_block", "print(1)\n"),
    # no fences: raw code, prose before it dropped
    (f"Sure, here it is.\n{SOLUTION}", "raw_solution", SOLUTION),
    ("    return sum(xs)\n", "raw_completion", "    return sum(xs)\n"),
    ("   \n", "empty", ""),
])
def test_auto_extraction(reply: str, rule: str, code: str) -> None:
    extraction = extract_program(reply, "f")
    assert (extraction.rule, extraction.answer) == (rule, code)
    assert reply[extraction.start:extraction.end] == code


@pytest.mark.parametrize("kind", ["solution", "completion"])
def test_declared_kind_takes_the_reply_as_is(kind: str) -> None:
    reply = "```python\nnot parsed\n```"
    extraction = extract_program(reply, "f", kind)
    assert (extraction.rule, extraction.answer, extraction.start, extraction.end) == (
        kind, reply, 0, len(reply))


def test_completion_is_appended_to_the_prompt() -> None:
    extraction = extract_program("    return sum(xs)\n", "f", "completion")
    assert is_completion(extraction)
    assert assemble_program(extraction, PROMPT) == PROMPT + "    return sum(xs)\n"


def test_solution_runs_after_the_prompt_so_its_imports_exist() -> None:
    program = assemble_program(extract_program(f"```python\n{SOLUTION}```", "f"), PROMPT)
    namespace: dict = {}
    exec(program, namespace)  # the test's own trusted code, not a sample
    assert namespace["f"]([1, 2]) == 3 and "List" in namespace


def test_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError):
        extract_program("x", "f", "body")
