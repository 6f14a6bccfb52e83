"""Per-seat tuples in frozen states: one seat's entry replaced, the rest shared."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def set_at(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return values[:index] + (value,) + values[index + 1 :]
