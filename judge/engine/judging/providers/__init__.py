"""The judge providers, one module each, asked in this order by :mod:`judge.engine.judging.registry`:

- ``scripted.py``: ``scripted/<score>``, the scripted test judge (dev mode only);
- ``embedded.py``: ``embedded/<name>``, the in-process SmolLM2 judge;
- ``router.py``: ``router:<file>`` (or any id ending in ``.yaml``/``.yml``), a litellm Router;
- ``openai_compatible.py``: ``openai/<name>`` when an API base of one's own is set
  (``OPENAI_BASE_URL``/``OPENAI_API_BASE``) and ``JUDGE_OPENAI_CLIENT`` is not ``litellm``;
- ``litellm.py``: every other id (hosted APIs, vLLM, Ollama, llama.cpp servers).
"""
