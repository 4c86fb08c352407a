"""The judge providers, one self-contained module each, asked by :mod:`judge.engine.judging.registry`:

- ``scripted.py``: the scripted test judge (dev mode only);
- ``embedded.py``: the in-process SmolLM2 judge;
- ``router.py``: a litellm Router over several deployments;
- ``openai_compatible.py``: an ``openai/`` model on a server of one's own, posted straight to
  it by a light client;
- ``litellm.py``: every other model id, through litellm.
"""
