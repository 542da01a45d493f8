"""A human turn, built one piece at a time as in the Amiga program.

"You may drop the piece anywhere on the table" (a new series) or "on top
of an existing series" where it is added to the proper end or splits the
run.  "Back up" takes back the last piece moved.  Ending the turn with
problems first shows them ("you will see a requester ... Then you have the
chance to fix things right"); ending again without changing anything takes
the penalty.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from games_py.rummi import rules
from games_py.rummi.rules import EndTurn, Swap
from games_py.rummi.state import GameState, Series
from games_py.rummi.tiles import Tile, parse_kind, sort_tray, value


class MoveError(ValueError):
    """A piece move the table does not allow; the message says why."""


@dataclass(frozen=True)
class Requester:
    """Problems to show before the turn may end."""

    problems: list[str]


class TurnBuilder:
    def __init__(self, state: GameState):
        self.state = state
        self.me = state.current
        self.table: list[Series] = list(state.table)
        self.tray: list[Tile] = list(state.trays[self.me])
        self._undo: list[tuple[list[Series], list[Tile]]] = []
        self._warned = False

    # -- looking -------------------------------------------------------------
    @property
    def moved(self) -> bool:
        return bool(self._undo)

    def played(self) -> list[Tile]:
        """Tray pieces now on the table."""
        return sorted((Counter(self.state.trays[self.me]) - Counter(self.tray)).elements())

    def played_value(self) -> int:
        return value(self.played())

    def problems(self) -> list[str]:
        return rules.table_problems(self.table, self.played(), self.state.opened[self.me])

    def find_on_tray(self, text: str) -> Tile:
        kind = parse_kind(text)
        for t in sort_tray(self.tray):
            if t.kind == kind:
                return t
        raise MoveError(f"{text.upper()} is not on your tray")

    def find_on_table(self, series_number: int, text: str) -> Tile:
        series = self._series(series_number)
        kind = parse_kind(text)
        for t in series:
            if t.kind == kind:
                return t
        raise MoveError(f"{text.upper()} is not in series {series_number}")

    # -- moving pieces ---------------------------------------------------------
    def play(self, piece: Tile, target: int | None = None) -> None:
        """A tray piece onto series ``target`` (1-based) or a new series."""
        if piece not in self.tray:
            raise MoveError(f"{piece} is not on your tray")
        table = list(self.table)
        self._drop(table, piece, target)
        tray = list(self.tray)
        tray.remove(piece)
        self._commit(table, tray)

    def move(self, source: int, piece: Tile, target: int | None = None) -> None:
        """A table piece from series ``source`` onto ``target`` or a new one."""
        series = self._series(source)
        if piece not in series:
            raise MoveError(f"{piece} is not in series {source}")
        if target == source:
            raise MoveError("that piece is already in that series")
        if target is not None:
            self._series(target)
        table = list(self.table)
        pieces = rules.lift_from(series, piece)
        table[source - 1:source] = pieces
        if target is not None and target > source:
            target += len(pieces) - 1
        self._drop(table, piece, target)
        self._commit(table, list(self.tray))

    def back_up(self) -> None:
        """"take back the last piece played"."""
        if not self._undo:
            raise MoveError("nothing to take back this turn")
        self.table, self.tray = self._undo.pop()
        self._warned = False

    def swap(self, give: Tile, receive: Tile) -> None:
        """Swap a duplicate with the opponent (both copies must be on the tray
        now, not on the table)."""
        if Counter(t.kind for t in self.tray)[give.kind] < 2:
            raise MoveError(f"{give} is not a duplicate on your tray")
        problem = rules.swap_problem(self.state, give, receive)
        if problem:
            raise MoveError(problem)
        self.state = rules.apply(self.state, Swap(give, receive))
        self.tray.remove(give)
        self.tray.append(receive)
        # moves made so far stay valid: neither swapped piece is on the table
        self._undo = [(table, [receive if t == give else t for t in tray])
                      for table, tray in self._undo]

    def swapped(self, state: GameState, give: Tile, receive: Tile) -> None:
        """The swap offered through the game's actions happened: ``state`` is the game
        after it; the moves made so far stay (neither piece is on the table)."""
        self.state = state
        self.tray = [receive if t == give else t for t in self.tray]
        self._undo = [(table, [receive if t == give else t for t in tray])
                      for table, tray in self._undo]

    # -- ending ----------------------------------------------------------------
    def finish(self) -> Requester | EndTurn:
        """The OK gadget.  Problems are reported once; OK again with nothing
        changed accepts the penalty."""
        problems = self.problems()
        if problems and not self._warned:
            self._warned = True
            return Requester(problems)
        return EndTurn(tuple(self.table))

    # -- helpers ---------------------------------------------------------------
    def _series(self, number: int) -> Series:
        if not 1 <= number <= len(self.table):
            raise MoveError(f"there is no series {number} on the table "
                            f"(series are numbered 1 to {len(self.table)})"
                            if self.table else "the table is empty")
        return self.table[number - 1]

    @staticmethod
    def _drop(table: list[Series], piece: Tile, target: int | None) -> None:
        if target is None:
            table.append((piece,))
            return
        if not 1 <= target <= len(table):
            raise MoveError(f"there is no series {target} on the table")
        result = rules.drop_onto(table[target - 1], piece)
        if result is None:
            raise MoveError(f"{piece} does not fit on series {target}")
        table[target - 1:target] = result

    def _commit(self, table: list[Series], tray: list[Tile]) -> None:
        self._undo.append((self.table, self.tray))
        self.table, self.tray = table, tray
        self._warned = False
