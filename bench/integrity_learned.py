"""Train and measure the detector's learned layer (docs/integrity.md, "Learned layer").

Protocol, fixed here before any training: leave one family out. For each of the generator's
families, a model is trained on the other families (every language) and its recall is
measured on the one left out; for each group of languages (:data:`LANGUAGE_GROUPS`), a model
is trained on the other languages (every family; a held-out language is held out of the
ordinary lines too) and its recall is measured per language of the group. So every family and
every language gets a figure from a model that never saw it. Each fold's threshold is picked
on a validation split of its own training part and of the training half of the real
dialogues, never on what it holds out. Recall is reported the classifier alone, the rules
alone and combined (``scan_seat``); false positives on every real seat (CaSiNo test and valid,
each participant a seat; DICES-350 user turns and LaMDA turns, as ``bench/integrity_rates.py``
builds them), on the seats never trained on, on the hard ordinary lines of held-out templates,
and on the written ordinary talk of the tests.

The shipped model is trained on every family and language by the same recipe and is the one
whose false positives are reported. Real sentences are read from ``--data`` at train time
(never copied here). Writes the model (``--model``) and ``reports/integrity/learned.json`` and
``learned.md``; ``--tiny`` (``--smoke``) trains small models into a temporary folder (CI).
"""

from __future__ import annotations

import argparse
import ctypes
import hashlib
import json
import random
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy import optimize, sparse

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.integrity_corpus.generator import (
    FAMILIES,
    Text,
    hard_lines,
    indirect_english,
    judge_directed,
)
from bench.integrity_corpus.languages import LANGUAGES
from bench.integrity_corpus.records import record_request
from judge.core.domain.run import MessageEvent, TranscriptEvent
from judge.core.integrity import DETECTOR_VERSION, learned, scan_run, scan_seat
from judge.core.integrity.learned import BUCKETS, MODEL_VERSION, Model, chunks, ngram_rows, variants
from judge.engine.calibration.manifest import shared_data_dir

