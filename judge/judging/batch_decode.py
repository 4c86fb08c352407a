"""Batched greedy decoding on llama.cpp: a shared prefix once, each distinct suffix once,
and many replies decoded together in one batch of several sequences.

KV cache layout (one unified cache, several sequence ids; copying a sequence shares its
cells, it copies no data)::

    seq 0                the shared prefix (system prompt + transcript), evaluated once
    seq 1 .. g           one per distinct prompt of a group: prefix cells + its own suffix
    seq W+1 .. W+g       one per reply being decoded: the prompt's cells + the reply so far

Distinct prompts with the same number of wanted replies form a group of at most ``W``
(the batch width). A group decodes in rounds; round r decodes one reply for every prompt
of the group, one token per sequence per step, all in one ``llama_decode`` batch, and frees
the reply cells afterwards. Every round therefore starts from the same cache state and puts
the same prompts in the same batch slots and cells, so it repeats the previous round's
arithmetic exactly: the replies of one prompt within a call are byte-identical by
construction, not by luck. Decoding is greedy; a grammar, when given, constrains each
sequence through its own grammar sampler.
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from judge.errors import PermanentJudgeError

if TYPE_CHECKING:
    from llama_cpp import Llama

#: Batch width: distinct prompts decoded side by side (one round = one reply of each).
#: Wider batches pay for attention over every other prompt's cells (one unified cache);
#: on two small cores 6 measured faster than 4 or 12.
DEFAULT_WIDTH = 6
#: Most KV cells one context may hold; a group is narrowed to fit.
MAX_CELLS = 24576
_CHUNK = 512


class PromptTokens(NamedTuple):
    prefix: tuple[int, ...]
    rest: tuple[int, ...]


class Decoded(NamedTuple):
    """One finished reply, for the request at position ``request``."""

    request: int
    text: str
    prompt_tokens: int
    cached_tokens: int
    completion_tokens: int


@dataclass
class _Prompt:
    tokens: PromptTokens
    requests: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Group:
    """Distinct prompts decoded side by side, ``rounds`` replies each."""

    prompts: tuple[int, ...]
    rounds: int


def distinct_prompts(requests: Sequence[PromptTokens]) -> list[_Prompt]:
    """Identical prompts merged, in first-seen order, each with the requests it answers."""
    found: dict[PromptTokens, _Prompt] = {}
    for n, tokens in enumerate(requests):
        found.setdefault(tokens, _Prompt(tokens)).requests.append(n)
    return list(found.values())


def plan_groups(prompts: Sequence[_Prompt], members: Sequence[int], width: int) -> list[Group]:
    """Groups of at most ``width`` prompts with equal reply counts (so every round of a
    group has the same composition), in first-seen order."""
    by_rounds: dict[int, list[int]] = {}
    for p in members:
        by_rounds.setdefault(len(prompts[p].requests), []).append(p)
    return [
        Group(tuple(ps[i : i + width]), rounds)
        for rounds, ps in by_rounds.items()
        for i in range(0, len(ps), width)
    ]


def group_width(prefix: int, longest_rest: int, max_tokens: int, width: int) -> int:
    """The widest group whose cells (prefix, every suffix, every reply) fit MAX_CELLS."""
    per_prompt = longest_rest + max_tokens
    return max(1, min(width, (MAX_CELLS - prefix) // per_prompt))


class SeqToken(NamedTuple):
    """One token of a batch: its id, its position, its sequence, whether its logits are kept."""

    token: int
    pos: int
    seq: int
    logits: bool


class LlamaBatchContext:
    """A llama.cpp context of its own on a loaded model: unified KV cache, many sequences."""

    def __init__(self, llm: Llama, *, n_ctx: int, n_seq_max: int, n_threads: int) -> None:
        import llama_cpp as lib
        from llama_cpp._internals import LlamaContext

        params = lib.llama_context_default_params()
        params.n_ctx = n_ctx
        params.n_batch = params.n_ubatch = _CHUNK
        params.n_seq_max = n_seq_max
        params.kv_unified = True  # one cell pool: a copied sequence shares its cells
        params.flash_attn_type = lib.LLAMA_FLASH_ATTN_TYPE_DISABLED  # slower on small CPUs here
        params.n_threads = params.n_threads_batch = n_threads
        self.n_ctx, self.n_seq_max = n_ctx, n_seq_max
        self._lib: Any = lib
        self._owner = LlamaContext(model=llm._model, params=params, verbose=False)
        self.ctx: Any = self._owner.ctx
        self.memory: Any = lib.llama_get_memory(self.ctx)
        self.vocab: Any = llm._model.vocab
        self.n_vocab = int(lib.llama_vocab_n_tokens(self.vocab))
        self._batch: Any = lib.llama_batch_init(_CHUNK, 0, 1)

    def close(self) -> None:
        if self._batch is not None:
            self._lib.llama_batch_free(self._batch)
            self._batch = None
        self._owner.close()  # type: ignore[no-untyped-call]

    def clear(self) -> None:
        self._lib.llama_memory_clear(self.memory, True)

    def copy_seq(self, src: int, dst: int) -> None:
        self._lib.llama_memory_seq_cp(self.memory, src, dst, -1, -1)

    def drop_seq(self, seq: int) -> None:
        self._lib.llama_memory_seq_rm(self.memory, seq, -1, -1)

    def decode(self, items: Sequence[SeqToken]) -> None:
        """One llama_decode of at most _CHUNK tokens; logits kept where asked."""
        b = self._batch
        for i, it in enumerate(items):
            b.token[i], b.pos[i], b.n_seq_id[i] = it.token, it.pos, 1
            b.seq_id[i][0] = it.seq
            b.logits[i] = 1 if it.logits else 0
        b.n_tokens = len(items)
        status = self._lib.llama_decode(self.ctx, b)
        if status != 0:
            raise PermanentJudgeError(f"the embedded judge could not decode a batch (llama_decode returned {status})")

    def logits(self, i: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The logits of batch row ``i`` of the last decode (a view, valid until the next)."""
        ptr = self._lib.llama_get_logits_ith(self.ctx, i)
        return np.ctypeslib.as_array(ptr, shape=(self.n_vocab,))

    def is_eog(self, token: int) -> bool:
        return bool(self._lib.llama_vocab_is_eog(self.vocab, token))


