"""Bounds on what one request may carry, and the checks that hold parsed JSON to them
(docs/security.md); the API's request guard (``judge.server.api.limits``) applies them before a
body reaches its route. Seeds (32-bit) and ids (200 characters) are as wide as the store's columns.
"""

from __future__ import annotations

import json
import math
import re  # stays on re: finds lone surrogates RE2 (UTF-8) cannot see; one class each, linear
from typing import Any, NamedTuple

from judge.core.errors import InputError

SEED_MIN = -(2**31)
SEED_MAX = 2**31 - 1
INT_MIN = -(2**63)
INT_MAX = 2**63 - 1
#: Identifiers in bodies and paths (scenario, seat, agent, condition, submission ids).
ID_PATTERN = r"^[A-Za-z0-9_.:\-]{1,200}$"
#: Run ids: they appear as one path segment, so no ``:``, no leading dot, at most 128 chars.
RUN_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._\-]{0,127}$"
#: Every literal word of a mounted route (``tests/server/api/test_limits.py`` keeps this true);
#: a run id may not be one of them, in any letter case, so it can never shadow a route.
RESERVED_WORDS = frozenset(
    "admin adopt agent agreement alignments api audit calibration coaching compare"
    " comparisons config console docs drift eras escalation evals export exports finalize"
    " health ingest keys labels leaderboards me metrics oauth2-redirect openapi.json"
    " pairwise queue redoc review rl rubrics rules runs safety-review score-again"
    " scorecard scorecards sign-in sign-out stability static submissions traces"
    " trajectories trajectory v1".split()
)
ADVERSARY_CONFIG_MAX = 200
#: The largest console form post (sign-in, sign-out, a review note of 4,000 characters).
MAX_FORM_BYTES = 16 * 1024
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
#: Query values are ids, era ids, seeds, numbers, times and names: none is longer than an id.
MAX_QUERY_CHARS = 200
_CONTROL = re.compile("[\x00-\x1f\x7f\ud800-\udfff]")


class RequestLimits(NamedTuple):
    """The configurable bounds (``JUDGE_*`` settings of the same names)."""

    max_body_bytes: int = 4 * 1024 * 1024
    max_json_depth: int = 32
    max_text_chars: int = 200_000
    max_array_items: int = 10_000
    max_events: int = 10_000
    max_win_conditions: int = 1_000
    max_trace_steps: int = 10_000
    max_seats: int = 64


class BodyError(InputError):
    """A request body that breaks a bound or cannot be stored; the message names the field."""


class _NonFinite:
    """What ``NaN``/``Infinity`` parse to, so the walk can name where they were."""

    def __init__(self, token: str) -> None:
        self.token = token