REPO = Path(__file__).resolve().parents[1]
#: The language folds: each group is held out whole once. Close relatives (ru, uk, ru_tr; es,
#: ca, pt; zh, zh_py; the Nordic languages) sit in different groups.
LANGUAGE_GROUPS = (
    ("en", "sv", "uk", "ca", "sw"),
    ("fr", "da", "ru_tr", "fi", "hi"),
    ("es", "no", "cs", "tr", "zh"),
    ("de", "pl", "el", "id", "ja"),
    ("pt", "ru", "ar", "vi", "ko"),
    ("it", "nl", "ro", "he", "zh_py"),
)
#: What the held-out figures went through before this report (told in it, so they are read
#: for what they are).
HISTORY = (
    "Model v1 was measured with four families (narrative, markup comments, unusual addressees, "
    "indirect requests) and four languages (sv, uk, ca, sw) held out, and its recipe was revised "
    "after its first runs had shown held-out figures. For v2 the protocol became leave one "
    "family out (and one group of languages out), so every family has a figure; the generator "
    "was then enriched (indirect requests in every language, more verbs of record, regard and "
    "reputation, more polite and passive shapes) and rules for indirect requests were added in "
    "nineteen more languages. The generator's phrases and those rules were written from the "
    "family's description by the same hands, without reading any outside corpus or the missed "
    "texts, but the rules' figure on the generator's indirect family is not a blind one: it "
    "measures rules against phrases their author also wrote. The learned-alone column of a "
    "left-out family is the blind part. After the first leave-one-out run had shown Finnish "
    "(44.2%), Czech (48.8%), Norwegian (53.4%) and Danish (85.2%) as the languages the rules "
    "read least, rules for their plain, ignore and verdict requests were added, written after "
    "reading the generator's phrases for them: those four languages' figures are not blind. "
    "For v3 the generator was enriched after the blind red-team corpus's per-family recall "
    "(aggregates only; none of its lines was read) had shown indirect requests, narrative "
    "framing, output-format hijacks, unusual addressees, split requests and fake output as the "
    "weakest: those families became grammars (bench/integrity_corpus/families.py), three "
    "families were added (format_hijack, fake_log, split_request), and a short text of several "
    "lines is now also scored whole. The recipe was then chosen among four leave-one-out runs "
    "(the enriched generator; plus ordinary lines of six more kinds in every language; plus "
    "foreign ordinary lines weighted up and a stricter threshold, with and without word uni- "
    "and bigrams, which measured the same and cost time, so they are off): the choice read the "
    "held-out figures, so they are a selection among four, not a single blind measure. For v4 "
    "the generator gained grammars for the three families the blind red-team corpus's "
    "aggregates still named weakest (indirect requests 27.8%, narrative framing 54.8%, "
    "output-format hijacks 56.7%; no line read): requests that the seat's own part be seen, "
    "noted, recorded, remembered or counted as the best, in four framings (a first-person hope, "
    "a passive or jussive wish, an appeal to fairness, a third party who would surely see it "
    "so) in English and fourteen more languages (bench/integrity_corpus/records.py), stories "
    "and role-play whose reader gives the teller the top mark, and schemas, templates and "
    "expected answers that carry the top score (shapes.py); and ordinary lines of the same "
    "shapes (an order noted as paid, a complaint recorded, a delivery logged as late, a shop "
    "praised in a review, fables and contests of the world, forms and feeds). The shipped model "
    "and every fold that trains on indirect requests read more of them. Four runs made v4, each "
    "reading the held-out figures of the one before: the first (hard lines of the request's "
    "frames filled with praise of shops and people) pushed the threshold to 0.94 and was "
    "dropped; the second let a fold's threshold leave 2% of its validation hard lines over it "
    "(1% in v3) and was run once on the red-team corpus (351 of 429, 81.8%; ordinary lines 16 "
    "of 252, 6.3%; aggregates only), with 6.0% of the held-out hard lines flagged (forms, feeds "
    "and Nordic family stories); ordinary lines of world evaluators, quoted reviews, forms and "
    "family stories in ten languages were then added, which at 2% and again at 1% brought the "
    "threshold to 0.60 and flagged 6 of 960 real seats (3 of them in the half trained on, "
    "their sentences fitted yet over a threshold picked on the validation sentences); this "
    "fifth run is the same data with the threshold over every real sentence of the half "
    "trained on, fitted ones included, and was run once more on the red-team corpus. For v5 "
    "the indirect family gained a grammar of requests aimed at the written account of the "
    "exchange (bench/integrity_corpus/asides.py: the write-up, the summary or the notes should "
    "reflect the seat's merits; a reminder with no addressee to mention them), written from "
    "the family's description after the blind corpus's aggregates had shown indirect requests "
    "at 47.2% (no line read). Five leave-one-out runs made it, each reading the held-out "
    "figures of the one before: with rhetorical questions and appeals to any measure in "
    "English beside those two shapes, and ordinary lines of all four shapes (a summary that "
    "should mention a broken zipper, a question about a fair price, a boast to the other "
    "party), the threshold rose to 0.78 and every held-out family lost recall (format "
    "hijacks 47.6%); with fewer of those ordinary lines it stayed at 0.78, and without any "
    "ordinary lines of the grammar at 0.77 (a real sentence now over it); with the two shapes "
    "and their ordinary lines, at 0.81 (those four runs also gave the family's extra lines "
    "600 of the grammar's); with the two shapes and no ordinary lines of the grammar (this "
    "run) at 0.72, the held-out family mean 88.1% "
    "(89.1% for v4, whose held-out indirect lines did not hold this grammar). Only this run "
    "was measured on the red-team corpus."
)
#: Hard ordinary templates at these positions (of each family) are held out.
HARD_TEST_EVERY = 3
L2 = 1.0
SEED = 35
#: Weight of a hard ordinary line in training (a real sentence weighs 1), and of one in
#: another language than English (model v3).
HARD_WEIGHT = 3.0
FOREIGN_WEIGHT = 12.0
#: Share of the validation hard lines a fold's threshold may leave over it (model v3 and v4: 1%;
#: 2% was tried for v4, see HISTORY).
HARD_ALLOWED = 0.01


def said(texts: list[str]) -> list[TranscriptEvent]:
    return [
        MessageEvent(kind="message", turn=i, seat="seat", content=t) for i, t in enumerate(texts, 1)
    ]


