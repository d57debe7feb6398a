"""One worker slot's sandbox: runs items one after another, restarting the sandbox when it dies.

The local engine gives each of its threads one slot; a Ray worker keeps one for its whole life.
A result is handed back only once its sample's processes are gone (the sandbox reports each
job's teardown), so a verdict is never stored while anything of its sample still runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Generic, TypeVar

from graders.code.sandbox.host import IsolationUnavailable, Sandbox, SandboxError
from graders.code.sandbox.records import SandboxConfig

Item = TypeVar("Item")
Result = TypeVar("Result")
# a sandbox whose fork server died while it ran an item is restarted and the item run again
ATTEMPTS = 2


@dataclass(frozen=True)
class SlotTask(Generic[Item, Result]):
    """What a slot does with an item (`work`) and what it returns when that fails (`failed`,
    given the reason): grading a sample, running a reference, self-checking a problem."""

    work: Callable[[Sandbox, Item], Result]
    failed: Callable[[Item, str], Result]


class SandboxSlot:
    """A sandbox for slot number `slot` (its sample uid and cgroup names), started on demand."""

    def __init__(self, config: SandboxConfig, slot: int) -> None:
        self.config, self.slot = config, slot
        self.sandbox: Sandbox | None = None
        self._held: list[tuple[int, Any]] = []  # (job number it waits for, result)
        self._freed: list[Any] = []  # results of a retired sandbox, not yet handed back

    def start(self) -> Sandbox:
        """The running sandbox, started if needed; `IsolationUnavailable` if it is refused."""
        if self.sandbox is None or not self.sandbox.alive:
            self._freed = self._retire()  # its processes are gone: their results may go
            self.sandbox = Sandbox(self.config, self.slot)
            self.sandbox.start()
        return self.sandbox

    def run(self, task: SlotTask[Item, Result], item: Item) -> list[Any]:
        """Run one item; the results (this one's or earlier ones') whose samples are gone."""
        result: Result | None = None
        retired: list[Any] = []  # earlier items' results, released when a sandbox is retired
        for _attempt in range(ATTEMPTS):
            try:
                sandbox = self.start()
                result = task.work(sandbox, item)
                if sandbox.alive:
                    break
            except IsolationUnavailable:
                raise  # nothing may run: the whole grade stops with the reason
            except SandboxError as error:
                result = task.failed(item, str(error))
            except Exception as error:
                # A grader bug on one item becomes that item's `error` verdict; its sandbox may
                # be in any state, so the next item gets a fresh one.
                result = task.failed(item, f"grader error: {type(error).__name__}: {error}")
                retired = self._retire()
                break
        assert result is not None  # every attempt sets it or raises
        self._held.append((self.sandbox.jobs_started if self.sandbox is not None else 0, result))
        return retired + self._release()

    def finish(self) -> list[Any]:
        """Wait for every job's teardown; every result still held."""
        return self._release(settle=True)

    def close(self) -> list[Any]:
        """Stop the sandbox (its jobs die with it); every result still held."""
        return self._retire()

    def _release(self, settle: bool = False) -> list[Any]:
        through = 1 << 62
        if self.sandbox is not None:
            try:
                self.sandbox.settle() if settle else self.sandbox.collect()
                through = self.sandbox.torn_down_through
            except SandboxError:
                return self._retire()
        ready, self._freed = self._freed + [result for number, result in self._held
                                            if number <= through], []
        self._held = [(number, result) for number, result in self._held if number > through]
        return ready

    def _retire(self) -> list[Any]:
        if self.sandbox is not None:
            self.sandbox.close()
            self.sandbox = None
        ready = self._freed + [result for _number, result in self._held]
        self._freed, self._held = [], []
        return ready
