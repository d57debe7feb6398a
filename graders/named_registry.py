"""A registry of named specs in registration order: the one place a kind of thing is listed.

Grader specs (`graders.registry`) and label specs (`graders.labels`) are each held in one of
these; everything else looks a name up here rather than spelling its facts again.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Generic, Protocol, TypeVar


class Named(Protocol):
    @property
    def name(self) -> str: ...


Spec = TypeVar("Spec", bound=Named)


class NamedRegistry(Generic[Spec]):
    """Specs by name; their order is the order they were registered in."""

    def __init__(self, what: str, specs: Iterable[Spec] = ()) -> None:
        self._what = what
        self._specs: dict[str, Spec] = {}
        for spec in specs:
            self.register(spec)

    def register(self, spec: Spec) -> Spec:
        """Add a spec after the others; a name registered twice is refused."""
        if spec.name in self._specs:
            raise ValueError(f"{self._what} {spec.name!r} is already registered")
        self.check(spec)
        self._specs[spec.name] = spec
        return spec

    def check(self, spec: Spec) -> None:
        """Refuse a spec that clashes with the registered ones (subclasses add rules)."""

    @contextmanager
    def registered(self, *specs: Spec) -> Iterator[None]:
        """Register specs for the length of a `with` block (tests), then remove them."""
        for spec in specs:
            self.register(spec)
        try:
            yield
        finally:
            for spec in specs:
                self._specs.pop(spec.name, None)

    def __getitem__(self, name: str) -> Spec:
        try:
            return self._specs[name]
        except KeyError:
            raise KeyError(f"no {self._what} {name!r}; known: {', '.join(self._specs)}") from None

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def __iter__(self) -> Iterator[Spec]:
        return iter(list(self._specs.values()))

    def names(self) -> tuple[str, ...]:
        return tuple(self._specs)

    def rank(self, name: str) -> tuple[int, str]:
        """Sort key: registered names in registration order, then any other name by itself."""
        names = list(self._specs)
        return (names.index(name) if name in self._specs else len(names), name)

    def ordered(self, names: Iterable[str]) -> list[str]:
        """`names` in display order (registered first, in order; the rest alphabetically)."""
        return sorted(set(names), key=self.rank)
