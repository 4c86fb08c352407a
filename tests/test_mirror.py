"""Tests mirror the package (docs/architecture.md, "Tests"): the tests of
``judge/<path>/<module>.py`` live in ``tests/<path>/test_<module>.py`` (or
``test_<module>_<aspect>.py`` beside it); a module of a sub-package may also be tested from its
part's folder (``tests/api/test_runs.py`` for ``judge/api/routers/runs.py``).

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
            len(folder.parts) == 1 and here.parts[:1] == folder.parts
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
    "judge/__main__.py": "python -m judge (tests/cli/test_score_process.py)",
    "judge/api/app.py": "tests/test_web.py",
    "judge/api/responses.py": "through judge.api.app",
    "judge/api/routers/compare.py": "its routes, through the app (tests/api/)",
    "judge/api/routers/config.py": "its routes, through the app (tests/api/)",
    "judge/api/routers/eras.py": "its routes, through the app (tests/api/)",
    "judge/api/routers/health.py": "its routes, through the app (tests/api/)",
    "judge/api/routers/metrics.py": "its routes, through the app (tests/api/)",
    "judge/api/routers/telemetry.py": "its routes, through the app (tests/api/)",
    "judge/audit/plan.py": "tests/audit/test_report.py",
    "judge/audit/render.py": "tests/audit/test_report.py",
    "judge/auth.py": "tests/api/test_auth.py",
    "judge/calibration/disagreements.py": "tests/calibration/test_calibrate.py",
    "judge/calibration/importers_casino.py": "an old home kept for one release (tests/test_deprecations.py)",
    "judge/calibration/items.py": "tests/calibration/test_calibrate.py",
    "judge/calibration/owner_plots.py": "through judge.console.labelling",
    "judge/calibration/queue.py": "an old home kept for one release (tests/test_deprecations.py)",
    "judge/calibration/render.py": "tests/calibration/test_plots.py",
    "judge/calibration/report_model.py": "tests/calibration/test_plots.py",
    "judge/calibration/trust.py": "tests/console/test_pages.py",
    "judge/checks/errors.py": "tests/checks/test_evaluate.py",
    "judge/checks/report.py": "through judge.cli.check",
    "judge/checks/rows.py": "through judge.checks.postgres_state",
    "judge/checks/runfiles.py": "tests/checks/test_shop_refund.py",
    "judge/checks/state.py": "tests/checks/test_postgres_state.py",
    "judge/checks/worlds.py": "tests/api/test_state_checks.py",
    "judge/cli/calibration.py": "through judge.cli.audit",
    "judge/cli/db.py": "its command, through judge.cli.main (tests/cli/)",
    "judge/cli/imports.py": "its command, through judge.cli.main (tests/cli/)",
    "judge/cli/pairwise.py": "tests/test_pipeline_pairwise.py",
    "judge/cli/schema.py": "its command, through judge.cli.main (tests/cli/)",
    "judge/cli/worker.py": "its command, through judge.cli.main (tests/cli/)",
    "judge/console/boards.py": "its pages, through the app (tests/console/)",
    "judge/console/labelling.py": "its pages, through the app (tests/console/)",
    "judge/console/labels.py": "through judge.console.render",
    "judge/console/listing.py": "through judge.console.boards",
    "judge/console/render.py": "tests/console/test_pages.py",
    "judge/console/reports.py": "tests/console/test_pages.py",
    "judge/console/session.py": "tests/api/test_guard_floods.py",
    "judge/console/views.py": "through judge.console.pages",
    "judge/domain/checks.py": "tests/checks/test_shop_refund.py",
    "judge/domain/comparison.py": "through judge.api.models",
    "judge/domain/config.py": "tests/calibration/test_report.py",
    "judge/domain/pairwise.py": "tests/scoring/test_pairwise.py",
    "judge/domain/passes.py": "tests/judging/test_adaptive.py",
    "judge/domain/review.py": "tests/scoring/test_run_summary.py",
    "judge/domain/rubric.py": "tests/service/test_jobs.py",
    "judge/domain/scenario.py": "tests/checks/test_evaluate.py",
    "judge/domain/scorecard.py": "tests/api/test_leaderboards.py",
    "judge/domain/status.py": "tests/api/test_add_a_route.py",
    "judge/domain/tamper.py": "tests/console/test_tamper_pages.py",
    "judge/importers/casino.py": "tests/calibration/test_importers.py",
    "judge/importers/dices.py": "through judge.importers.registry",
    "judge/importers/entries.py": "tests/importers/test_registry.py",
    "judge/importers/files.py": "tests/integrations/test_import_bounds.py",
    "judge/importers/inspect.py": "through judge.importers.registry",
    "judge/importers/labels.py": "through judge.importers.registry",
    "judge/importers/otel.py": "through judge.importers.registry",
    "judge/integrations/common.py": "tests/importers/test_registry.py",
    "judge/integrations/inspect_log.py": "tests/integrations/test_inspect_import.py",
    "judge/integrations/otel_messages.py": "through judge.integrations.otel",
    "judge/integrations/otlp.py": "through judge.integrations.otel",
    "judge/judging/moved.py": "through judge.judging.embedded",
    "judge/judging/pricing.py": "through judge.cli.score",
    "judge/judging/providers/_deprecated.py": "old functions kept for one release (tests/judging/)",
    "judge/judging/providers/litellm.py": "tests/judging/test_backends.py",
    "judge/judging/providers/litellm_loader.py": "through judge.judging.model_check",
    "judge/judging/providers/openai_compatible.py": "tests/judging/test_openai_http.py",
    "judge/judging/providers/scripted.py": "through judge.judging.registry",
    "judge/judging/scripted.py": "an old home kept for one release",
    "judge/judging/spec.py": "through judge.judging.panel",
    "judge/scoring/composite.py": "tests/scoring/test_passes_composite_gates.py",
    "judge/scoring/era.py": "tests/judging/test_runner_signal.py",
    "judge/scoring/export.py": "an old home kept for one release (tests/test_deprecations.py)",
    "judge/scoring/figures.py": "tests/api/test_figures.py",
    "judge/scoring/gates.py": "tests/scoring/test_passes_composite_gates.py",
    "judge/scoring/tamper/english.py": "through judge.scoring.tamper.lexicon",
    "judge/scoring/tamper/fold.py": "through judge.scoring.tamper.matching",
    "judge/scoring/tamper/languages.py": "through judge.scoring.tamper.lexicon",
    "judge/scoring/tamper/lexicon.py": "through judge.scoring.tamper.matching",
    "judge/scoring/tamper/matching.py": "tests/scoring/tamper/test_scan.py",
    "judge/scoring/tamper/patterns.py": "through judge.scoring.tamper.english",
    "judge/scoring/tamper/tricks.py": "tests/scoring/tamper/test_scan.py",
    "judge/scoring/tamper/withhold.py": "tests/scoring/tamper/test_api.py",
    "judge/scoring/thresholds.py": "through judge.cli.score",
    "judge/service/card_views.py": "tests/api/test_stored_views.py",
    "judge/service/coaching.py": "through judge.api.routers.coaching",
    "judge/service/config_views.py": "through judge.api.routers.config",
    "judge/service/executors.py": "an old home kept for one release (tests/test_deprecations.py)",
    "judge/service/exports.py": "an old home kept for one release (tests/test_deprecations.py)",
    "judge/service/fairness.py": "tests/service/test_fair_scheduling.py",
    "judge/service/flights.py": "through judge.api.routers.coaching",
    "judge/service/intake.py": "tests/cli/test_export_cli.py",
    "judge/service/jobqueue/metrics.py": "through judge.api.routers.telemetry",
    "judge/service/jobqueue/status.py": "through judge.api.routers.queue",
    "judge/service/jobqueue/worker.py": "through judge.cli.worker",
    "judge/service/keys.py": "tests/api/test_concurrency.py",
    "judge/service/label_agreement.py": "tests/calibration/test_owners_example.py",
    "judge/service/label_metrics.py": "through judge.service.jobqueue.metrics",
    "judge/service/label_queue.py": "through judge.api.routers.labels",
    "judge/service/labels.py": "through judge.api.routers.labels",
    "judge/service/matched.py": "through judge.api.routers.compare",
    "judge/service/pairwise.py": "through judge.api.routers.compare",
    "judge/service/platform.py": "tests/service/test_replica_limits.py",
    "judge/service/queue.py": "an old home kept for one release (tests/test_deprecations.py)",
    "judge/service/queue_status.py": "an old home kept for one release (tests/test_deprecations.py)",
    "judge/service/ratelimit.py": "tests/api/test_rate_limits.py",
    "judge/service/reviews.py": "through judge.api.routers.reviews",
    "judge/service/rubrics.py": "through judge.api.routers.rubrics",
    "judge/service/run_listing.py": "through judge.api.routers.runs",
    "judge/service/schema.py": "an old home kept for one release (tests/test_deprecations.py)",
    "judge/service/scoring.py": "tests/service/test_fencing.py",
    "judge/service/stability.py": "through judge.api.routers.stability",
    "judge/service/submissions.py": "through judge.api.routers.submissions",
    "judge/service/summaries.py": "through judge.console.listing",
    "judge/service/tasks.py": "an old home kept for one release (tests/test_deprecations.py)",
    "judge/service/trajectories.py": "through judge.api.routers.export",
    "judge/service/views.py": "through judge.api.routers.metrics",
    "judge/service/worlds.py": "through judge.service.intake",
    "judge/store/bulk.py": "tests/cli/test_export_cli.py",
    "judge/store/coaching.py": "through judge.service.coaching",
    "judge/store/config.py": "tests/test_deps.py",
    "judge/store/eras.py": "through judge.service.coaching",
    "judge/store/keys.py": "tests/api/test_auth.py",
    "judge/store/labels.py": "tests/store/test_tables.py",
    "judge/store/migrate.py": "tests/cli/test_export_cli.py",
    "judge/store/pairwise.py": "through judge.service.pairwise",
    "judge/store/queries_compare.py": "through judge.service.matched",
    "judge/store/queries_results.py": "through judge.service.leaderboards",
    "judge/store/rate_events.py": "tests/service/test_shared_windows.py",
    "judge/store/review_tables.py": "tests/api/test_reviews.py",
    "judge/store/reviews.py": "tests/store/test_tamper_store.py",
    "judge/store/runs.py": "tests/api/test_add_a_route.py",
    "judge/store/schema.py": "through judge.api.app",
    "judge/store/scorecards.py": "tests/api/test_figures.py",
    "judge/store/spend.py": "through judge.service.budgets",
    "judge/store/submissions.py": "through judge.service.submissions",
    "judge/store/views.py": "tests/api/test_stored_views.py",
    "judge/tabular.py": "tests/api/test_figures.py",
}
#: Test files that test no single module: what each exercises.
NAMING_NO_MODULE: dict[str, str] = {
    "tests/api/test_adaptive_passes.py": "end to end over adaptive passes on the service",
    "tests/api/test_add_a_route.py": "end to end over judge.api.deps, judge.api.errors",
    "tests/api/test_agent_views.py": "end to end over judge.api.caller, judge.store.db",
    "tests/api/test_auth.py": "end to end over judge.auth, judge.store.db",
    "tests/api/test_concurrency.py": "end to end over judge.api.routers.runs, judge.service.keys",
    "tests/api/test_conformance.py": "end to end over judge.web",
    "tests/api/test_cost_views.py": "end to end over judge.web",
    "tests/api/test_figures.py": "end to end over judge.domain.rows, judge.scoring.figures",
    "tests/api/test_guard_floods.py": "end to end over judge.api.limits, judge.console.session",
    "tests/api/test_label_drift.py": "end to end over judge.calibration.manifest, judge.store.db",
    "tests/api/test_pairwise.py": "end to end over judge.judging.pairwise, judge.web",
    "tests/api/test_pairwise_budget.py": "end to end over judge.judging.pairwise, judge.web",
    "tests/api/test_races.py": "end to end over judge.store.db, judge.store.rubrics",
    "tests/api/test_rate_limits.py": "end to end over judge.service.ratelimit, judge.web",
    "tests/api/test_review_queue.py": "end to end over judge.domain.scorecard",
    "tests/api/test_state_checks.py": "end to end over judge.checks.scenario, judge.checks.worlds",
    "tests/api/test_stored_views.py": "end to end over judge.service.card_views, judge.store.views",
    "tests/api/test_tamper_review.py": "end to end over judge.scoring.run_summary, judge.store.db",
    "tests/calibration/test_calibrate.py": "end to end over judge.calibration.disagreements, judge.calibration.items",
    "tests/calibration/test_real_data_agreement.py": "end to end over judge.calibration.items, judge.calibration.report",
    "tests/checks/test_shop_refund.py": "end to end over judge.checks.runfiles, judge.checks.worlds",
    "tests/cli/test_gates_cli.py": "end to end through the app or the CLI",
    "tests/cli/test_labels_cli.py": "end to end through the app or the CLI",
    "tests/cli/test_scale_cli.py": "end to end over judge.settings",
    "tests/console/test_adaptive_page.py": "end to end over the run page's adaptive passes",
    "tests/console/test_browser.py": "end to end over judge.auth, judge.checks.scenario",
    "tests/console/test_browser_labels.py": "end to end over judge.calibration.manifest, judge.store.db",
    "tests/console/test_cost_pages.py": "end to end over judge.domain.cost, judge.domain.scorecard",
    "tests/console/test_fuzz.py": "end to end over judge.web",
    "tests/console/test_label_pages.py": "end to end over judge.calibration.manifest",
    "tests/console/test_pairwise_page.py": "end to end through the app or the CLI",
    "tests/console/test_signal_pages.py": "end to end over judge.domain.scorecard, judge.service.intake",
    "tests/console/test_tamper_pages.py": "end to end over judge.domain.tamper, judge.scoring.run_summary",
    "tests/integrations/test_import_bounds.py": "end to end over judge.calibration.items, judge.calibration.manifest",
    "tests/judging/test_llama_server.py": "end to end over judge.catalog, judge.judging.prompt",
    "tests/judging/test_llama_server_logprobs.py": "end to end over judge.catalog, judge.judging.prompt",
    "tests/judging/test_openai_signal_loopback.py": "end to end over judge.catalog, judge.judging.providers.litellm",
    "tests/judging/test_spotlight.py": "end to end over judge.catalog, judge.domain.run",
    "tests/scoring/tamper/test_api.py": "end to end over judge.domain.run, judge.domain.tamper",
    "tests/scoring/tamper/test_corpus.py": "end to end over judge.scoring.tamper.withhold",
    "tests/scoring/tamper/test_fuzz.py": "end to end over judge.domain.run, judge.domain.tamper",
    "tests/scoring/test_tamper_hold.py": "end to end over judge.domain.tamper, judge.scoring.run_summary",
    "tests/service/test_fair_scheduling.py": "end to end over judge.domain.run, judge.service.fairness",
    "tests/service/test_panel_service.py": "end to end over judge.judging.panel, judge.settings",
    "tests/service/test_replica_limits.py": "end to end over judge.service.keys, judge.service.platform",
    "tests/service/test_restart.py": "end to end over judge.auth, judge.service.scoring",
    "tests/service/test_scale_out.py": "end to end over judge.service.platform, judge.settings",
    "tests/service/test_scale_out_faults.py": "end to end through the app or the CLI",
    "tests/service/test_shared_windows.py": "end to end over judge.api.limits, judge.service.ratelimit",
    "tests/service/test_store_faults.py": "end to end over judge.service.jobs, judge.store.db",
    "tests/service/test_trust.py": "end to end over judge.checks.scenario, judge.checks.worlds",
    "tests/store/test_pg_timeouts.py": "end to end over judge.api.errors, judge.store.db",
    "tests/store/test_read_pool.py": "end to end over judge.deps, judge.store.db",
    "tests/store/test_tamper_store.py": "end to end over judge.store.db, judge.store.migrate",
    "tests/test_layers.py": "end to end through the app or the CLI",
    "tests/test_mirror.py": "end to end through the app or the CLI",
    "tests/test_readme.py": "end to end through the app or the CLI",
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
