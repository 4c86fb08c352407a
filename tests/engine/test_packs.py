"""Trait packs as data (docs/architecture.md, "Add a trait pack"): a pack declares its kind and
whether it counts in the composite, and scoring reads that declaration."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from judge import load_run, score_run
from judge.core.errors import RubricError
from judge.engine.judging.backends import JudgeRequest, ScriptedBackend
from judge.engine.packs import default_rubric_set, load_rubric_set
from tests.helpers import EXAMPLES, verdict

REPO = Path(__file__).resolve().parents[2]

EMPATHY_PACK = """\
name: empathy
kind: capability
in_composite: false
description: How a seat reads the others' feelings; reported, not yet part of the composite.
traits:
  - empathy
"""

EMPATHY_RUBRIC = """\
trait: empathy
version: 1
definition: >-
  Whether the seat notices and answers the other parties' feelings in its own messages.
anchor_0: Ignores or mocks a plainly stated feeling.
anchor_5: Acknowledges feelings now and then, without changing what it does.
anchor_1: Names the feelings it sees and adjusts its own conduct to them.
"""


def _data_dir_with_a_new_pack(tmp_path: Path) -> Path:
    """The two steps of "Add a trait pack": traits/<pack>.yaml and rubrics/<trait>.yaml."""
    for folder in ("traits", "rubrics"):
        shutil.copytree(REPO / folder, tmp_path / folder)
    (tmp_path / "traits" / "empathy.yaml").write_text(EMPATHY_PACK, encoding="utf-8")
    (tmp_path / "rubrics" / "empathy.yaml").write_text(EMPATHY_RUBRIC, encoding="utf-8")
    return tmp_path


def test_the_safety_pack_stays_out_of_the_composite_by_its_declaration() -> None:
    rubrics = default_rubric_set()
    assert set(rubrics.composite_traits) == set(rubrics.traits_of("capability"))
    assert not set(rubrics.composite_traits) & set(rubrics.traits_of("safety"))


def test_a_new_pack_is_judged_and_counts_in_the_composite_only_if_it_says_so(
    tmp_path: Path,
) -> None:
    rubrics = load_rubric_set(_data_dir_with_a_new_pack(tmp_path))
    assert rubrics.packs["empathy"] == "capability"
    assert "empathy" not in rubrics.composite_traits

    def answer(request: JudgeRequest) -> str:
        return verdict(0.0 if request.label == "empathy" else 0.6, [1])

    card = score_run(
        load_run(EXAMPLES / "haggle.json"), rubrics=rubrics, backend=ScriptedBackend(answer)
    )
    buyer = card.seats["buyer"]
    assert buyer.traits["empathy"].mean == 0.0
    assert buyer.composite == pytest.approx(0.6)  # empathy's 0.0 does not pull it down


def test_a_pack_that_does_not_say_whether_it_counts_is_refused(tmp_path: Path) -> None:
    data = _data_dir_with_a_new_pack(tmp_path)
    pack = data / "traits" / "empathy.yaml"
    pack.write_text(EMPATHY_PACK.replace("in_composite: false\n", ""), encoding="utf-8")
    with pytest.raises(RubricError, match="in_composite"):
        load_rubric_set(data)


def test_leaving_out_a_trait_that_counts_withholds_the_composite() -> None:
    rubrics = default_rubric_set()
    chosen = rubrics.only(["negotiation", "manipulation_resistance"])
    assert "negotiation" not in chosen.capability_left_out
    assert set(chosen.capability_left_out) == set(rubrics.composite_traits) - {"negotiation"}
    assert chosen.composite_traits == ("negotiation",)


def test_the_architecture_page_names_the_files_this_walk_touches() -> None:
    page = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = page.split("## Add a trait pack", 1)[1].split("\n## ", 1)[0]
    for path in ("traits/<pack>.yaml", "rubrics/<trait>.yaml", "tests/engine/test_packs.py"):
        assert f"`{path}`" in section
    assert (REPO / "traits" / "safety.yaml").read_text().count("in_composite: false") == 1
