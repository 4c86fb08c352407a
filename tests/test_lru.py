"""The bounded map the result caches keep their entries in."""

from __future__ import annotations

import threading

from judge.lru import Lru


def test_the_least_recently_used_entry_goes_first() -> None:
    kept: Lru[str, int] = Lru(2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.get("a") == 1  # "a" is now the newer of the two
    kept.put("c", 3)
    assert (kept.get("a"), kept.get("b"), kept.get("c"), len(kept)) == (1, None, 3, 2)
    kept.put("a", 4)  # a put replaces and marks as used
    kept.put("d", 5)
    assert (kept.get("a"), kept.get("c"), kept.get("d")) == (4, None, 5)
    kept.clear()
    assert (len(kept), kept.get("a")) == (0, None)


def test_threads_sharing_it_never_exceed_the_bound_or_lose_a_fresh_put() -> None:
    kept: Lru[tuple[int, int], int] = Lru(50)
    wrong: list[tuple[int, int]] = []

    def work(t: int) -> None:
        for i in range(2_000):
            kept.put((t, i), t * i)
            found = kept.get((t, i))
            if found is not None and found != t * i:
                wrong.append((t, i))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wrong == [] and len(kept) == 50