class GreedyChooser:
    """Greedy choice for one sequence, under its own grammar sampler when there is a grammar.

    The unconstrained best token is tried first and the whole vocabulary is masked only when
    the grammar rejects it (what llama.cpp's own sampler does), which keeps the grammar cheap.
    """

    def __init__(self, context: LlamaBatchContext, grammar: str | None) -> None:
        self._lib: Any = context._lib
        self._n_vocab = context.n_vocab
        self._sampler: Any = (
            self._lib.llama_sampler_init_grammar(context.vocab, grammar.encode(), b"root") if grammar else None
        )

    def close(self) -> None:
        if self._sampler is not None:
            self._lib.llama_sampler_free(self._sampler)
            self._sampler = None

    def choose(self, logits: np.ndarray[Any, np.dtype[np.float32]]) -> int:
        token = int(np.argmax(logits))
        if self._sampler is None:
            return token
        if not self._allows(token, float(logits[token])):
            token = self._best_allowed(logits)
        self._lib.llama_sampler_accept(self._sampler, token)
        return token

    def _allows(self, token: int, logit: float) -> bool:
        data = (self._lib.llama_token_data * 1)()
        data[0].id, data[0].logit, data[0].p = token, logit, 0.0
        self._apply(data, 1)
        return bool(np.isfinite(data[0].logit))

    def _best_allowed(self, logits: np.ndarray[Any, np.dtype[np.float32]]) -> int:
        rows = np.zeros(self._n_vocab, dtype=[("id", np.int32), ("logit", np.float32), ("p", np.float32)])
        rows["id"] = np.arange(self._n_vocab, dtype=np.int32)
        rows["logit"] = logits
        data = rows.ctypes.data_as(ctypes.POINTER(self._lib.llama_token_data))
        self._apply(data, self._n_vocab)
        if not np.isfinite(rows["logit"]).any():
            raise PermanentJudgeError("the embedded judge's grammar allows no token here")
        return int(np.argmax(rows["logit"]))

    def _apply(self, data: Any, size: int) -> None:
        array = self._lib.llama_token_data_array(data=data, size=size, selected=-1, sorted=False)
        self._lib.llama_sampler_apply(self._sampler, ctypes.byref(array))


@dataclass
class _Reply:
    request: int
    seq: int
    pos: int
    chooser: GreedyChooser
    tokens: list[int] = field(default_factory=list)
    next_token: int = -1
    done: bool = False


