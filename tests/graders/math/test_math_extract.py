"""Final-answer extraction: each rule fires on its shape, and the span is always exact."""

from __future__ import annotations

import time

import pytest

from graders.math.extraction.extract import RULE_NAMES, extract_final_answer

SEED_CHECK = (
    "Vieta gives the product of the roots, so we solve for $a$.\n\n"
    "Thus $a = -256$.\n\n"
    "As a consistency check, the sum of the roots is $-\\frac{a}{2} = 128 > 0$, as required."
)

CASES = [
    # boxed: last box, nested braces, \fbox, unbraced \boxed 5, a run of boxes is one list
    ("So $x = \\boxed{\\frac{1}{2}}$.", "boxed", "\\frac{1}{2}"),
    ("First \\boxed{3}. Then finally \\boxed{\\{1, \\{2\\}\\}}", "boxed", "\\{1, \\{2\\}\\}"),
    ("The area is \\fbox{7}.", "boxed", "7"),
    ("thus \\boxed 5.", "boxed", "5"),
    ("$\\boxed{-2} \\quad \\text{and} \\quad \\boxed{1}$", "boxed",
     "\\boxed{-2} \\quad \\text{and} \\quad \\boxed{1}"),
    ("Step: $\\boxed{200}$. Later $\\boxed{255}$. So the total is $10,455.\n"
     "Final Answer: The final answer is $10,455$. I hope it is correct.", "answer_line", "10,455"),
    ("Thus $\\boxed{5}$. I hope the answer is correct.", "boxed", "5"),
    # answer_line: Answer:/Final answer:/A:, bold markup, heading then next line, worded lines
    ("Work.\n**Answer:** 13", "answer_line", "13"),
    ("Work.\n**Answer: 13**", "answer_line", "13"),
    ("Final answer: $x=9$", "answer_line", "x=9"),
    ("Final Answer: The final answer is $28 \\%$. I hope it is correct.", "answer_line", "28 \\%"),
    ("She makes 13 * 2 = $<<13*2=26>>26\nA: 26", "answer_line", "26"),
    ("She makes 13 * 2 = $<<13*2=26>>26\nA: 26\n\n", "answer_line", "26"),
    ("Options:\nA: 5\nB: 6\nComparing them, the answer is B.", "final_answer_is", "B"),
    ("Answer: 160 minutes (2 hours 40 minutes)", "answer_line", "160"),
    ("## Final Answer\n\n$$x = 9$$", "answer_line", "x = 9"),
    ("Final Answer: The volume of $ABCDEFGH$ is 120. I hope it is correct.", "answer_line", "120"),
    ("Final Answer: Jane started growing Sphere 3 hours ago. I hope so.", "answer_line", "3"),
    ("A: Let's think step by step.\nShe has 3 + 4 = 7 apples.", "last_number", "7"),
    ("So x = 5. I hope the answer is correct.", "last_number", "5"),
    ("Answer: Evelyn", "answer_line", "Evelyn"),
    ("**Answer:** $5x - 7y + 11z + 4 = 0$", "answer_line", "5x - 7y + 11z + 4 = 0"),
    ("**Answer:** $11,\\! 111,\\! 100$", "answer_line", "11,\\! 111,\\! 100"),
    ("$\\$32,\\!348$", "bare", "\\$32,\\!348"),
    # final_answer_is: up to the end of the sentence or its math segment
    ("The answer is 3 < \\lambda \\le 4.", "final_answer_is", "3 < \\lambda \\le 4"),
    ("So the final answer is $\\frac{3}{4}$ and we are done", "final_answer_is", "\\frac{3}{4}"),
    ("The answer is 0.5. Nice.", "final_answer_is", "0.5"),
    # gsm8k_hash
    ("Janet sells 16 - 3 - 4 = <<16-3-4=9>>9 duck eggs a day.\n#### 18", "gsm8k_hash", "18"),
    ("#### 1,200 dollars", "gsm8k_hash", "1,200"),
    # bare: a short reply that is all math is its own answer
    ("2√5", "bare", "2√5"),
    ("  $(3,4]$ ", "bare", "(3,4]"),
    ("\\text{Evelyn}", "bare", "\\text{Evelyn}"),
    ("sqrt(5) + pi", "bare", "sqrt(5) + pi"),
    ("So $x \\in [-2,7]$.", "last_math_final_paragraph", "x \\in [-2,7]"),
    # last_math_final_paragraph, skipping a trailing check paragraph or sentence
    (SEED_CHECK, "last_math_final_paragraph", "-256"),
    ("We get $y = 2$. Let's verify: $2 \\cdot 3 = 6$ as needed.", "last_math_final_paragraph",
     "2"),
    ("Setup $n$.\n\nHence the count is $\\binom{5}{2}$.", "last_math_final_paragraph",
     "\\binom{5}{2}"),
    # named_choice: the final paragraph ends by naming a choice letter
    ("The largest value is $\\frac{7}{11}$, which is choice **(C)**.", "named_choice", "(C)"),
    # program_output: a tool reply's printed number, restated or left standing by its prose
    ("```python\nprint(50 * 0.32)\n```\n```output\n16.0\n```\n"
     "16 people think that horse #12 will win.", "program_output", "16"),
    # last_bold
    ("The total is **18 dollars**.", "last_bold", "18"),
    # number_in_words: a final sentence that states its number only in words
    ("It is 32 feet tall, taller than the window. So it took three days to pass it.",
     "number_in_words", "three"),
    # stated_number: a sentence's value ahead of a trailing condition
    ("So he makes 60*2=$<<60*2=120>>120 in 2 weeks", "stated_number", "120"),
    # last_number: parentheticals, calculator annotations and check paragraphs ignored
    ("It takes 160 minutes (2 hours 40 minutes).", "last_number", "160"),
    ("So the distance is 2√5.", "last_number", "2√5"),
    ("He pays 3 * 4 = <<3*4=12>>12 dollars in total.", "last_number", "12"),
    ("Thus a = -256.\n\nAs a consistency check, -a/2 = 128 > 0.", "last_number", "-256"),
    ("So the probability is 2/3.", "last_number", "2/3"),
    ("Therefore, there are 12 distinct sequences, since $d = \\frac{90}{n}$ fails otherwise",
     "last_math_final_paragraph", "\\frac{90}{n}"),
    # none
    ("I do not know.", "none", None),
    ("", "none", None),
]

