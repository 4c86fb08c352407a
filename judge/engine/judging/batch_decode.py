"""Batched greedy decoding on llama.cpp: a shared prefix once, each distinct suffix once,
and many replies decoded together in one batch of several sequences.

One unified KV cache (a copied sequence shares its cells): seq 0 holds the shared prefix,
seq 1..g one distinct prompt of a group each, seq W+1..W+g one reply being decoded each
(W: the batch width). Round r of a group decodes one reply for every prompt of it, then frees
the reply cells; every round starts from the same cache state with the same slots, so it
repeats the previous round's arithmetic exactly: the replies of one prompt within a call are
byte-identical by construction. A grammar constrains each sequence through its own sampler.
"""

from __future__ import annotations

import codecs
import ctypes
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from judge.core.errors import PermanentJudgeError
from judge.engine.judging.score_grid import TokenStep, score_token

if TYPE_CHECKING:
    from llama_cpp import Llama

Logits = np.ndarray[Any, np.dtype[np.float32]]

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

    @property
    def size(self) -> int:
        return len(self.prefix) + len(self.rest)


class Decoded(NamedTuple):
    """One finished reply, for the request at position ``request``; the other fields are
    named as :class:`judge.engine.judging.backends.JudgeReply`'s, which reads them by name
    (the log-probabilities only with score capture on)."""

    request: int
    text: str
    prompt_tokens: int
    cached_prompt_tokens: int
    completion_tokens: int
    token_logprobs: tuple[TokenStep, ...] | None = None
    zero_branch: dict[str, float] | None = None


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

    def drop_seq(self, seq: int, start: int = -1) -> None:
        """Forget a sequence's cells (from position ``start`` on, where given)."""
        self._lib.llama_memory_seq_rm(self.memory, seq, start, -1)

    def decode(self, items: Sequence[SeqToken]) -> None:
        """One llama_decode of at most _CHUNK tokens; logits kept where asked."""
        b = self._batch
        for i, it in enumerate(items):
            b.token[i], b.pos[i], b.n_seq_id[i] = it.token, it.pos, 1
            b.seq_id[i][0] = it.seq
            b.logits[i] = 1 if it.logits else 0
        b.n_tokens = len(items)
        if (status := self._lib.llama_decode(self.ctx, b)) != 0:
            raise PermanentJudgeError(
                f"the embedded judge could not decode a batch (llama_decode returned {status})"
            )

    def logits(self, i: int) -> Logits:
        """The logits of batch row ``i`` of the last decode (a view, valid until the next)."""
        ptr = self._lib.llama_get_logits_ith(self.ctx, i)
        return np.ctypeslib.as_array(ptr, shape=(self.n_vocab,))

    def is_eog(self, token: int) -> bool:
        return bool(self._lib.llama_vocab_is_eog(self.vocab, token))


class GreedyChooser:
    """Greedy choice for one sequence, under its own grammar sampler when there is a grammar.
    The whole vocabulary is masked only when the grammar rejects the best token (cheap)."""

    def __init__(self, context: LlamaBatchContext, grammar: str | None) -> None:
        self._lib: Any = context._lib
        self._n_vocab = context.n_vocab
        self._sampler: Any = (
            self._lib.llama_sampler_init_grammar(context.vocab, grammar.encode(), b"root")
            if grammar
            else None
        )

    def close(self) -> None:
        if self._sampler is not None:
            self._lib.llama_sampler_free(self._sampler)
            self._sampler = None

    def choose(self, logits: Logits) -> int:
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

    def _best_allowed(self, logits: Logits) -> int:
        rows = np.zeros(
            self._n_vocab, dtype=[("id", np.int32), ("logit", np.float32), ("p", np.float32)]
        )
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
    #: per chosen token: its log-probability and those of the watched (score) tokens
    seen: list[tuple[float, np.ndarray[Any, np.dtype[np.float64]]]] = field(default_factory=list)
    zero_branch: dict[str, float] | None = None


