"""The CPU-time bound of one run's scan (docs/integrity.md, "Where the scan runs"): the scan
reads its text in pieces (a batch of a seat's strings, one rule over one text) and calls
:func:`checkpoint` between them, which raises :class:`ScanBudgetExceeded` once the thread has
spent the budget. The work really stops there: no thread is killed, the scan gives up."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from judge.core.errors import ScanBudgetExceeded

#: Seconds of CPU time, e.g. ``time.thread_time`` (the calling thread's, so other threads'
#: work never counts; the pure core reads no clock of its own).
Clock = Callable[[], float]


class ScanBudget:
    """A CPU-time allowance that started when it was made."""

    def __init__(self, cpu_s: float, clock: Clock) -> None:
        self.cpu_s, self.clock = cpu_s, clock
        self.started = clock()

    def check(self) -> None:
        if (used := self.clock() - self.started) > self.cpu_s:
            raise ScanBudgetExceeded(
                f"the integrity scan used {used:.2f} CPU seconds, over its budget of "
                f"{self.cpu_s:g} (JUDGE_SCAN_CPU_S)"
            )


_CURRENT: ContextVar[ScanBudget | None] = ContextVar("judge_scan_budget", default=None)


@contextmanager
def bounded(cpu_s: float | None, clock: Clock) -> Iterator[None]:
    """Scans inside the block (on this thread) stop with ScanBudgetExceeded once ``clock`` has
    advanced ``cpu_s`` seconds; None: no bound."""
    if cpu_s is None:
        yield
        return
    token = _CURRENT.set(ScanBudget(cpu_s, clock))
    try:
        yield
    finally:
        _CURRENT.reset(token)


def checkpoint() -> None:
    """Between two pieces of a scan: raise ScanBudgetExceeded when the budget is spent."""
    budget = _CURRENT.get()
    if budget is not None:
        budget.check()


def _unbounded() -> None:
    return None


def checker() -> Callable[[], None]:
    """:func:`checkpoint` for a loop of many small pieces on this thread: the budget is
    looked up once, its check called for each piece."""
    budget = _CURRENT.get()
    return _unbounded if budget is None else budget.check