CPU_BUDGET_S = 15.0  # per hostile reply; a backtracking regex blows far past it


@pytest.mark.parametrize(("reply", "rule", "answer"), CASES)
def test_rule_and_answer(reply: str, rule: str, answer: str | None) -> None:
    extraction = extract_final_answer(reply)
    assert (extraction.rule, extraction.answer) == (rule, answer)


@pytest.mark.parametrize(("reply", "rule", "answer"), CASES)
def test_span_is_exact(reply: str, rule: str, answer: str | None) -> None:
    extraction = extract_final_answer(reply)
    if extraction.answer is None:
        assert extraction.start is None and extraction.end is None
    else:
        assert reply[extraction.start : extraction.end] == extraction.answer


def test_every_rule_is_exercised_and_named() -> None:
    fired = {extract_final_answer(reply).rule for reply, _, _ in CASES}
    assert fired == set(RULE_NAMES)


# Replies whose answer must not be taken from a later check, a parenthetical or an aside.
@pytest.mark.parametrize(
    ("reply", "wrong"),
    [
        (SEED_CHECK, "128 > 0"),
        ("It takes 160 minutes (2 hours 40 minutes).", "40"),
        ("The answer is $\\boxed{-256}$.\n\nCheck: the sum is $128 > 0$.", "128 > 0"),
        ("so $a = -256$ (the root is $x = 64$).", "64"),
        ("so the angle is **90°**.\n\nIndeed, $20^2 + 21^2 = 29^2$.", "20^2 + 21^2 = 29^2"),
    ],
)
def test_not_fooled(reply: str, wrong: str) -> None:
    assert extract_final_answer(reply).answer != wrong


