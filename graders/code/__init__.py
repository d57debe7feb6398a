"""Code graders: extract a program, run it sandboxed on base and plus tests, keep the evidence.

The store and CLI call these; nothing here imports Textual or touches the database.
"""

from graders.code.engine import (
    CodeJob,
    CodeResult,
    expected_many,
    grade_code_many,
    selfcheck_many,
)
from graders.code.expected import ExpectedOutputs, TimeLimits, compute_expected
from graders.code.extract import assemble_program, extract_program
from graders.code.grade import CodeGradeConfig, grade_reply, grade_sample
from graders.code.problem import CodeProblem, load_evalplus, load_human_eval
from graders.code.sandbox import Sandbox, SandboxConfig, SandboxLimits
from graders.code.selfcheck import SelfCheckResult, selfcheck_problem

__all__ = [
    "CodeGradeConfig", "CodeJob", "CodeProblem", "CodeResult", "ExpectedOutputs", "Sandbox",
    "SandboxConfig", "SandboxLimits", "SelfCheckResult", "TimeLimits", "assemble_program",
    "compute_expected", "expected_many", "extract_program", "grade_code_many", "grade_reply",
    "grade_sample", "load_evalplus", "load_human_eval", "selfcheck_many", "selfcheck_problem",
]
