from judge.engine.judging.verdict import CUT_MARK, cut_verdict, parse_verdict

TURNS = {1, 2, 3}


def test_plain_json_verdict() -> None:
    v = parse_verdict('{"score": 0.8, "turns": [2, 9], "rationale": "kept its word"}', TURNS)
    assert (v.status, v.score, v.cited_turns, v.rationale) == ("ok", 0.8, [2], "kept its word")


def test_the_last_verdict_wins() -> None:
    text = (
        'First thought: {"score": 0.2, "turns": [1]} but on reflection {"score": 0.9, "turns": [3]}'
    )
    v = parse_verdict(text, TURNS)
    assert (v.score, v.cited_turns) == (0.9, [3])


def test_score_outside_the_rubric_range_is_unscored_not_clamped() -> None:
    v = parse_verdict('{"score": 7, "turns": []}', TURNS)
    assert (v.status, v.score) == ("out_of_range", None)
    assert "outside 0.0-1.0" in (v.reason or "")


def test_text_without_verdict_is_unparseable_with_reason() -> None:
    v = parse_verdict("The participant behaved reasonably overall.", TURNS)
    assert v.status == "unparseable" and v.score is None
    assert "no verdict found" in (v.reason or "")


def test_refusal_is_recorded_as_refused() -> None:
    assert parse_verdict("I'm sorry, I can't help with evaluating this.", TURNS).status == "refused"
    assert parse_verdict('{"score": 0.5}', TURNS, refused=True).status == "refused"


def test_non_numeric_score_is_unparseable() -> None:
    v = parse_verdict('{"score": "high"}', TURNS)
    assert v.status == "unparseable" and v.score is None


def test_loose_score_line_is_accepted() -> None:
    v = parse_verdict("Reasoning... Score: 0.4", TURNS)
    assert (v.status, v.score) == ("ok", 0.4)


def test_a_verdict_cut_at_the_cap_keeps_its_score_turns_and_rationale_so_far() -> None:
    v = parse_verdict('{"score": 0.7, "turns": [1,3], "rationale": "It offered a fair', TURNS)
    assert (v.status, v.score, v.cited_turns) == ("ok", 0.7, [1, 3])
    assert v.rationale == "It offered a fair" + CUT_MARK


def test_a_verdict_cut_inside_its_turns_drops_the_turn_it_may_have_cut() -> None:
    v = parse_verdict('{"score": 0.4, "turns": [2,1', TURNS)
    assert (v.score, v.cited_turns, v.rationale) == (0.4, [2], CUT_MARK.strip())
    closed = parse_verdict('{"score": 0.4, "turns": [2,1], "rat', TURNS)
    assert (closed.score, closed.cited_turns) == (0.4, [1, 2])


def test_a_cut_rationale_reads_its_escapes() -> None:
    v = parse_verdict('{"score": 0.9, "turns": [], "rationale": "said \\"final\\" tw', TURNS)
    assert (v.score, v.rationale) == (0.9, 'said "final" tw' + CUT_MARK)


def test_a_cut_verdict_is_read_only_once_its_score_is_complete() -> None:
    assert cut_verdict('{"score": 0.7') is None  # 0.7 or 0.75: the comma says it ended
    assert cut_verdict('{"score": 0.7, "turns": [1], "rationale": "done"}') is None
    assert cut_verdict('{"rationale": "a reason first, then') is None
    out = parse_verdict('{"score": 1.5, "turns": [', TURNS)
    assert (out.status, out.score) == ("out_of_range", None)
