"""The API's JSON answers with their figures rounded at the boundary (judge/core/scoring/figures.py)."""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse

from judge.core.scoring.figures import rounded


class FiguresJSONResponse(JSONResponse):
    """JSON whose floats carry 12 significant digits; what is stored is never rounded."""

    def render(self, content: Any) -> bytes:
        return super().render(rounded(content))
