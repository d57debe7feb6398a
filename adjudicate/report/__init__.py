"""The report: every run regraded against the reading, with honest statistics (no UI imports)."""

from .compute import build_report
from .model import Report
from .records import ReplyRecord, SelfCheckFailure

__all__ = ["Report", "ReplyRecord", "SelfCheckFailure", "build_report"]