class BatchDecoder:
    """Runs batched jobs on one model; not thread-safe (the caller holds a lock)."""

    def __init__(self, llm: Llama, *, n_threads: int, width: int = DEFAULT_WIDTH) -> None:
        self.llm = llm
        self.n_threads = n_threads
        self.width = width
        self._context: LlamaBatchContext | None = None
        self._held: tuple[int, ...] | None = None

    def run(
        self, requests: Sequence[PromptTokens], *, max_tokens: int, grammar: str | None
    ) -> Iterator[Decoded]:
        """Decode one reply per request; yields each round's replies as the round ends."""
        prompts = distinct_prompts(requests)
        families: dict[tuple[int, ...], list[int]] = {}
        for n, p in enumerate(prompts):
            families.setdefault(p.tokens.prefix, []).append(n)
        try:
            for prefix, members in families.items():
                yield from self._family(prompts, prefix, members, max_tokens, grammar)
        except BaseException:
            self._held = None  # a job cut short may leave sequences behind: start clean
            raise

    def _family(
        self, prompts: list[_Prompt], prefix: tuple[int, ...], members: list[int], max_tokens: int,
        grammar: str | None,
    ) -> Iterator[Decoded]:
        longest = max(len(prompts[p].tokens.rest) for p in members)
        width = group_width(len(prefix), longest, max_tokens, self.width)
        ctx = self._context_for(len(prefix) + width * (longest + max_tokens), 2 * width + 1)
        prefix_charged = self._hold_prefix(ctx, prefix)
        for group in plan_groups(prompts, members, width):
            starts = self._eval_suffixes(ctx, prompts, group, len(prefix))
            for r in range(group.rounds):
                for reply in self._round(ctx, prompts, group, r, starts, max_tokens, grammar, width):
                    prompt = prompts[group.prompts[reply.seq - width - 1]].tokens
                    fresh = (len(prompt.rest) if r == 0 else 0) + (0 if prefix_charged else len(prefix))
                    prefix_charged = True
                    total = len(prompt.prefix) + len(prompt.rest)
                    text = self.llm.detokenize(reply.tokens).decode("utf-8", errors="ignore")
                    yield Decoded(reply.request, text, total, total - fresh, len(reply.tokens))
            for slot in range(len(group.prompts)):
                ctx.drop_seq(1 + slot)

    def _hold_prefix(self, ctx: LlamaBatchContext, prefix: tuple[int, ...]) -> bool:
        """Leave exactly ``prefix`` in sequence 0; True when it was there already. It is always
        evaluated the same way from an empty cache, so holding it changes no arithmetic."""
        if self._held == prefix:
            return True
        self._held = None
        ctx.clear()
        self._eval(ctx, [SeqToken(t, i, 0, False) for i, t in enumerate(prefix)])
        self._held = prefix
        return False

    def _context_for(self, cells: int, n_seq_max: int) -> LlamaBatchContext:
        ctx = self._context
        if ctx is None or ctx.n_ctx < cells or ctx.n_seq_max < n_seq_max:
            self._held = None
            if ctx is not None:
                ctx.close()
            n_ctx = -(-(cells + 256) // 1024) * 1024
            ctx = self._context = LlamaBatchContext(
                self.llm, n_ctx=n_ctx, n_seq_max=max(n_seq_max, 2 * self.width + 1), n_threads=self.n_threads
            )
        return ctx

    @staticmethod
    def _eval(ctx: LlamaBatchContext, items: Sequence[SeqToken]) -> None:
        for start in range(0, len(items), _CHUNK):
            ctx.decode(items[start : start + _CHUNK])

    def _eval_suffixes(
        self, ctx: LlamaBatchContext, prompts: list[_Prompt], group: Group, n_prefix: int
    ) -> list[np.ndarray[Any, np.dtype[np.float32]]]:
        """Each prompt's suffix into its own sequence; the logits after each suffix."""
        items: list[SeqToken] = []
        ends: list[int] = []
        for slot, p in enumerate(group.prompts):
            ctx.copy_seq(0, 1 + slot)
            rest = prompts[p].tokens.rest
            items += [SeqToken(t, n_prefix + i, 1 + slot, i == len(rest) - 1) for i, t in enumerate(rest)]
            ends.append(len(items) - 1)
        out: dict[int, np.ndarray[Any, np.dtype[np.float32]]] = {}
        for start in range(0, len(items), _CHUNK):
            chunk = items[start : start + _CHUNK]
            ctx.decode(chunk)
            for i, it in enumerate(chunk):
                if it.logits:
                    out[start + i] = ctx.logits(i).copy()
        return [out[e] for e in ends]

    def _round(
        self, ctx: LlamaBatchContext, prompts: list[_Prompt], group: Group, r: int,
        starts: list[np.ndarray[Any, np.dtype[np.float32]]], max_tokens: int, grammar: str | None, width: int,
    ) -> list[_Reply]:
        replies = []
        for slot, p in enumerate(group.prompts):
            seq = width + 1 + slot
            ctx.copy_seq(1 + slot, seq)
            tokens = prompts[p].tokens
            reply = _Reply(prompts[p].requests[r], seq, len(tokens.prefix) + len(tokens.rest), GreedyChooser(ctx, grammar))
            reply.next_token = reply.chooser.choose(starts[slot])
            replies.append(reply)
        try:
            self._decode_round(ctx, replies, max_tokens)
        finally:
            for reply in replies:
                reply.chooser.close()
                ctx.drop_seq(reply.seq)
        return replies

    @staticmethod
    def _decode_round(ctx: LlamaBatchContext, replies: list[_Reply], max_tokens: int) -> None:
        while True:
            for reply in replies:
                if not reply.done:
                    if ctx.is_eog(reply.next_token):
                        reply.done = True
                    else:
                        reply.tokens.append(reply.next_token)
                        reply.done = len(reply.tokens) >= max_tokens
            active = [reply for reply in replies if not reply.done]
            if not active:
                return
            ctx.decode([SeqToken(a.next_token, a.pos + len(a.tokens) - 1, a.seq, True) for a in active])
            for row, reply in enumerate(active):
                reply.next_token = reply.chooser.choose(ctx.logits(row))