def parse_json(data: bytes, limits: RequestLimits) -> Any:
    """Parse JSON text (``BodyError`` when it is not UTF-8 JSON or nests beyond what the parser
    follows); ``NaN``/``Infinity`` are kept as markers for :func:`check_json` to name."""
    try:
        return json.loads(data, parse_constant=_NonFinite)
    except RecursionError:
        raise BodyError(f"body: nested deeper than {limits.max_json_depth} levels") from None
    except UnicodeDecodeError:
        raise BodyError("body: not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise BodyError(
            f"body: not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    except ValueError as exc:  # e.g. an integer literal longer than Python converts
        raise BodyError(f"body: not valid JSON: {exc}") from None


def check_json(value: Any, limits: RequestLimits, *, root: str = "body") -> None:
    """Walk a parsed JSON value iteratively (depth cannot exhaust the stack); ``BodyError`` names
    the first value out of bounds by its path (``body.transcript.3.content``)."""
    stack: list[tuple[Any, str, int]] = [(value, root, 0)]
    while stack:
        item, where, depth = stack.pop()
        if depth > limits.max_json_depth:
            raise BodyError(f"{where}: nested deeper than {limits.max_json_depth} levels")
        stack.extend(_checked_children(item, where, depth + 1, limits))


def _checked_children(
    item: Any, where: str, depth: int, limits: RequestLimits
) -> list[tuple[Any, str, int]]:
    """The members of a container, once its count and keys are checked; a scalar is checked."""
    if isinstance(item, dict):
        _check_count(item, where, limits.max_array_items, "members")
        for key in item:
            _check_text(key, f"{where} (a key)", limits)
        return [(child, f"{where}.{key}", depth) for key, child in item.items()]
    if isinstance(item, list):
        _check_count(item, where, limits.max_array_items, "items")
        return [(child, f"{where}.{i}", depth) for i, child in enumerate(item)]
    _check_scalar(item, where, limits)
    return []


def _check_scalar(item: Any, where: str, limits: RequestLimits) -> None:
    if isinstance(item, str):
        _check_text(item, where, limits)
    elif isinstance(item, _NonFinite):
        raise BodyError(f"{where}: {item.token} is not a number JSON allows; send a finite number")
    elif isinstance(item, float) and not math.isfinite(item):
        raise BodyError(
            f"{where}: not a finite number (out of range, infinite or NaN); send a finite number"
        )
    elif isinstance(item, int) and not isinstance(item, bool) and not INT_MIN <= item <= INT_MAX:
        raise BodyError(f"{where}: integer outside the signed 64-bit range")


def _check_count(item: dict[str, Any] | list[Any], where: str, most: int, what: str) -> None:
    if len(item) > most:
        raise BodyError(f"{where}: {len(item)} {what}, more than the limit of {most}")


def _check_text(text: str, where: str, limits: RequestLimits) -> None:
    if len(text) > limits.max_text_chars:
        raise BodyError(
            f"{where}: {len(text)} characters, more than the limit of {limits.max_text_chars}"
        )
    problem = text_problem(text)
    if problem:
        raise BodyError(f"{where}: {problem}")


def text_problem(text: str) -> str | None:
    """Why ``text`` cannot be stored (a NUL, a lone surrogate), or None."""
    bad = _UNSTORABLE.search(text)
    if bad is None:
        return None
    if bad.group() == "\x00":
        return "contains a NUL character (U+0000), which cannot be stored"
    return f"contains a lone surrogate (U+{ord(bad.group()):04X}), which is not valid Unicode text"


def check_run_counts(body: Any, limits: RequestLimits) -> None:
    """Bound the lists of a run body before the (costlier) run-format validation (``BodyError``)."""
    if not isinstance(body, dict):
        return
    bounds = {
        "seats": limits.max_seats,
        "transcript": limits.max_events,
        "win_conditions": limits.max_win_conditions,
        "trace": limits.max_trace_steps,
    }
    for field, most in bounds.items():
        items = body.get(field)
        if isinstance(items, list) and len(items) > most:
            raise BodyError(f"body.{field}: {len(items)} items, more than the limit of {most}")


def run_id_problem(run_id: str) -> str | None:
    """Why ``run_id`` is not allowed (pattern or a reserved route word), or None."""
    if ":" in run_id:
        return (
            f"{run_id!r} may not contain ':' (runs submitted with an agent key are stored as "
            "'<agent_id>:<run_id>'); a run id is 1-128 letters, digits, '.', '_' or '-'"
        )
    if not re.fullmatch(RUN_ID_PATTERN, run_id):
        return (
            "a run id is 1-128 letters, digits, '.', '_' or '-', starting with a letter or digit "
            f"(pattern {RUN_ID_PATTERN})"
        )
    if run_id.lower() in RESERVED_WORDS:
        return f"{run_id!r} is a word of the API's routes and cannot name a run"
    return None


def query_value_problem(value: str) -> str | None:
    """Why a query value (or a value decoded from a cursor) cannot be used, or None: it must
    be text of at most ``MAX_QUERY_CHARS`` characters without a control character."""
    if _CONTROL.search(value):
        return "contains a control character"
    if len(value) > MAX_QUERY_CHARS:
        return f"longer than {MAX_QUERY_CHARS} characters"
    return None


#: How deep a file an importer reads may nest (arrays and objects); a run's action arguments
#: nest at most 64 levels, so an honest foreign record needs far fewer than this.
MAX_IMPORT_DEPTH = 128
_OUTSIDE_STRING = re.compile(rb'["\[\]{}]')
_INSIDE_STRING = re.compile(rb'["\\]')


class DepthGauge:
    """Follows the nesting of JSON text fed in pieces, without parsing it (brackets in strings do
    not count), so a document nested too deep is refused before a parser's stack is exhausted."""

    def __init__(self, limit: int) -> None:
        self.limit, self.depth = limit, 0
        self._in_string = self._escaped = False

    def feed(self, chunk: bytes) -> None:
        """Read one more piece of the text (``InputError`` once it nests deeper than ``limit``)."""
        at, end = 0, len(chunk)
        if self._escaped and end:
            at, self._escaped = 1, False
        while at < end:
            at = self._string_step(chunk, at) if self._in_string else self._step(chunk, at)

    def _string_step(self, chunk: bytes, at: int) -> int:
        found = _INSIDE_STRING.search(chunk, at)
        if found is None:
            return len(chunk)
        if found.group() == b"\\":
            if found.end() >= len(chunk):
                self._escaped = True
            return found.end() + 1
        self._in_string = False
        return found.end()

    def _step(self, chunk: bytes, at: int) -> int:
        found = _OUTSIDE_STRING.search(chunk, at)
        if found is None:
            return len(chunk)
        mark = found.group()
        if mark == b'"':
            self._in_string = True
        elif mark in (b"[", b"{"):
            self.depth += 1
            if self.depth > self.limit:
                raise InputError(f"nested deeper than {self.limit} levels")
        else:
            self.depth -= 1
        return found.end()


def json_depth_problem(data: bytes, limit: int = MAX_IMPORT_DEPTH) -> str | None:
    """Why JSON text (or JSON Lines) nests too deep to parse, or None."""
    try:
        DepthGauge(limit).feed(data)
    except InputError as exc:
        return str(exc)
    return None


def bounded_loads(text: str | bytes, limit: int = MAX_IMPORT_DEPTH) -> Any:
    """``json.loads`` for text read from files, refused (``InputError``) when nested deeper than
    ``limit``."""
    data = text.encode("utf-8", errors="surrogatepass") if isinstance(text, str) else text
    DepthGauge(limit).feed(data)
    return json.loads(text)
