"""litellm, imported the one way this package imports it (:func:`load_litellm`)."""

from __future__ import annotations

import os
from typing import Any

#: litellm reads this once, when first imported: "True" keeps it to the price map it ships
#: instead of fetching one over the network (docs/deploy.md, "No network at start-up").
LOCAL_PRICE_MAP = "LITELLM_LOCAL_MODEL_COST_MAP"


def prefer_bundled_price_map() -> None:
    """Choose litellm's shipped price map for this process and the processes it starts, unless
    the owner set the variable (their value wins). Called by every entry point before anything
    can import litellm, and by :func:`load_litellm`."""
    os.environ.setdefault(LOCAL_PRICE_MAP, "True")


def load_litellm() -> Any:
    """litellm, with its shipped model price map (otherwise it fetches one over the network
    when imported) and without its help banners on stdout ("Provider List: ...", which would
    corrupt a command's output, ``judge score --json``); an error still reaches the caller."""
    prefer_bundled_price_map()
    import litellm

    litellm.suppress_debug_info = True
    return litellm