class ScoreWatch:
    """The score tokens (``0``-``9`` and ``.``) whose log-probabilities (the model's own,
    over the whole vocabulary; docs/judge-signal.md) each step records."""

    TEXTS = (*"0123456789", ".")

    def __init__(self, ids: dict[str, int]) -> None:
        self.ids = ids
        self.order = np.array([ids[t] for t in self.TEXTS], dtype=np.int64)

    @classmethod
    def for_model(cls, llm: Llama) -> ScoreWatch | None:
        """The watch for a model whose tokenizer spells each score character as one token."""
        ids = {}
        for text in cls.TEXTS:
            tokens = llm.tokenize(text.encode(), add_bos=False, special=False)
            if len(tokens) != 1:
                return None
            ids[text] = int(tokens[0])
        return cls(ids)

    def note(self, reply: _Reply, logits: Logits, token: int) -> None:
        lse = _log_total(logits)
        reply.seen.append((float(logits[token]) - lse, logits[self.order].astype(np.float64) - lse))

    def digits(self, logits: Logits) -> dict[str, float]:
        lse = _log_total(logits)
        return {t: float(logits[self.ids[t]]) - lse for t in self.TEXTS[:10]}

    def steps(self, texts: Sequence[str], reply: _Reply) -> tuple[TokenStep, ...]:
        return tuple(
            TokenStep(text, chosen, dict(zip(self.TEXTS, (float(v) for v in watched), strict=True)))
            for text, (chosen, watched) in zip(texts, reply.seen, strict=False)
        )


def _log_total(logits: Logits) -> float:
    """log(sum(exp(logits))), computed stably: what each log-probability subtracts."""
    top = float(logits.max())
    return top + float(np.log(np.exp(logits.astype(np.float64) - top).sum()))


def _families(prompts: Sequence[_Prompt]) -> dict[tuple[int, ...], list[int]]:
    """The prompts' positions by their shared prefix, in first-seen order."""
    families: dict[tuple[int, ...], list[int]] = {}
    for n, p in enumerate(prompts):
        families.setdefault(p.tokens.prefix, []).append(n)
    return families


