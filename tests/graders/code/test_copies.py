"""Which programs may share one run among their copies, and who stands for whom."""

from __future__ import annotations

import pytest

from graders.code.copies import Copies, repeats_itself

PLAIN = "def f(x):\n    return sorted(x)\n"


@pytest.mark.parametrize("program", [
    "import random\ndef f(x):\n    return random.choice(x)\n",
    "def f(x):\n    from random import shuffle\n    shuffle(x)\n    return x\n",
    "import time\ndef f(x):\n    return time.time() > 0\n",
    "def f(x):\n    return id(x) % 2\n",
    "def f(x):\n    return hash(object()) % 2\n",
    "import numpy as np\ndef f(x):\n    return np.random.rand()\n",
    "import os\ndef f(x):\n    return os.getpid()\n",
    "def f(x):\n    return __import__('uuid').uuid4().hex\n",
])
def test_a_program_naming_chance_the_clock_or_identity_runs_for_every_copy(program: str) -> None:
    assert not repeats_itself(program)
    copies: Copies[int] = Copies()
    assert [copies.runs(key, "P/1", program) for key in (1, 2, 3)] == [True, True, True]
    assert copies.of(1) == [] and len(copies) == 0


def test_the_first_copy_of_a_program_runs_for_the_later_ones_of_the_same_problem() -> None:
    assert repeats_itself(PLAIN)
    copies: Copies[int] = Copies()
    ran = [key for key, problem, program in [
        (1, "P/1", PLAIN), (2, "P/1", PLAIN + "\n"), (3, "P/1", PLAIN), (4, "P/2", PLAIN),
        (5, "P/1", PLAIN)] if copies.runs(key, problem, program)]
    # another text (a trailing newline) or another problem is another program
    assert ran == [1, 2, 4]
    assert copies.of(1) == [3, 5] and copies.of(2) == [] and copies.of(4) == []
    assert len(copies) == 2
