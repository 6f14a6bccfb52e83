"""An append a unit of work has made (events/unit_of_work.py `append`): its events chained after
the head, and, once the unit has sent them to the store, the events as stored.

A unit may hold an append back to send it with its COMMIT (events/postgres/unit_of_work.py),
so the events' global positions are known only once it is sent. What a unit does with the
append is its own business; what it gives back says plainly whether the events are saved:
`stored` answers only once they are, and raises before (or after the unit rolled back)."""

from __future__ import annotations

from collections.abc import Sequence

from events.records import StoredEvent


class AppendNotSaved(RuntimeError):
    """The append's stored events were read before its unit sent them, or after it rolled
    back."""


class PendingAppend:
    def __init__(self, chained: Sequence[StoredEvent]) -> None:
        if not chained:
            raise ValueError("an append has at least one event")
        self._chained = tuple(chained)
        self._stored: list[StoredEvent] | None = None
        self._dropped = False

    @property
    def chained(self) -> tuple[StoredEvent, ...]:
        """The events as they will be stored: versions, hashes and `recorded_at` are final,
        their global positions not known yet (0)."""
        return self._chained

    @property
    def version(self) -> int:
        """The stream's version once the append is saved."""
        return self._chained[-1].version

    @property
    def sent(self) -> bool:
        return self._stored is not None and not self._dropped

    @property
    def stored(self) -> list[StoredEvent]:
        """The events as stored, with their global positions: read them once the unit of work
        has committed (or, inside it, once it has sent the append)."""
        if self._dropped:
            raise AppendNotSaved("the unit of work rolled back: nothing of this append was saved")
        if self._stored is None:
            raise AppendNotSaved(
                "this append is not sent yet: its unit of work sends it ahead of its next"
                " statement or with its COMMIT; read its events once the unit has ended"
            )
        return list(self._stored)

    def mark_sent(self, stored: Sequence[StoredEvent]) -> None:
        """Called by the unit of work once the store has saved the events (`stored`, the same
        events with their global positions)."""
        if self._stored is not None or self._dropped:
            raise RuntimeError("an append is sent once, and never after its unit rolled back")
        if [e.version for e in stored] != [e.version for e in self._chained]:
            raise ValueError("the stored events are not the ones this append chained")
        self._stored = list(stored)

    def drop(self) -> None:
        """Called by the unit of work when it rolls back: whatever was sent is undone."""
        self._dropped = True
