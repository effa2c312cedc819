"""A list that finds its items by the value of one attribute, and keeps that index itself.

A game state keeps its items in plain lists (they compare, copy, pickle and export as lists,
and the master workbook writes them row by row), yet the rules look items up by a key (a hex,
a name) thousands of times a turn while they append, remove and re-slice those lists in many
places.  Rather than ask every rule module to keep an index up to date, a `KeyedList` keeps it:
the index (key -> items with it, in list order) is built on the first look-up, kept up to date
by ``append`` and ``remove`` (the changes a turn makes most), and simply dropped by any other
change (slice assignment, sort, insert...) to be built again when next asked.  It is a real
``list`` subclass, so it compares, copies, pickles and exports like the plain list it replaces.

What it cannot see is a change *inside* an item: a game that uses it must never change the key
of an item in the list (it makes a new item instead); `at` checks the key of what it returns
all the same.  A game names its lists by subclassing with its ``key``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, SupportsIndex


class KeyedList(list[Any]):
    """``list`` with a look-up of its items by the attribute named ``key`` (`at`)."""

    key = "hex"

    def __init__(self, items: Iterable[Any] = ()) -> None:
        super().__init__(items)
        self._index: dict[str, list[Any]] | None = None

    # -- the look-up ----------------------------------------------------------------------------
    def at(self, value: str) -> list[Any]:
        """The items whose key is ``value``, in list order (the index's own list: do not
        change it)."""
        if self._index is None:
            self._build()
        assert self._index is not None
        found = self._index.get(value, _EMPTY)
        key = self.key
        for item in found:
            if getattr(item, key) != value:  # a key was changed in place: look again
                self._build()
                return self._index.get(value, _EMPTY)
        return found

    def _build(self) -> None:
        index: dict[str, list[Any]] = {}
        key = self.key
        for item in self:
            index.setdefault(getattr(item, key), []).append(item)
        self._index = index

    # -- changes kept in the index ------------------------------------------------------------
    def append(self, item: Any) -> None:
        super().append(item)
        if self._index is not None:
            self._index.setdefault(getattr(item, self.key), []).append(item)

    def remove(self, item: Any) -> None:
        # The item itself is looked for by identity (no __eq__ call per item passed over); in a
        # state no two forces or facilities are equal, so this is the item list.remove takes.
        for position, other in enumerate(self):  # noqa: B007 (used after the loop)
            if other is item:
                break
        else:
            position = self.index(item)  # an equal item, as list.remove takes (or ValueError)
        removed = self[position]
        super().__delitem__(position)
        if self._index is not None:
            bucket = self._index.get(getattr(removed, self.key), [])
            for i, other in enumerate(bucket):
                if other is removed:
                    del bucket[i]
                    break
            else:
                self._index = None

    # -- changes that drop the index ----------------------------------------------------------
    def extend(self, items: Iterable[Any]) -> None:
        super().extend(items)
        self._index = None

    def insert(self, index: SupportsIndex, item: Any) -> None:
        super().insert(index, item)
        self._index = None

    def pop(self, index: SupportsIndex = -1) -> Any:
        item = super().pop(index)
        self._index = None
        return item

    def clear(self) -> None:
        super().clear()
        self._index = None

    def sort(self, *args: Any, **kwargs: Any) -> None:
        super().sort(*args, **kwargs)
        self._index = None

    def reverse(self) -> None:
        super().reverse()
        self._index = None

    def __setitem__(self, index: Any, value: Any) -> None:
        super().__setitem__(index, value)
        self._index = None

    def __delitem__(self, index: Any) -> None:
        super().__delitem__(index)
        self._index = None

    def __iadd__(self, items: Iterable[Any]) -> KeyedList:  # type: ignore[misc]
        super().__iadd__(items)
        self._index = None
        return self

    def __imul__(self, count: SupportsIndex) -> KeyedList:
        super().__imul__(count)
        self._index = None
        return self

    def __reduce_ex__(self, protocol: SupportsIndex) -> Any:
        # Pickle (and deepcopy) as a list of the same items; the index is built again.
        return (type(self), (list(self),))


_EMPTY: list[Any] = []
