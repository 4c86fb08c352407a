from judge.core.domain.wording import counted


def test_one_takes_the_singular_and_every_other_count_the_plural() -> None:
    assert counted(1, "pass", "passes") == "1 pass"
    assert counted(0, "pass", "passes") == "0 passes"
    assert counted(2, "action") == "2 actions"
    assert counted(1, "turn") == "1 turn"