class BatchDecoder:
    """Runs batched jobs on one model; not thread-safe (the caller holds a lock)."""

    def __init__(self, llm: Llama, *, n_threads: int, width: int = DEFAULT_WIDTH) -> None:
        self.llm = llm
        self.n_threads = n_threads
        self.width = width
        self._context: LlamaBatchContext | None = None
        self._held: tuple[int, ...] | None = None
        self._watch = ScoreWatch.for_model(llm)
        self._capture: ScoreWatch | None = None

    def run(
        self,
        requests: Sequence[PromptTokens],
        *,
        max_tokens: int,
        grammar: str | None,
        capture: bool = False,
    ) -> Iterator[Decoded]:
        """Decode one reply per request; yields each round's replies as the round ends.
        ``capture`` records the score tokens' log-probabilities."""
        self._capture = self._watch if capture else None
        prompts = distinct_prompts(requests)
        try:
            for prefix, members in _families(prompts).items():
                yield from self._family(prompts, prefix, members, max_tokens, grammar)
        except BaseException:
            self._held = None  # a job cut short may leave sequences behind: start clean
            raise

    def _family(
        self,
        prompts: list[_Prompt],
        prefix: tuple[int, ...],
        members: list[int],
        max_tokens: int,
        grammar: str | None,
    ) -> Iterator[Decoded]:
        longest = max(len(prompts[p].tokens.rest) for p in members)
        width = group_width(len(prefix), longest, max_tokens, self.width)
        ctx = self._context_for(len(prefix) + width * (longest + max_tokens), 2 * width + 1)
        prefix_charged = self._hold_prefix(ctx, prefix)
        for group in plan_groups(prompts, members, width):
            starts = self._eval_suffixes(ctx, prompts, group, len(prefix))
            for r in range(group.rounds):
                for reply in self._round(
                    ctx, prompts, group, r, starts, max_tokens, grammar, width
                ):
                    prompt = prompts[group.prompts[reply.seq - width - 1]].tokens
                    fresh = (len(prompt.rest) if r == 0 else 0) + (
                        0 if prefix_charged else len(prefix)
                    )
                    prefix_charged = True
                    yield self._decoded(reply, prompt, fresh)
            for slot in range(len(group.prompts)):
                ctx.drop_seq(1 + slot)

    def _decoded(self, reply: _Reply, prompt: PromptTokens, fresh: int) -> Decoded:
        """A finished reply; ``fresh`` of its prompt's tokens were evaluated for it."""
        total = prompt.size
        texts = self._texts(reply.tokens)
        steps = self._capture.steps(texts, reply) if self._capture is not None else None
        return Decoded(
            reply.request,
            "".join(texts),
            total,
            total - fresh,
            len(reply.tokens),
            steps,
            reply.zero_branch,
        )

    def _texts(self, tokens: Sequence[int]) -> list[str]:
        """Each token's text, decoded incrementally so that the pieces join to the reply."""
        decoder = codecs.getincrementaldecoder("utf-8")(errors="ignore")
        texts = [decoder.decode(self.llm.detokenize([t])) for t in tokens]
        if texts:
            texts[-1] += decoder.decode(b"", final=True)
        return texts

    def _probe_zero_branch(self, ctx: LlamaBatchContext, replies: Sequence[_Reply]) -> None:
        """For replies that answered ``1...``, decode ``0.`` at the score instead (on the reply's
        own sequence, before it is dropped) and keep the tenths digits' log-probabilities."""
        watch = self._capture
        if watch is None or not (probes := self._probes(watch, replies)):
            return
        items: list[SeqToken] = []
        for reply, start in probes:
            ctx.drop_seq(reply.seq, start)
            items += [
                SeqToken(watch.ids["0"], start, reply.seq, False),
                SeqToken(watch.ids["."], start + 1, reply.seq, True),
            ]
        ctx.decode(items)
        for row, (reply, _) in enumerate(probes):
            reply.zero_branch = watch.digits(ctx.logits(2 * row + 1))

    def _probes(self, watch: ScoreWatch, replies: Sequence[_Reply]) -> list[tuple[_Reply, int]]:
        """The replies whose score starts with ``1``, each with its score's position."""
        probes = []
        for reply in replies:
            texts = self._texts(reply.tokens)
            k = score_token("".join(texts), watch.steps(texts, reply))
            if k is not None and texts[k].strip() == "1":
                probes.append((reply, reply.pos + k))
        return probes

    def _hold_prefix(self, ctx: LlamaBatchContext, prefix: tuple[int, ...]) -> bool:
        """Leave exactly ``prefix`` in sequence 0 (always evaluated from an empty cache, so
        holding it changes no arithmetic); True when it was there already."""
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
                self.llm,
                n_ctx=n_ctx,
                n_seq_max=max(n_seq_max, 2 * self.width + 1),
                n_threads=self.n_threads,
            )
        return ctx

    @staticmethod
    def _eval(ctx: LlamaBatchContext, items: Sequence[SeqToken]) -> dict[int, Logits]:
        """Decode ``items`` in chunks; the logits of those that keep them, by their position."""
        kept: dict[int, Logits] = {}
        for start in range(0, len(items), _CHUNK):
            chunk = items[start : start + _CHUNK]
            ctx.decode(chunk)
            kept |= {start + i: ctx.logits(i).copy() for i, it in enumerate(chunk) if it.logits}
        return kept

    def _eval_suffixes(
        self, ctx: LlamaBatchContext, prompts: list[_Prompt], group: Group, n_prefix: int
    ) -> list[Logits]:
        """Each prompt's suffix into its own sequence; the logits after each suffix."""
        items: list[SeqToken] = []
        ends: list[int] = []
        for slot, p in enumerate(group.prompts):
            ctx.copy_seq(0, 1 + slot)
            rest = prompts[p].tokens.rest
            items += [
                SeqToken(t, n_prefix + i, 1 + slot, i == len(rest) - 1) for i, t in enumerate(rest)
            ]
            ends.append(len(items) - 1)
        kept = self._eval(ctx, items)
        return [kept[e] for e in ends]

    def _round(
        self,
        ctx: LlamaBatchContext,
        prompts: list[_Prompt],
        group: Group,
        r: int,
        starts: list[Logits],
        max_tokens: int,
        grammar: str | None,
        width: int,
    ) -> list[_Reply]:
        replies = []
        for slot, p in enumerate(group.prompts):
            ctx.copy_seq(1 + slot, width + 1 + slot)
            seq, size = width + 1 + slot, prompts[p].tokens.size
            reply = _Reply(prompts[p].requests[r], seq, size, GreedyChooser(ctx, grammar))
            replies.append(self._choose_next(reply, starts[slot]))
        try:
            self._decode_round(ctx, replies, max_tokens)
            self._probe_zero_branch(ctx, replies)
        finally:
            for reply in replies:
                reply.chooser.close()
                ctx.drop_seq(reply.seq)
        return replies

    def _choose_next(self, reply: _Reply, logits: Logits) -> _Reply:
        """The reply with its next token chosen from ``logits``."""
        reply.next_token = reply.chooser.choose(logits)
        if self._capture is not None:
            self._capture.note(reply, logits, reply.next_token)
        return reply

    def _decode_round(self, ctx: LlamaBatchContext, replies: list[_Reply], max_tokens: int) -> None:
        while True:
            for reply in (r for r in replies if not r.done):
                # the chosen token joins the reply, or ends it (end of generation, or the cap)
                if ctx.is_eog(reply.next_token):
                    reply.done = True
                else:
                    reply.tokens.append(reply.next_token)
                    reply.done = len(reply.tokens) >= max_tokens
            active = [reply for reply in replies if not reply.done]
            if not active:
                return
            ctx.decode(
                [SeqToken(a.next_token, a.pos + len(a.tokens) - 1, a.seq, True) for a in active]
            )
            for row, reply in enumerate(active):
                self._choose_next(reply, ctx.logits(row))
