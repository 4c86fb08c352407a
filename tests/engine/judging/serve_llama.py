"""``python -m tests.engine.judging.serve_llama ARGS``: llama-cpp-python's OpenAI-compatible server,
with llama.cpp's extra weight buffers (AMX repacking) off as in the embedded judge.

Some virtual machines advertise AMX without granting its tile state, and llama.cpp's AMX path
then dies with SIGILL on the first batched prompt; the server has no switch for it.
"""

from __future__ import annotations

import llama_cpp.llama_cpp as lib

_original = lib.llama_model_default_params


def _without_extra_buffers() -> lib.llama_model_params:
    params = _original()
    params.use_extra_bufts = False
    return params


if __name__ == "__main__":
    lib.llama_model_default_params = _without_extra_buffers
    from llama_cpp.server.__main__ import main

    main()
