"""Tests mirror the package (docs/architecture.md, "Tests"): the tests of
``judge/<path>/<module>.py`` live in ``tests/<path>/test_<module>.py`` (or
``test_<module>_<aspect>.py`` beside it); a module of a sub-package may also be tested from its
part's folder (``tests/server/api/test_runs.py`` for ``judge/server/api/routers/runs.py``).

Where that does not hold the tables below say so, one line each: a module whose tests are in
another file (and which one), and a test file that tests no single module (and what it tests).
A new module without its mirrored test file, or a new test file that names no module, fails
here until it is mirrored or listed; a listed entry that has become mirrored fails too, so the
tables only shrink.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "judge"
TESTS = REPO / "tests"


@cache
def modules() -> tuple[str, ...]:
    """Every module of the package that holds code of its own (not migrations or packages)."""
    return tuple(
        str(p.relative_to(REPO))
        for p in sorted(PACKAGE.rglob("*.py"))
        if p.name != "__init__.py" and "migrations" not in p.parts
    )


@cache
def all_test_files() -> tuple[str, ...]:
    return tuple(str(p.relative_to(REPO)) for p in sorted(TESTS.rglob("test_*.py")))


def module_name(module: str) -> str:
    return module.removesuffix(".py").replace("/", ".")


@cache
def mirrored_modules(test_file: str) -> tuple[str, ...]:
    """The modules ``test_file`` mirrors (the longest name wins: test_run_summary is
    run_summary's, not run's)."""
    path = Path(test_file)
    folder, name = path.parent.relative_to("tests"), path.stem.removeprefix("test_")
    found = []
    for module in modules():
        here = Path(module).relative_to("judge")
        in_folder = here.parent == folder or (
            len(folder.parts) == 2 and here.parts[:2] == folder.parts
        )
        if in_folder and (name == here.stem or name.startswith(here.stem + "_")):
            found.append(module)
    longest = max((len(Path(m).stem) for m in found), default=0)
    return tuple(m for m in found if len(Path(m).stem) == longest)


@cache
def _mirrored() -> set[str]:
    return {m for t in all_test_files() for m in mirrored_modules(t)}


#: Modules without their mirrored test file, and the test file that exercises each (or, with
#: none importing it, the module whose tests reach it).
UNMIRRORED: dict[str, str] = {
    "judge/__main__.py": "python -m judge (tests/tools/cli/test_score_process.py)",
    "judge/server/api/app.py": "tests/server/test_web.py",
    "judge/server/api/responses.py": "through judge.server.api.app",
    "judge/server/api/routers/compare.py": "its routes, through the app (tests/server/api/)",
    "judge/server/api/routers/config.py": "its routes, through the app (tests/server/api/)",
    "judge/server/api/routers/eras.py": "its routes, through the app (tests/server/api/)",
    "judge/server/api/routers/health.py": "its routes, through the app (tests/server/api/)",
    "judge/server/api/routers/metrics.py": "its routes, through the app (tests/server/api/)",
    "judge/server/api/routers/telemetry.py": "its routes, through the app (tests/server/api/)",
    "judge/server/api/routers/ingest_keys.py": "its routes, through the app (tests/server/api/test_traces.py)",
    "judge/server/api/routers/rules.py": "its routes, through the app (tests/server/api/test_traces.py)",
    "judge/server/store/ingest_tables.py": "tests/server/store/test_tables.py",
    "judge/tools/audit/plan.py": "tests/tools/audit/test_report.py",
    "judge/tools/audit/render.py": "tests/tools/audit/test_report.py",
    "judge/server/auth.py": "tests/server/api/test_auth.py",
    "judge/engine/calibration/disagreements.py": "tests/engine/calibration/test_calibrate.py",
    "judge/engine/calibration/items.py": "tests/engine/calibration/test_calibrate.py",
    "judge/engine/calibration/owner_plots.py": "through judge.server.console.labelling",
    "judge/engine/calibration/render.py": "tests/engine/calibration/test_plots.py",
    "judge/engine/calibration/report_model.py": "tests/engine/calibration/test_plots.py",
    "judge/engine/calibration/trust.py": "tests/server/console/test_pages.py",
    "judge/engine/checks/errors.py": "tests/engine/checks/test_evaluate.py",
    "judge/engine/checks/report.py": "through judge.tools.cli.check",
    "judge/engine/checks/rows.py": "through judge.engine.checks.postgres_state",
    "judge/engine/checks/runfiles.py": "tests/engine/checks/test_shop_refund.py",
    "judge/engine/checks/state.py": "tests/engine/checks/test_postgres_state.py",
    "judge/engine/checks/worlds.py": "tests/server/api/test_state_checks.py",
    "judge/tools/cli/calibration.py": "through judge.tools.cli.audit",
    "judge/tools/cli/db.py": "its command, through judge.tools.cli.main (tests/tools/cli/)",
    "judge/tools/cli/imports.py": "its command, through judge.tools.cli.main (tests/tools/cli/)",
    "judge/tools/cli/pairwise.py": "tests/engine/test_pipeline_pairwise.py",
    "judge/tools/cli/schema.py": "its command, through judge.tools.cli.main (tests/tools/cli/)",
    "judge/server/console/boards.py": "its pages, through the app (tests/server/console/)",
    "judge/server/console/listing.py": "through judge.server.console.boards",
    "judge/server/console/render.py": "tests/server/console/test_pages.py",
    "judge/server/console/reports.py": "tests/server/console/test_pages.py",
    "judge/server/console/session.py": "tests/server/api/test_guard_floods.py",
    "judge/server/console/views.py": "through judge.server.console.pages",
    "judge/core/domain/checks.py": "tests/engine/checks/test_shop_refund.py",
    "judge/core/domain/comparison.py": "through judge.server.api.models",
    "judge/core/domain/config.py": "tests/engine/calibration/test_report.py",
    "judge/core/domain/pairwise.py": "tests/core/scoring/test_pairwise.py",
    "judge/core/domain/passes.py": "tests/engine/judging/test_adaptive.py",
    "judge/core/domain/review.py": "tests/core/scoring/test_run_summary.py",
    "judge/core/domain/scenario.py": "tests/engine/checks/test_evaluate.py",
    "judge/core/domain/scorecard.py": "tests/server/api/test_leaderboards.py",
    "judge/core/domain/status.py": "tests/server/api/test_add_a_route.py",
    "judge/core/domain/integrity.py": "tests/server/console/test_tamper_pages.py",
    "judge/tools/importers/dices.py": "through judge.tools.importers.registry",
    "judge/tools/importers/entries.py": "tests/tools/importers/test_registry.py",
    "judge/tools/importers/labels.py": "through judge.tools.importers.registry",
    "judge/tools/importers/otel.py": "through judge.tools.importers.registry",
    "judge/tools/importers/common.py": "tests/tools/importers/test_registry.py",
    "judge/tools/importers/inspect_log.py": "tests/tools/importers/test_inspect_import.py",
    "judge/engine/traces/messages.py": "through judge.engine.traces.mapping",
    "judge/engine/traces/otlp.py": "through judge.engine.traces.mapping",
    "judge/engine/traces/records.py": "tests/tools/importers/test_inspect_import.py",
    "judge/engine/traces/mapping.py": "tests/tools/importers/test_otel_traces.py",
    "judge/engine/judging/providers/litellm.py": "tests/engine/judging/test_backends.py",
    "judge/engine/judging/providers/scripted.py": "through judge.engine.judging.registry",
    "judge/engine/judging/spec.py": "through judge.engine.judging.panel",
    "judge/core/scoring/composite.py": "tests/core/scoring/test_passes_composite_gates.py",
    "judge/core/scoring/era.py": "tests/engine/judging/test_runner_signal.py",
    "judge/core/scoring/figures.py": "tests/server/api/test_figures.py",
    "judge/core/scoring/gates.py": "tests/core/scoring/test_passes_composite_gates.py",
    "judge/core/integrity/budget.py": "tests/engine/test_pipeline_scan_budget.py",
    "judge/core/integrity/fold.py": "through judge.core.integrity.matching",
    "judge/core/integrity/languages.py": "through judge.core.integrity.lexicon",
    "judge/core/integrity/lexicon.py": "through judge.core.integrity.matching",
    "judge/core/integrity/patterns.py": "through judge.core.integrity.english",
    "judge/core/integrity/tricks.py": "tests/core/integrity/test_scan.py",
    "judge/core/integrity/withhold.py": "tests/core/integrity/test_api.py",
    "judge/core/scoring/thresholds.py": "through judge.tools.cli.score",
    "judge/server/service/card_views.py": "tests/server/api/test_stored_views.py",
    "judge/server/service/coaching.py": "through judge.server.api.routers.coaching",
    "judge/server/service/config_views.py": "through judge.server.api.routers.config",
    "judge/server/service/align.py": "through judge.server.api.routers.align",
    "judge/server/service/fairness.py": "tests/server/service/test_fair_scheduling.py",
    "judge/server/service/flights.py": "through judge.server.api.routers.coaching",
    "judge/server/service/intake.py": "tests/tools/cli/test_export_cli.py",
    "judge/server/service/jobqueue/metrics.py": "through judge.server.api.routers.telemetry",
    "judge/server/service/jobqueue/status.py": "through judge.server.api.routers.queue",
    "judge/server/service/jobqueue/worker.py": "through judge.tools.cli.worker",
    "judge/server/service/keys.py": "tests/server/api/test_concurrency.py",
    "judge/server/service/label_agreement.py": "tests/engine/calibration/test_owners_example.py",
    "judge/server/service/label_queue.py": "through judge.server.api.routers.labels",
    "judge/server/service/labels.py": "through judge.server.api.routers.labels",
    "judge/server/service/matched.py": "through judge.server.api.routers.compare",
    "judge/server/service/pairwise.py": "through judge.server.api.routers.compare",
    "judge/server/service/platform.py": "tests/server/service/test_replica_limits.py",
    "judge/server/service/ratelimit.py": "tests/server/api/test_rate_limits.py",
    "judge/server/service/reviews.py": "through judge.server.api.routers.reviews",
    "judge/server/service/rubrics.py": "through judge.server.api.routers.rubrics",
    "judge/server/service/run_listing.py": "through judge.server.api.routers.runs",
    "judge/server/service/stability.py": "through judge.server.api.routers.stability",
    "judge/server/service/summaries.py": "through judge.server.console.listing",
    "judge/server/service/trajectories.py": "through judge.server.api.routers.export",
    "judge/server/service/views.py": "through judge.server.api.routers.metrics",
    "judge/server/service/worlds.py": "through judge.server.service.intake",
    "judge/server/store/bulk.py": "tests/tools/cli/test_export_cli.py",
    "judge/server/store/coaching.py": "through judge.server.service.coaching",
    "judge/server/store/alignments.py": "through judge.server.service.align",
    "judge/server/store/config.py": "tests/server/test_request_scope.py",
    "judge/server/store/eras.py": "through judge.server.service.coaching",
    "judge/server/store/keys.py": "tests/server/api/test_auth.py",
    "judge/server/store/labels.py": "tests/server/store/test_tables.py",
    "judge/server/store/pairwise.py": "through judge.server.service.pairwise",
    "judge/server/store/queries_compare.py": "through judge.server.service.matched",
    "judge/server/store/queries_results.py": "through judge.server.service.leaderboards",
    "judge/server/store/rate_events.py": "tests/server/service/test_shared_windows.py",
    "judge/server/store/review_tables.py": "tests/server/api/test_reviews.py",
    "judge/server/store/reviews.py": "tests/server/store/test_tamper_store.py",
    "judge/server/store/runs.py": "tests/server/api/test_add_a_route.py",
    "judge/server/store/schema.py": "through judge.server.api.app",
    "judge/server/store/scorecards.py": "tests/server/api/test_figures.py",
    "judge/server/store/spend.py": "through judge.server.service.budgets",
    "judge/server/store/submissions.py": "through judge.server.service.submissions",
    "judge/server/store/views.py": "tests/server/api/test_stored_views.py",
}
#: Test files that test no single module: what each exercises.
NAMING_NO_MODULE: dict[str, str] = {
    "tests/server/api/test_scan_off_loop.py": "end to end through the app or the CLI",
    "tests/server/api/test_adaptive_passes.py": "end to end over adaptive passes on the service",
    "tests/server/api/test_add_a_route.py": "end to end over judge.server.api.deps, judge.server.api.errors",
    "tests/server/api/test_agent_views.py": "end to end over judge.server.api.caller, judge.server.store.db",
    "tests/server/api/test_auth.py": "end to end over judge.server.auth, judge.server.store.db",
    "tests/server/api/test_concurrency.py": "end to end over judge.server.api.routers.runs, judge.server.service.keys",
    "tests/server/api/test_conformance.py": "end to end over judge.server.web",
    "tests/server/api/test_cost_views.py": "end to end over judge.server.web",
    "tests/server/api/test_figures.py": "end to end over judge.core.domain.rows, judge.core.scoring.figures",
    "tests/server/api/test_guard_floods.py": "end to end over judge.server.api.limits, judge.server.console.session",
    "tests/server/api/test_label_drift.py": "end to end over judge.engine.calibration.manifest, judge.server.store.db",
    "tests/server/api/test_pairwise.py": "end to end over judge.engine.judging.pairwise, judge.server.web",
    "tests/server/api/test_pairwise_budget.py": "end to end over judge.engine.judging.pairwise, judge.server.web",
    "tests/server/api/test_races.py": "end to end over judge.server.store.db, judge.server.store.rubrics",
    "tests/server/api/test_rate_limits.py": "end to end over judge.server.service.ratelimit, judge.server.web",
    "tests/server/api/test_review_queue.py": "end to end over judge.core.domain.scorecard",
    "tests/server/api/test_state_checks.py": "end to end over judge.engine.checks.scenario, judge.engine.checks.worlds",
    "tests/server/api/test_seat_holds.py": "end to end over judge.server.service.reviews, judge.server.store.summaries",
    "tests/server/api/test_standing.py": "end to end over judge.core.scoring.finalize, judge.server.service.submissions",
    "tests/server/api/test_stored_views.py": "end to end over judge.server.service.card_views, judge.server.store.views",
    "tests/server/api/test_tamper_review.py": "end to end over judge.core.scoring.run_summary, judge.server.store.db",
    "tests/engine/calibration/test_calibrate.py": "end to end over judge.engine.calibration.disagreements, judge.engine.calibration.items",
    "tests/engine/calibration/test_real_data_agreement.py": "end to end over judge.engine.calibration.items, judge.engine.calibration.report",
    "tests/engine/checks/test_shop_refund.py": "end to end over judge.engine.checks.runfiles, judge.engine.checks.worlds",
    "tests/tools/cli/test_gates_cli.py": "end to end through the app or the CLI",
    "tests/tools/cli/test_labels_cli.py": "end to end through the app or the CLI",
    "tests/tools/cli/test_scale_cli.py": "end to end over judge.engine.settings",
    "tests/server/console/test_adaptive_page.py": "end to end over the run page's adaptive passes",
    "tests/server/console/test_browser.py": "end to end over judge.server.auth, judge.engine.checks.scenario",
    "tests/server/console/test_browser_layout.py": "end to end over judge.server.console.listing, judge.core.domain.cursor",
    "tests/server/console/test_browser_labels.py": "end to end over judge.engine.calibration.manifest, judge.server.store.db",
    "tests/server/console/test_cost_pages.py": "end to end over judge.core.domain.cost, judge.core.domain.scorecard",
    "tests/server/console/test_fuzz.py": "end to end over judge.server.web",
    "tests/server/console/test_label_pages.py": "end to end over judge.engine.calibration.manifest",
    "tests/server/console/test_pairwise_page.py": "end to end through the app or the CLI",
    "tests/server/console/test_signal_pages.py": "end to end over judge.core.domain.scorecard, judge.server.service.intake",
    "tests/server/console/test_tamper_pages.py": "end to end over judge.core.domain.integrity, judge.core.scoring.run_summary",
    "tests/tools/importers/test_import_bounds.py": "end to end over judge.engine.calibration.items, judge.engine.calibration.manifest",
    "tests/engine/judging/test_llama_server.py": "end to end over judge.engine.packs, judge.engine.judging.prompt",
    "tests/engine/judging/test_llama_cpp_server.py": "interop with llama.cpp's llama-server, end to end over the runner",
    "tests/engine/judging/test_llama_server_logprobs.py": "end to end over judge.engine.packs, judge.engine.judging.prompt",
    "tests/engine/judging/test_openai_signal_loopback.py": "end to end over judge.engine.packs, judge.engine.judging.providers.litellm",
    "tests/engine/judging/test_spotlight.py": "end to end over judge.engine.packs, judge.core.domain.run",
    "tests/core/integrity/test_api.py": "end to end over judge.core.domain.run, judge.core.domain.integrity",
    "tests/core/integrity/test_corpus.py": "end to end over judge.core.integrity.withhold",
    "tests/core/integrity/test_families.py": "end to end over judge.core.integrity.fold, judge.core.integrity.tricks",
    "tests/core/integrity/test_fuzz.py": "end to end over judge.core.domain.run, judge.core.domain.integrity",
    "tests/core/scoring/test_tamper_hold.py": "end to end over judge.core.domain.integrity, judge.core.scoring.run_summary",
    "tests/server/service/test_fair_scheduling.py": "end to end over judge.core.domain.run, judge.server.service.fairness",
    "tests/server/service/test_panel_service.py": "end to end over judge.engine.judging.panel, judge.engine.settings",
    "tests/server/service/test_replica_limits.py": "end to end over judge.server.service.keys, judge.server.service.platform",
    "tests/server/service/test_restart.py": "end to end over judge.server.auth, judge.server.service.scoring",
    "tests/server/service/test_scale_out.py": "end to end over judge.server.service.platform, judge.engine.settings",
    "tests/server/service/test_scale_out_faults.py": "end to end through the app or the CLI",
    "tests/server/service/test_shared_windows.py": "end to end over judge.server.api.limits, judge.server.service.ratelimit",
    "tests/server/service/test_store_faults.py": "end to end over judge.server.service.jobs, judge.server.store.db",
    "tests/server/service/test_trust.py": "end to end over judge.engine.checks.scenario, judge.engine.checks.worlds",
    "tests/server/store/test_pg_timeouts.py": "end to end over judge.server.api.errors, judge.server.store.db",
    "tests/server/store/test_read_pool.py": "end to end over judge.server.request_scope, judge.server.store.db",
    "tests/server/store/test_seat_holds_migration.py": "end to end over judge.server.store.migrate, judge.server.store.summaries",
    "tests/server/store/test_tamper_store.py": "end to end over judge.server.store.db, judge.server.store.migrate",
    "tests/test_layers.py": "end to end through the app or the CLI",
    "tests/test_mirror.py": "end to end through the app or the CLI",
    "tests/test_readme.py": "end to end through the app or the CLI",
    "tests/test_integrity_redteam.py": "bench/integrity_redteam.py: its corpus and smoke run",
}


def test_every_module_has_its_mirrored_test_file_or_is_listed() -> None:
    missing = sorted(set(modules()) - _mirrored() - set(UNMIRRORED))
    assert missing == [], f"add tests/<path>/test_<module>.py, or list in UNMIRRORED: {missing}"


def test_a_listed_module_exists_and_is_not_mirrored_yet() -> None:
    gone = sorted(set(UNMIRRORED) - set(modules()))
    mirrored_now = sorted(set(UNMIRRORED) & _mirrored())
    assert (gone, mirrored_now) == ([], []), "take these off UNMIRRORED"


def test_every_test_file_names_a_module_or_is_listed() -> None:
    unnamed = sorted(t for t in all_test_files() if not mirrored_modules(t))
    missing = [t for t in unnamed if t not in NAMING_NO_MODULE]
    assert missing == [], f"name the file for its module, or list in NAMING_NO_MODULE: {missing}"


def test_a_listed_test_file_exists_and_names_no_module() -> None:
    stale = sorted(t for t in NAMING_NO_MODULE if t not in all_test_files() or mirrored_modules(t))
    assert stale == [], "take these off NAMING_NO_MODULE"


@pytest.mark.parametrize(
    "where", sorted({w for w in UNMIRRORED.values() if w.startswith("tests/")})
)
def test_a_listed_test_file_that_exercises_a_module_exists(where: str) -> None:
    assert (REPO / where).is_file()
