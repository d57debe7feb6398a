"""User-facing errors: one line naming the file, line and field, and what to do next."""

from __future__ import annotations

from db.records import Location


class InputError(Exception):
    """Bad input in a file the user gave us; nothing has been written when this is raised."""

    def __init__(
        self, path: str, message: str, *, line: int | None = None, field: str | None = None,
        record: str | None = None,
    ) -> None:
        self.path = path
        self.line = line
        self.record = record  # where in a file that is not lines (`samples/7_epoch_2.json`)
        self.field = field
        self.message = message
        super().__init__(str(self))

    @classmethod
    def at(cls, location: Location, message: str, field: str | None = None) -> InputError:
        """The error for the record read at `location`."""
        return cls(location.path, message, line=location.line, field=field,
                   record=location.record or None)

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        if self.record:
            where = f"{self.path}:{self.record}"
        what = f"field {self.field!r}: " if self.field else ""
        return f"{where}: {what}{self.message}"
