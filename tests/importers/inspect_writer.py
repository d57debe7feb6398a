"""Write Inspect AI logs with the real inspect_ai library, from a plain JSON description.

Run as `python -m tests.importers.inspect_writer SPEC.json OUT.eval [OUT.json ...]` in a
subprocess, or with no arguments as the session's writer process (tests.line_worker: each
request `{"spec": SPEC, "outs": [paths]}`; the `inspect_writer` fixture), so inspect_ai
(which patches zipfile for Zstandard and loads much else) never enters the test process: the
reader is tested as a user without inspect_ai runs it. No model is called: every sample's
output is written from the description.

SPEC: {"task", "model", "epochs", "task_args", "generate_config", "status",
       "samples": [{"id", "input" (text, or [[role, text], ...]), "target", "metadata",
                    "epochs": [{"completion" (null: the sample errored), "scores":
                                {scorer: {"value", "answer", "explanation"}}}]}]}
"""

from __future__ import annotations

import json
import sys
from typing import Any


def build_log(spec: dict[str, Any]) -> Any:
    from inspect_ai.log import EvalConfig, EvalDataset, EvalError, EvalLog, EvalSample, EvalSpec
    from inspect_ai.model import (
        ChatMessageAssistant,
        ChatMessageSystem,
        ChatMessageUser,
        GenerateConfig,
        ModelOutput,
    )
    from inspect_ai.scorer import Score

    roles = {"user": ChatMessageUser, "system": ChatMessageSystem,
             "assistant": ChatMessageAssistant}
    samples = []
    for item in spec["samples"]:
        given = item["input"]
        chat = [roles[role](content=text) for role, text in given] if isinstance(given, list) else None
        for epoch, run in enumerate(item["epochs"], start=1):
            completion = run.get("completion")
            messages = list(chat or [ChatMessageUser(content=given)])
            extra: dict[str, Any] = {}
            if completion is None:
                extra["error"] = EvalError(message="RuntimeError('model failed')",
                                           traceback="", traceback_ansi="")
                output = ModelOutput(model=spec["model"])
            else:
                messages.append(ChatMessageAssistant(content=completion))
                output = ModelOutput.from_content(spec["model"], completion)
            samples.append(EvalSample(
                id=item["id"], epoch=epoch, input=chat or given, target=item["target"],
                messages=messages, output=output, metadata=item.get("metadata") or {},
                scores={name: Score(**score) for name, score in run.get("scores", {}).items()},
                **extra))
    eval_spec = EvalSpec(
        created="2025-05-01T10:00:00+00:00", task=spec["task"], model=spec["model"],
        dataset=EvalDataset(name=spec["task"], samples=len(spec["samples"])),
        config=EvalConfig(epochs=spec.get("epochs", 1)), task_args=spec.get("task_args", {}),
        model_generate_config=GenerateConfig(**spec.get("generate_config", {})))
    return EvalLog(eval=eval_spec, samples=samples, status=spec.get("status", "success"))


def write(spec: dict[str, Any], outs: list[str]) -> None:
    """SPEC built into a log and written to each of `outs` (the suffix picks the format)."""
    from inspect_ai.log import write_eval_log

    log = build_log(spec)
    for out in outs:
        write_eval_log(log, out)


def main(argv: list[str]) -> None:
    with open(argv[0], encoding="utf-8") as handle:
        write(json.load(handle), argv[1:])


if __name__ == "__main__":
    if sys.argv[1:]:
        main(sys.argv[1:])
    else:
        from tests.line_worker import serve

        serve(lambda request: write(request["spec"], request["outs"]))
