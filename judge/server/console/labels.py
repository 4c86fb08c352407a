"""The words the console shows for stored values."""

from __future__ import annotations

#: How the console names each leaderboard class (the runs table's board column and filter).
BOARD_LABELS: dict[str, str] = {
    "ranked": "ranked",
    "self_hosted_facilitator": "custom rubric",
    "self_reported": "self-reported",
    "online": "online rule",
}