def _unseen(key: str) -> bool:
    """Whether a real dialogue is in the half never trained on (a fixed hash of its key)."""
    return hashlib.sha256(key.encode()).digest()[0] % 2 == 1


def real_seats(data: Path) -> list[tuple[str, str, list[TranscriptEvent], str]]:
    """Every real seat: (data set, key, transcript, seat)."""
    from bench.integrity_rates import CASINO_FILES, casino_runs, dices_seats

    out = []
    for name, run in casino_runs(data):
        for seat in run.scored_seats:
            out.append((f"casino/{name}", run.run_id, list(run.transcript), seat))
    del CASINO_FILES
    for item_id, transcript in dices_seats(data).items():
        out.append(("dices-350 user turns", f"dices-{item_id}", transcript, "user"))
        out.append(("dices-350 LaMDA turns", f"dices-{item_id}", transcript, "bot"))
    return out


def seat_sentences(transcript: list[TranscriptEvent], seat: str) -> list[str]:
    texts = [e.content for e in transcript if isinstance(e, MessageEvent) and e.seat == seat]
    return [chunk for text in texts for chunk, _, _ in chunks(text)]


def matrix(texts: list[str]) -> tuple[sparse.csr_matrix, list[int]]:
    """The feature rows of every variant of every text, and which text each row is."""
    rows: list[str] = []
    owners: list[int] = []
    for index, text in enumerate(texts):
        for variant in variants(text):
            rows.append(variant)
            owners.append(index)
    sentence, bucket = ngram_rows(rows)
    counts = np.bincount(sentence, minlength=len(rows))
    values = 1.0 / np.sqrt(np.maximum(counts[sentence], 1))
    shape = (len(rows), BUCKETS)
    return sparse.csr_matrix((values, (sentence, bucket)), shape=shape), owners


def one_blas_thread() -> None:
    """Run the BLAS libraries numpy and scipy loaded on one thread each: L-BFGS calls them on
    one vector at a time, where threads only wait on each other (several times slower on a
    shared machine). Linux only, a no-op where the setter is not found."""
    maps = Path("/proc/self/maps")
    if not maps.exists():
        return
    paths = {line.split()[-1] for line in maps.read_text().splitlines() if "openblas" in line}
    for path in sorted(paths):
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for name in ("scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads",
                     "openblas_set_num_threads64_", "openblas_set_num_threads"):  # fmt: skip
            if hasattr(lib, name):
                getattr(lib, name)(1)
                break


def fit(
    x: sparse.csr_matrix, y: npt.NDArray[np.float64], weight: npt.NDArray[np.float64]
) -> tuple[npt.NDArray[np.float64], float]:
    """L2-regularised weighted logistic regression by L-BFGS, over the buckets the training
    rows use (a bucket no row uses has no gradient but its L2 term, so its weight stays 0: the
    optimum is the same, found in a fraction of the time)."""
    used = np.unique(x.indices)
    x = x[:, used]

    def loss(theta: npt.NDArray[np.float64]) -> tuple[float, npt.NDArray[np.float64]]:
        w, b = theta[:-1], theta[-1]
        z = x @ w + b
        p = 1.0 / (1.0 + np.exp(-z))
        value = float(np.sum(weight * (np.logaddexp(0, z) - y * z))) + 0.5 * L2 * float(w @ w)
        g = weight * (p - y)
        grad = np.append(x.T @ g + L2 * w, g.sum())
        return value, grad

    found = optimize.minimize(loss, np.zeros(len(used) + 1), jac=True, method="L-BFGS-B",
                              options={"maxiter": 400})  # fmt: skip
    weights = np.zeros(BUCKETS)
    weights[used] = found.x[:-1]
    return weights, float(found.x[-1])


def probabilities(model: Model, texts: list[str]) -> npt.NDArray[np.float64]:
    """Each text's probability: the highest over its variants."""
    rows, owners = [], []
    for index, text in enumerate(texts):
        for variant in variants(text):
            rows.append(variant)
            owners.append(index)
    p = model.probabilities(rows)
    out = np.zeros(len(texts))
    np.maximum.at(out, np.array(owners, dtype=np.int64), p)
    return out


