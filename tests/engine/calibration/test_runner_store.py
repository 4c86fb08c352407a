"""The resumable pass store refuses passes made under another prompt version or decode."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from judge import JUDGE_PROMPT_VERSION
from judge.core.domain.judging import JudgePass
from judge.engine.calibration.manifest import CalibrationSetError
from judge.engine.calibration.runner import PassStore, load_store, read_judging
from judge.engine.judging.providers.embedded import EMBEDDED_MODEL, decode_identity


def a_pass(index: int) -> JudgePass:
    return JudgePass(
        trait="negotiation", index=index, score=0.3, model=EMBEDDED_MODEL, parse_status="ok"
    )


def stored(tmp_path: Path) -> Path:
    store = PassStore(tmp_path / "passes.jsonl", EMBEDDED_MODEL)
    store.append("casino-1", "a", a_pass(0))
    return store.path


def rewrite(path: Path, **fields: object) -> None:
    record = json.loads(path.read_text())
    record.update(fields)
    path.write_text(json.dumps(record) + "\n")


def test_each_stored_pass_names_its_prompt_version_and_decode(tmp_path: Path) -> None:
    path = stored(tmp_path)
    record = json.loads(path.read_text())
    assert record["judge_model"] == EMBEDDED_MODEL
    assert record["prompt_version"] == JUDGE_PROMPT_VERSION
    assert record["decoders"] == {EMBEDDED_MODEL: decode_identity()}
    done = load_store(path, EMBEDDED_MODEL)
    assert done["casino-1"][("a", "negotiation", 0)].score == 0.3


def test_a_pass_from_another_prompt_version_is_refused(tmp_path: Path) -> None:
    path = stored(tmp_path)
    rewrite(path, prompt_version=JUDGE_PROMPT_VERSION - 1)
    with pytest.raises(
        CalibrationSetError, match=f"prompt version {JUDGE_PROMPT_VERSION - 1}, not"
    ):
        load_store(path, EMBEDDED_MODEL)


def test_a_pass_from_another_grammar_is_refused_and_an_unmarked_old_line_is_kept(
    tmp_path: Path,
) -> None:
    path = stored(tmp_path)
    rewrite(path, decoders={EMBEDDED_MODEL: "decode v0, grammar 000000000000"})
    with pytest.raises(CalibrationSetError, match="grammar 000000000000"):
        load_store(path, EMBEDDED_MODEL)
    record = json.loads(path.read_text())
    del record["decoders"], record["prompt_version"]
    path.write_text(json.dumps(record) + "\n")
    assert list(load_store(path, EMBEDDED_MODEL)) == ["casino-1"]


def test_a_defence_off_pass_is_named_by_the_undefended_grammar_alone(tmp_path: Path) -> None:
    # the defended grammar changed with prompt 7 and the undefended one did not: a defence-off
    # store stays valid, a defence-on pass under an old identity does not
    from judge.core.versions import UNDEFENDED_PROMPT_VERSION
    from judge.engine.judging.providers.embedded import (
        UNDEFENDED_VERDICT_GRAMMAR,
        undefended_decode_identity,
    )

    digest = hashlib.sha256(UNDEFENDED_VERDICT_GRAMMAR.encode()).hexdigest()[:12]
    assert undefended_decode_identity() == f"decode v1, grammar {digest}"
    off = PassStore(tmp_path / "off.jsonl", EMBEDDED_MODEL, UNDEFENDED_PROMPT_VERSION)
    off.append("casino-1", "a", a_pass(0))
    assert json.loads(off.path.read_text())["decoders"] == {
        EMBEDDED_MODEL: undefended_decode_identity()
    }
    assert list(load_store(off.path, EMBEDDED_MODEL, UNDEFENDED_PROMPT_VERSION)) == ["casino-1"]
    on = stored(tmp_path)
    rewrite(on, decoders={EMBEDDED_MODEL: undefended_decode_identity()})
    with pytest.raises(CalibrationSetError, match=f"grammar {digest}"):
        load_store(on, EMBEDDED_MODEL)


def test_a_reply_holding_a_unicode_line_separator_is_read_back_whole(tmp_path: Path) -> None:
    store = PassStore(tmp_path / "passes.jsonl", EMBEDDED_MODEL)
    odd = a_pass(0).model_copy(update={"rationale": "fair\u2028price\x85here"})
    store.append("casino-1", "a", odd)
    store.append("casino-1", "a", a_pass(1))
    done = load_store(store.path, EMBEDDED_MODEL)
    assert done["casino-1"][("a", "negotiation", 0)].rationale == "fair\u2028price\x85here"
    assert len(done["casino-1"]) == 2


def test_a_whole_store_is_read_back_offline_as_the_judging_its_stamped_lines_name(
    tmp_path: Path,
) -> None:
    from judge.core.versions import UNDEFENDED_PROMPT_VERSION

    store = PassStore(tmp_path / "passes.jsonl", EMBEDDED_MODEL, UNDEFENDED_PROMPT_VERSION)
    store.append("casino-1", "a", a_pass(1))
    store.append("casino-1", "a", a_pass(0))
    store.append("casino-1", "a", a_pass(1).model_copy(update={"score": 0.9}))  # judged again
    lines = store.path.read_text().splitlines()
    unstamped = json.loads(lines[0])
    del unstamped["decoders"], unstamped["prompt_version"]
    store.path.write_text("\n".join([json.dumps(unstamped), *lines[1:]]) + "\n")

    found = read_judging(store.path)

    assert found.stamp.judge_model == EMBEDDED_MODEL
    assert found.stamp.prompt_version == UNDEFENDED_PROMPT_VERSION
    made = found.passes[("casino-1", "a", "negotiation")]
    assert [(p.index, p.score) for p in made] == [(0, 0.3), (1, 0.9)]


def test_a_store_mixing_judgings_or_holding_no_pass_is_refused_whole(tmp_path: Path) -> None:
    path = stored(tmp_path)
    other = json.loads(path.read_text()) | {"judge_model": "openai/gpt-4o-mini"}
    with path.open("a") as out:
        out.write(json.dumps(other) + "\n")
    with pytest.raises(CalibrationSetError, match="holds passes by 'openai/gpt-4o-mini'"):
        read_judging(path)
    (tmp_path / "empty.jsonl").write_text("\n")
    with pytest.raises(CalibrationSetError, match="no pass in it"):
        read_judging(tmp_path / "empty.jsonl")
