"""judge: a scoring back end for AI-agent evaluation.

Two independent signals per run: mechanical objectives decided from the world's state,
and behavioural traits scored by an LLM judge over several temperature-0 passes.
"""

__version__ = "0.1.0"

#: Version of the scoring rules (composite, gates, rewards, statistics). Part of the era.
SCORING_VERSION = 1

#: Version of the judge prompt (SPEC section 4). Part of the era.
JUDGE_PROMPT_VERSION = 4