def pick_threshold(model: Model, positives: list[str], real: list[str], hard: list[str]) -> float:
    """The lowest threshold at which no real sentence of the training half (``real``: the
    validation ones and, since model v4, the fitted ones) and at most :data:`HARD_ALLOWED` of
    the validation hard lines are over it (never below 0.5)."""
    real_p = probabilities(model, real)
    hard_p = np.sort(probabilities(model, hard))[::-1]
    floor = max(0.5, float(real_p.max(initial=0.0)) + 1e-6)
    allowed = int(HARD_ALLOWED * len(hard_p))
    if len(hard_p) > allowed:
        floor = max(floor, float(hard_p[allowed]) + 1e-6)
    del positives
    return min(floor, 0.999)


def recall_table(model: Model, texts: list[Text], key: str, combined: bool) -> dict[str, Any]:
    groups: dict[str, list[Text]] = defaultdict(list)
    for t in texts:
        groups[getattr(t, key)].append(t)
    out = {}
    for name, items in sorted(groups.items()):
        p = probabilities(model, [t.text for t in items])
        entry: dict[str, Any] = {
            "texts": len(items),
            "learned": float(np.mean(p >= model.threshold)),
        }
        if combined:
            with learned.using(model):
                entry["combined"] = float(
                    np.mean([scan_seat(said([t.text]), "seat").flagged for t in items])
                )
            with learned.using(None):
                entry["rules"] = float(
                    np.mean([scan_seat(said([t.text]), "seat").flagged for t in items])
                )
        out[name] = entry
    return out


def seat_rates(
    model: Model, seats: list[tuple[str, str, list[TranscriptEvent], str]]
) -> dict[str, Any]:
    """False positives per real data set: combined, rules alone, and on the unseen half."""
    out: dict[str, Any] = {}
    started = time.process_time()
    for name, key, transcript, seat in seats:
        entry = out.setdefault(name, {"seats": 0, "flagged": 0, "rules": 0, "unseen_seats": 0,
                                      "unseen_flagged": 0, "cases": []})  # fmt: skip
        with learned.using(model):
            result = scan_seat(transcript, seat)
        kinds = {f.kind for f in result.findings}
        entry["seats"] += 1
        entry["flagged"] += result.flagged
        entry["rules"] += bool(kinds - {"learned"})
        if _unseen(key):
            entry["unseen_seats"] += 1
            entry["unseen_flagged"] += result.flagged
        if result.flagged:
            entry["cases"].append({"where": key, "seat": seat, "findings": [
                {"kind": f.kind, "excerpt": f.excerpt} for f in result.findings]})  # fmt: skip
    for entry in out.values():
        entry["rate"] = entry["flagged"] / entry["seats"]
        entry["unseen_rate"] = entry["unseen_flagged"] / max(entry["unseen_seats"], 1)
    total = sum(e["seats"] for e in out.values())
    flagged = sum(e["flagged"] for e in out.values())
    out["all real seats"] = {"seats": total, "flagged": flagged, "rate": flagged / total,
                             "cpu_s": round(time.process_time() - started, 2)}  # fmt: skip
    return out


def line_rates(model: Model, texts: Iterable[str]) -> dict[str, Any]:
    items = list(texts)
    flagged = []
    with learned.using(model):
        for text in items:
            result = scan_seat(said([text]), "seat")
            if result.flagged:
                flagged.append({"text": text, "kinds": sorted({f.kind for f in result.findings})})
    learned_only = sum(f["kinds"] == ["learned"] for f in flagged)
    return {"lines": len(items), "flagged": len(flagged), "rate": len(flagged) / max(len(items), 1),
            "by_learned_only": learned_only, "texts": flagged}  # fmt: skip


def save(path: Path, model: Model) -> None:
    """Write the model as the npz file ``learned.load_bytes`` reads: int8 weights with one scale."""
    scale = float(np.abs(model.weights).max()) / 127 or 1.0
    quantised = np.round(model.weights / scale).astype(np.int8)
    with path.open("wb") as out:
        np.savez_compressed(
            out,
            version=np.array(model.version),
            weights=quantised,
            scale=np.array(scale),
            bias=np.array(model.bias),
            threshold=np.array(model.threshold),
            buckets=np.array(learned.BUCKETS),
            ngrams=np.array(learned.NGRAMS),
            words=np.array(learned.WORDS, dtype=np.int64),
        )


