"""HTML rendering for the console: one autoescaping Jinja2 environment, bidi controls shown as
visible escapes, and the security headers every console page carries."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup, escape

from judge.core.domain.integrity import WITHHELD_MARKER
from judge.core.domain.wording import counted
from judge.core.integrity import linear

#: Scripts, styles and images only from the service itself; no inline script, no framing.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}
#: How the console names each leaderboard class (the runs table's board column and filter).
BOARD_LABELS: dict[str, str] = {
    "ranked": "ranked",
    "self_hosted_facilitator": "custom rubric",
    "self_reported": "self-reported",
    "online": "online rule",
}
#: Bidirectional controls (docs/security.md, "Bidi controls").
BIDI_CONTROLS = linear.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")


def _escape_code(found: linear.Match) -> str:
    return f"<span class=bidi>\\u{ord(found.group()):04x}</span>"


def visible_bidi(value: Any) -> Any:
    """Every value a template prints: text with a bidi control escaped, each control written as a
    styled ``\\u202e``; any other value is left to autoescaping."""
    if not isinstance(value, str) or not BIDI_CONTROLS.search(value):
        return value
    safe = value if isinstance(value, Markup) else escape(value)
    return Markup(BIDI_CONTROLS.sub(_escape_code, str(safe)))


def num(value: float | None, digits: int = 2) -> str:
    """A figure for a table cell; an em dash when there is none."""
    return "—" if value is None else f"{value:.{digits}f}"


@lru_cache(maxsize=1)
def environment() -> Environment:
    """The one environment (templates ship in the package: never reloaded from disk)."""
    env = Environment(
        loader=PackageLoader("judge.server.console", "templates"),
        auto_reload=False,
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=visible_bidi,
    )
    env.filters["num"] = num
    env.filters["counted"] = counted
    env.globals["withheld_marker"] = WITHHELD_MARKER
    env.globals["board_labels"] = BOARD_LABELS
    return env


def page(
    request: Request, template: str, *, status_code: int = 200, **context: Any
) -> HTMLResponse:
    """Render ``template`` with ``context`` (``console`` None unless given) as an HTML answer
    with the console's headers."""
    context.setdefault("console", None)
    html = environment().get_template(template).render(request_path=request.url.path, **context)
    return HTMLResponse(html, status_code=status_code, headers=SECURITY_HEADERS)


def see_other(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303, headers=SECURITY_HEADERS)


def svg(body: bytes, *, max_age: int) -> Response:
    """A plot, cached privately for ``max_age`` seconds."""
    headers = {**SECURITY_HEADERS, "Cache-Control": f"private, max-age={max_age}"}
    return Response(body, media_type="image/svg+xml", headers=headers)
