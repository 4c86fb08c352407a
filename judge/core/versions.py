"""Every version constant of the measurement stack, in a leaf that imports nothing from judge.

Lower layers import these from here, never from the package face (``judge/__init__.py``
re-exports them for users): the face imports the pipeline lazily, and a layer that reached
up to it for a constant would close an import cycle (docs/architecture.md).
"""

from __future__ import annotations

__version__ = "0.1.0"

#: Version of the scoring rules (composite, gates, rewards, statistics). Part of the era.
SCORING_VERSION = 1

#: Version of the judge prompt (docs/scoring.md). Part of the era.
JUDGE_PROMPT_VERSION = 5

#: The prompt without the score-integrity defence (docs/integrity.md): version 4 exactly, kept
#: byte for byte so an audit with the defence off reuses passes judged before the defence.
UNDEFENDED_PROMPT_VERSION = 4

#: Version of the integrity detector's rules (docs/integrity.md): bumped on any change of
#: them. Part of the era.
DETECTOR_VERSION = "1"