# The rules added for the demo's thinking-high replies, each in both directions: the reply it
# fixes, and neighbouring replies where it must not fire (or must keep the old answer).
RULE_TABLE = [
    # A math segment inside a worded parenthetical is an aside, not the answer ...
    ("so $a = -256$ (the root is $x = 64$).\n\nAs a consistency check, the sum of the roots is "
     "$-\\frac{a}{2} = 128 > 0$.", "last_math_final_paragraph", "-256"),
    ("Hence $n = 12$ (which gives $m = 3$ as well).", "last_math_final_paragraph", "12"),
    # ... but a parenthesis inside math, or one with no words, is not an aside
    ("So the value is $f(2) = 7$.", "last_math_final_paragraph", "f(2) = 7"),
    ("The point is $P$ ($\\frac{1}{2}$).", "last_math_final_paragraph", "\\frac{1}{2}"),
    # ... and when every segment of the paragraph is in an aside, the aside is all there is
    ("We are done (the value is $12$).", "last_math_final_paragraph", "12"),
    # A paragraph or sentence opening with a confirming word after a stated value is a check ...
    ("so the largest angle is a right angle: **90°**.\n\n"
     "Indeed, $20^2 + 21^2 = 400 + 441 = 841 = 29^2$.", "last_bold", "90°"),
    ("So $x = 5$. Indeed, $5 + 5 = 10$.", "last_math_final_paragraph", "5"),
    ("Thus $y = 7$.\n\nSure enough, $7 \\cdot 2 = 14$.", "last_math_final_paragraph", "7"),
    ("Thus $y = 7$.\n\nThis checks out: $7 \\cdot 2 = 14$.", "last_math_final_paragraph", "7"),
    ("The ratio is $\\frac{7}{11}$.\n\nIndeed, $7 \\cdot 11 = 77$.", "last_math_final_paragraph",
     "\\frac{7}{11}"),
    # ... but "Indeed" after prose is a connective that may state the answer itself
    ("We want the minimum of $x + 4/x$.\n\nIndeed, by AM-GM the minimum is $4$.",
     "last_math_final_paragraph", "4"),
    ("Let $s$ be the side.\n\nIndeed the side is $s = 6$.", "last_math_final_paragraph", "6"),
    # A choice letter named after the value wins, in a final paragraph or a stated answer ...
    ("The largest value is $\\frac{7}{11}$, which is choice **(C)**.", "named_choice", "(C)"),
    ("Of the options, $0.64$ is biggest, option D.", "named_choice", "D"),
    ("The largest is $\\frac{7}{11}$, that is $\\textbf{(C)}$.", "named_choice",
     "\\textbf{(C)}"),
    ("**Answer:** $\\frac{7}{11}$, which is choice (C)", "answer_line", "(C)"),
    ("The answer is $\\frac{7}{11}$, which is choice $\\text{(C)}$.", "final_answer_is",
     "\\text{(C)}"),
    # ... but not a bare capital after a copula (a name), nor a choice followed by a value
    ("The largest angle is C.", "none", None),
    ("We rule out option (B) since $x > 3$, so the value is $\\frac{7}{11}$.",
     "last_math_final_paragraph", "\\frac{7}{11}"),
    ("Option (A) gives $3$ and option (B) gives $5$.", "last_math_final_paragraph", "5"),
    ("**Answer:** (C) 12", "answer_line", "(C) 12"),
    ("The sum is $5$ in both cases, (A) and (B).", "last_math_final_paragraph", "5"),
    ("So $x = \\frac{7}{11}$, which is choice (C), the largest.", "last_math_final_paragraph",
     "\\frac{7}{11}"),
]


@pytest.mark.parametrize(("reply", "rule", "answer"), RULE_TABLE)
def test_check_aside_and_choice_rules(reply: str, rule: str, answer: str | None) -> None:
    extraction = extract_final_answer(reply)
    assert (extraction.rule, extraction.answer) == (rule, answer)
    if answer is not None:
        assert reply[extraction.start : extraction.end] == answer


def test_non_text_reply_is_none() -> None:
    assert extract_final_answer(None).rule == "none"  # type: ignore[arg-type]


# Extraction runs in the parent, outside any timeout: hostile replies must stay near-linear.
@pytest.mark.parametrize(
    "reply",
    [
        "Answer" + " " * 100_000 + "x",
        "\\boxed{" * 10_000,
        "\\[" * 50_000,
        " (" + "ab " * 30_000,
        "the answer is" + "\n" * 100_000,
        "\\boxed{1} and " * 5_000,
        "the answer is " * 10_000,
        "Answer: let's see\n" * 10_000,
        "which is choice" + " " * 100_000 + "x",
        "is \\text{" + " " * 100_000,
        "So $a=5$.\n\nIndeed, " * 20_000,
        "x = 5. Indeed. " * 30_000,
    ],
    ids=["answer-spaces", "open-boxes", "open-brackets", "open-paren", "newlines", "box-run",
         "answer-is-run", "answer-lines", "choice-spaces", "text-spaces", "indeed-paragraphs",
         "indeed-sentences"],
)
def test_hostile_reply_is_fast(reply: str) -> None:
    # CPU seconds of this process, not wall time: other jobs on the machine do not count, and
    # the bound is ~10x today's slowest case, so only a super-linear regression trips it.
    started = time.process_time()
    extraction = extract_final_answer(reply)
    assert time.process_time() - started < CPU_BUDGET_S
    if extraction.answer is not None:
        assert reply[extraction.start : extraction.end] == extraction.answer