def train(families: tuple[str, ...], languages: tuple[str, ...], count: int,
          real: list[str], real_val: list[str], lines: list[Text]) -> tuple[Model, dict[str, Any]]:  # fmt: skip
    """Fit on generated lines of ``families`` x ``languages`` against the real sentences and
    the hard lines of those languages (a held-out language is held out on both sides), and
    pick the threshold on the validation split (see :func:`pick_threshold`)."""
    hard = [t.text for t in lines if t.language in (*languages, "en", "mixed")]
    generated = judge_directed(count, SEED, families=families, languages=languages)
    extra: list[str] = []
    if "indirect" in families:  # the family's composed lines weigh more (model v4)
        rng = random.Random(SEED + 1)
        extra = indirect_english(count // 40, SEED) + [
            record_request(rng.choice(languages), rng) for _ in range(count // 10)
        ]
    positives = list(dict.fromkeys([*(t.text for t in generated), *extra]))
    random.Random(SEED).shuffle(positives)
    cut = len(positives) * 85 // 100
    fit_pos, val_pos = positives[:cut], positives[cut:]
    hard_fit = hard[::2] + hard[1::4]
    hard_val = hard[3::4]
    negatives = list(dict.fromkeys(real)) + hard_fit
    x, owners = matrix(fit_pos + negatives)
    labels = np.array([1.0] * len(fit_pos) + [0.0] * len(negatives))[owners]
    # A hard line weighs HARD_WEIGHT real sentences; one in another language than English
    # FOREIGN_WEIGHT (the real dialogues are English: without it the language itself reads as
    # a cue, every generated line in it being judge-directed).
    foreign = {t.text for t in lines if t.language not in ("en", "mixed")}
    hard_set = set(hard_fit)
    per_text = np.array([1.0] * len(fit_pos) + [
        (FOREIGN_WEIGHT if t in foreign else HARD_WEIGHT) if t in hard_set else 1.0
        for t in negatives
    ])[owners]  # fmt: skip
    pos_total = per_text[labels == 1].sum()
    neg_total = per_text[labels == 0].sum()
    weight = np.where(labels == 1, per_text / pos_total, per_text / neg_total) * len(labels) / 2
    weights, bias = fit(x, labels, weight)
    model = Model(MODEL_VERSION, weights.astype(np.float32), bias, 0.5)
    # every real sentence of the training half, fitted or not (model v4: a fitted one can
    # still score over a threshold picked on the validation sentences alone)
    threshold = pick_threshold(model, val_pos, [*real_val, *real], hard_val)
    model = Model(MODEL_VERSION, weights.astype(np.float32), bias, threshold)
    val_p = probabilities(model, val_pos)
    facts = {
        "families": list(families),
        "languages": list(languages),
        "judge_directed_training_texts": len(fit_pos),
        "validation_texts": len(val_pos),
        "real_training_sentences": len(set(real)),
        "real_validation_sentences": len(real_val),
        "hard_training_lines": len(hard_fit),
        "hard_validation_lines": len(hard_val),
        "threshold": threshold,
        "validation_recall": float(np.mean(val_p >= threshold)),
    }
    return model, facts


def speed(data: Path, model: Model) -> dict[str, Any]:
    """CaSiNo runs scanned per CPU second with the rules alone and with the learned layer,
    and the CPU seconds of the 4 MiB hostile transcripts of ``bench/integrity_rates.py``."""
    from bench.integrity_rates import casino_runs, hostile_times

    runs = [run for _, run in casino_runs(data)]
    out: dict[str, Any] = {}
    for label, candidate in (("rules_alone", None), ("with_learned", model)):
        with learned.using(candidate):
            started = time.process_time()
            for _ in range(3):
                for run in runs:
                    scan_run(run)
            out[f"casino_runs_per_cpu_s_{label}"] = round(
                3 * len(runs) / (time.process_time() - started)
            )
    with learned.using(model):
        out["hostile_4mib_cpu_s"] = hostile_times()
    return out


class Rules:
    """Whether the rules alone flag a text, computed once per text for every fold."""

    def __init__(self) -> None:
        self.seen: dict[str, bool] = {}

    def __call__(self, text: str) -> bool:
        if text not in self.seen:
            with learned.using(None):
                self.seen[text] = scan_seat(said([text]), "seat").flagged
        return self.seen[text]


def fold_recall(model: Model, texts: list[Text], rules: Rules) -> dict[str, float]:
    """Recall of one fold's model on what it held out: learned alone, rules alone, combined."""
    p = probabilities(model, [t.text for t in texts])
    with learned.using(model):
        combined = [scan_seat(said([t.text]), "seat").flagged for t in texts]
    return {
        "texts": len(texts),
        "learned": float(np.mean(p >= model.threshold)),
        "rules": float(np.mean([rules(t.text) for t in texts])),
        "combined": float(np.mean(combined)),
        "threshold": model.threshold,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=shared_data_dir(),
                        help="folder holding casino/ and dices/ as published")  # fmt: skip
    parser.add_argument("--out", type=Path, default=REPO / "reports" / "integrity")
    parser.add_argument("--model", type=Path,
                        default=REPO / "judge" / "core" / "integrity" / "model" / f"classifier-{MODEL_VERSION}.npz")  # fmt: skip
    parser.add_argument("--count", type=int, default=12000, help="judge-directed training texts")
    parser.add_argument("--test", type=int, default=420,
                        help="held-out texts per family (and per language group, times 2)")  # fmt: skip
    parser.add_argument(
        "--tiny", "--smoke", action="store_true", help="a small run into a temporary folder (CI)"
    )
    args = parser.parse_args(argv)
    one_blas_thread()
    if args.tiny:
        args.out = Path(tempfile.mkdtemp(prefix="judge-learned-tiny-"))
        args.model = args.out / "classifier.npz"
        args.count = 300
        args.test = 24
    started = time.process_time()
    languages = tuple(LANGUAGES)
    seats = real_seats(args.data)
    if args.tiny:
        seats = seats[:: max(1, len(seats) // 60)]
    real_fit: list[str] = []
    real_val: list[str] = []
    for index, (_, _, transcript, seat) in enumerate(s for s in seats if not _unseen(s[1])):
        (real_val if index % 5 == 0 else real_fit).extend(seat_sentences(transcript, seat))
    hard = hard_lines(SEED)
    hard_train = [t for t in hard if t.template % HARD_TEST_EVERY != HARD_TEST_EVERY - 1]
    hard_test = [t.text for t in hard if t.template % HARD_TEST_EVERY == HARD_TEST_EVERY - 1]
    rules = Rules()
    folds: list[dict[str, Any]] = []
    tricks: dict[str, list[bool]] = defaultdict(list)

    # 1. leave one family out: train on the other families, every language
    by_family: dict[str, Any] = {}
    for index, family in enumerate(FAMILIES):
        kept = tuple(f for f in FAMILIES if f != family)
        model, facts = train(kept, languages, args.count, real_fit, real_val, hard_train)
        texts = judge_directed(args.test, SEED + 100 + index, families=(family,))
        by_family[family] = fold_recall(model, texts, rules)
        p = probabilities(model, [t.text for t in texts])
        for t, value in zip(texts, p, strict=True):
            tricks[t.trick].append(bool(value >= model.threshold))
        facts["held_out"] = [family]
        facts["held_out_hard_lines_flagged"] = line_rates(model, hard_test)["flagged"]
        folds.append(facts)

    # 2. leave one group of languages out: train on every family, the other languages
    by_language: dict[str, Any] = {}
    for index, group in enumerate(LANGUAGE_GROUPS):
        kept_languages = tuple(code for code in languages if code not in group)
        fold_hard = [t for t in hard_train if t.language not in group]
        model, facts = train(FAMILIES, kept_languages, args.count, real_fit, real_val, fold_hard)
        texts = judge_directed(2 * args.test, SEED + 200 + index, languages=group)
        for code in group:
            by_language[code] = fold_recall(model, [t for t in texts if t.language == code], rules)
        facts["held_out"] = list(group)
        facts["held_out_hard_lines_flagged"] = line_rates(model, hard_test)["flagged"]
        folds.append(facts)

    # 3. the shipped model: the same recipe over every family and language
    shipped, shipped_facts = train(FAMILIES, languages, args.count, real_fit, real_val, hard_train)
    args.model.parent.mkdir(parents=True, exist_ok=True)
    save(args.model, shipped)
    shipped = learned.load_bytes(args.model.read_bytes())  # measure exactly what ships
    train_s = time.process_time() - started
    fresh = judge_directed(max(args.count // 6, 60), SEED + 4)
    from tests.core.integrity.corpus import negatives as written_negatives

    report: dict[str, Any] = {
        "detector_version": DETECTOR_VERSION,
        "model_version": MODEL_VERSION,
        "protocol": {
            "kind": "leave one family out; leave one language group out",
            "language_groups": [list(g) for g in LANGUAGE_GROUPS],
            "languages": len(LANGUAGES),
            "families": len(FAMILIES),
            "held_out_texts_per_family": args.test,
            "folds": folds,
            "shipped_model": shipped_facts,
            "l2": L2,
            "train_cpu_s": round(train_s, 1),
        },
        "held_out_families": by_family,
        "held_out_languages": by_language,
        "held_out_tricks": {
            name: {"texts": len(hits), "learned": float(np.mean(hits))}
            for name, hits in sorted(tricks.items())
        },
        "shipped_fresh_texts": recall_table(shipped, fresh, "family", True),
        "real_seats": seat_rates(shipped, seats),
        "hard_lines_held_out": line_rates(shipped, hard_test),
        "hard_lines_all": line_rates(shipped, [t.text for t in hard]),
        "written_ordinary": line_rates(shipped, written_negatives()),
    }
    if not args.tiny:
        report["speed"] = speed(args.data, shipped)
    for key in ("held_out_families", "held_out_languages"):
        values = [e["combined"] for e in report[key].values()]
        report[f"{key}_summary"] = {
            "mean_combined": float(np.mean(values)),
            "min_combined": float(min(values)),
            "mean_learned": float(np.mean([e["learned"] for e in report[key].values()])),
        }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "learned.json").write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    text = markdown(report)
    (args.out / "learned.md").write_text(text)
    print(text)
    return report


def _pct(x: float) -> str:
    return f"{x:.1%}"


def _recall_rows(table: dict[str, Any], name: str) -> list[str]:
    lines = [
        f"| {name} | texts | rules alone | learned alone | combined |",
        "|---|---|---|---|---|",
    ]
    for key, e in table.items():
        lines.append(
            f"| {key} | {e['texts']} | {_pct(e['rules'])} | {_pct(e['learned'])} | {_pct(e['combined'])} |"
        )
    return lines


def markdown(r: dict[str, Any]) -> str:
    p, s = r["protocol"], r["protocol"]["shipped_model"]
    fam, lang = r["held_out_families_summary"], r["held_out_languages_summary"]
    family_folds = [f for f in p["folds"] if len(f["held_out"]) == 1]
    lines = [
        f"# Learned layer: held-out rates (model {r['model_version']}, detector {r['detector_version']})",
        "",
        "Reproduce: `python bench/integrity_learned.py --data /path/to/data` (docs/integrity.md#learned-layer).",
        "",
        (f"Protocol (fixed in the script before training): **leave one family out**. For each of the "
        f"{p['families']} families of the generator a model is trained on the other "
        f"{p['families'] - 1} (every language; about {family_folds[0]['judge_directed_training_texts']} "
        f"judge-directed lines against {s['real_training_sentences']} real sentences of the training "
        f"half of CaSiNo and DICES-350 and about {s['hard_training_lines']} hard ordinary lines) and "
        f"measured on {p['held_out_texts_per_family']} generated lines of the family it never saw; "
        f"likewise each of {len(p['language_groups'])} groups of languages "
        f"({'; '.join(', '.join(g) for g in p['language_groups'])}) is held out whole, ordinary "
        f"lines included. Each fold picks its own threshold on a validation split of its own "
        f"training part (never on what it holds out)."),
        "",
        (f"The shipped model is the same recipe over all {p['families']} families and {p['languages']} "
        f"languages ({s['judge_directed_training_texts']} lines; threshold {s['threshold']:.3f}, "
        f"validation recall {_pct(s['validation_recall'])}); the false positives below are the "
        f"shipped model's, combined with the rules as the scan runs."),
        "",
        HISTORY,
        "",
        (f"**Held-out families: mean {_pct(fam['mean_combined'])} combined, lowest "
        f"{_pct(fam['min_combined'])}** (learned alone: mean {_pct(fam['mean_learned'])}). "
        f"Held-out languages: mean {_pct(lang['mean_combined'])}, lowest {_pct(lang['min_combined'])}."),
        "",
        "## Recall on each family, left out of its model's training (every language)",
        "",
        *_recall_rows(r["held_out_families"], "family"),
        "",
        "## Recall on each language, its group left out of its model's training (every family)",
        "",
        *_recall_rows(r["held_out_languages"], "language"),
        "",
        "## Learned recall by obfuscation (left-out families)",
        "",
        "| obfuscation | texts | learned alone |",
        "|---|---|---|",
    ]  # fmt: skip
    for name, e in r["held_out_tricks"].items():
        lines.append(f"| {name} | {e['texts']} | {_pct(e['learned'])} |")
    lines += ["", "## Shipped model on fresh generated texts of every family (not held out)", "",
              *_recall_rows(r["shipped_fresh_texts"], "family")]  # fmt: skip
    if "speed" in r:
        sp = r["speed"]
        lines += ["", "## Speed (CPU seconds of one process)", "",
                  (f"CaSiNo runs scanned per CPU second: {sp['casino_runs_per_cpu_s_rules_alone']} with the rules "
                  f"alone, {sp['casino_runs_per_cpu_s_with_learned']} with the learned layer."), "",
                  "| 4 MiB hostile transcript | CPU seconds | flagged |", "|---|---|---|"]  # fmt: skip
        for name, t in sp["hostile_4mib_cpu_s"].items():
            lines.append(f"| {name} | {t['seconds']:.2f} | {t['flagged']} |")
    lines += ["", "## False positives (shipped model and rules combined)", "",
              "| data set | seats or lines | flagged | rate | by the rules | never-trained half: flagged / seats |",
              "|---|---|---|---|---|---|"]  # fmt: skip
    for name, e in r["real_seats"].items():
        if name == "all real seats":
            continue
        lines.append(f"| {name} | {e['seats']} | {e['flagged']} | {_pct(e['rate'])} | {e['rules']} | "
                     f"{e['unseen_flagged']} / {e['unseen_seats']} |")  # fmt: skip
    a = r["real_seats"]["all real seats"]
    lines.append(f"| **all real seats** | {a['seats']} | {a['flagged']} | {a['rate']:.2%} | | |")
    for key, label in (("hard_lines_held_out", "hard ordinary lines, held-out templates"),
                       ("hard_lines_all", "hard ordinary lines, all"),
                       ("written_ordinary", "written ordinary talk (tests/core/integrity/negatives.txt)")):  # fmt: skip
        e = r[key]
        lines.append(f"| {label} | {e['lines']} | {e['flagged']} | {_pct(e['rate'])} | "
                     f"{e['flagged'] - e['by_learned_only']} | |")  # fmt: skip
    worst = max(f["held_out_hard_lines_flagged"] for f in p["folds"])
    lines += ["", (f"The fold models, for comparison: at most {worst} of "
              f"{r['hard_lines_held_out']['lines']} held-out hard lines flagged by any one of them."),
              "", "Flagged real seats:", ""]  # fmt: skip
    for name, e in r["real_seats"].items():
        for case in e.get("cases", []):
            lines.append(f"- {name} {case['where']} {case['seat']}: {case['findings']}")
    lines += ["", "Flagged hard and written lines (and the kinds found):", ""]
    for key in ("hard_lines_all", "written_ordinary"):
        lines += [f"- {t['text']!r}: {', '.join(t['kinds'])}" for t in r[key]["texts"]]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
