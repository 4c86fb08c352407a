"""litellm, imported the one way this package imports it (:func:`load_litellm`)."""

from __future__ import annotations

import os
from typing import Any


def load_litellm() -> Any:
    """litellm, with its shipped model price map (otherwise it fetches one over the network
    when imported) and without its help banners on stdout ("Provider List: ...", which would
    corrupt a command's output, ``judge score --json``); an error still reaches the caller."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm

    litellm.suppress_debug_info = True
    return litellm
