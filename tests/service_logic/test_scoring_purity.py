"""The service's scoring rules are pure: importing them pulls in no model, database or web code."""

from __future__ import annotations

import subprocess
import sys

MODULES = ["finalize", "leaderboard", "stability", "export"]
FORBIDDEN = ["litellm", "sqlmodel", "sqlalchemy", "fastapi", "judge.store", "judge.api", "judge.judging"]


def test_service_scoring_modules_import_no_io_layer() -> None:
    imports = "; ".join(f"import judge.scoring.{m}" for m in MODULES)
    probe = f"import sys; {imports}; print(sorted(m for m in sys.modules if m.split('.')[0] in {{'litellm','sqlmodel','sqlalchemy','fastapi'}} or m.startswith(('judge.store','judge.api','judge.judging'))))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", f"forbidden imports: {out.stdout} (any of {FORBIDDEN})"
