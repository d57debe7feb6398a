"""Write export rows as JSONL (nested, lossless) or CSV (flat, one column per grader)."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable
from typing import Any, TextIO

from adjudicate.csv_safe import spreadsheet_row
from adjudicate.safe_text import json_text
from db.export import first_extraction

CSV_FIXED = [
    "reply_id", "run", "model", "benchmark", "task_id", "kind", "sample_index", "form", "key",
    "extractor", "extraction_rule", "extracted_answer", "span_start", "span_end",
]
CSV_TAIL = ["queued", "queue_reason", "labels", "adjudicated", "reply"]


def write_jsonl(rows: Iterable[dict[str, Any]], out: TextIO) -> int:
    """One JSON object per line; exact (controls and lone surrogates are \\u escapes)."""
    count = 0
    for row in rows:
        out.write(json_text(row, sort_keys=True) + "\n")
        count += 1
    return count


def write_csv(rows: Iterable[dict[str, Any]], graders: list[str], out: TextIO) -> int:
    """One row per reply; verdicts become `verdict:<grader>` columns, labels a JSON cell.
    Text cells are neutralised for spreadsheets (adjudicate.csv_safe); numbers stay numbers."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_FIXED + [f"verdict:{g}" for g in graders] + CSV_TAIL)
    count = 0
    for row in rows:
        extractor, extraction = first_extraction(row)
        labels = {
            reviewer: state["label"] for reviewer, state in sorted(row["labels"].items())
            if state["status"] == "labeled"
        }
        writer.writerow(spreadsheet_row(
            [row["reply_id"], row["run"], row["model"], row["benchmark"], row["task_id"],
             row["kind"], row["sample_index"], row["form"], row["key"], extractor,
             extraction.get("rule"), extraction.get("answer"), extraction.get("start"),
             extraction.get("end")]
            + [row["verdicts"].get(g, {}).get("verdict", "") for g in graders]
            + [int(row["queued"]), (row["queue"] or {}).get("reason", ""),
               json.dumps(labels, ensure_ascii=False) if labels else "",
               (row["adjudication"] or {}).get("label", ""), row.get("reply", "")]
        ))
        count += 1
    return count
