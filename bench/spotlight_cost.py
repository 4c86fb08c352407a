"""Benchmark: what marking the participants' text costs in prompt tokens.

Renders the transcript block the judge reads (``judge.engine.judging.prompt``: heads,
neutralised text, the block tags) for CaSiNo dialogues and DICES-350 conversations, read in
place from ``--data`` (never copied), under each marking choice, and counts its tokens with
the embedded judge's own SmolLM2 tokenizer (the GGUF the embedded provider loads, vocabulary
only, offline) and with tiktoken's ``o200k_base`` when tiktoken is installed. Choices:

- ``none``: unmarked (the denominator of every ratio);
- ``word``: every run of spaces inside event text becomes ``^`` (prompt versions 5 to 7);
- ``word-paper``: the same with the paper's mark U+02C6;
- ``word-token``: a marker the tokenizer keeps whole (`` ^``) before every word, the spaces
  kept;
- ``line``: one mark (``^``) at the start of every line of event text, after the head and
  after each neutralised line break (prompt version 8, :func:`judge.engine.judging.prompt.datamark`);
- ``tag-event``: each event's text between a per-prompt random tag and its closing tag.

Prints one table row per choice and tokenizer: tokens, and the ratio to ``none``. Last line:
``line_ratio=<x> word_ratio=<y>`` (SmolLM2, CaSiNo and DICES together).

    python bench/spotlight_cost.py --data /work/shared/data --casino 20 --dices 50
    python bench/spotlight_cost.py --smoke     # the example run only
"""

from __future__ import annotations

import argparse
import ast
import json
import secrets
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from judge.core.domain.run import ActionEvent, TranscriptEvent, parse_run
from judge.engine.judging import prompt
from judge.engine.judging.providers.embedded import gguf_path
from judge.engine.settings import judging_environment
from judge.tools.importers.casino import casino_run
from judge.tools.importers.dices import dices_transcript

REPO = Path(__file__).resolve().parents[1]
Body = Callable[[str, str], str]


def _word(mark: str) -> Body:
    return lambda text, _tag: prompt.neutralise(prompt._SPACES.sub(mark, text))


def _word_token(text: str, _tag: str) -> str:
    return prompt.neutralise(" ".join("^" + w for w in text.split(" ")))


def _tag_event(text: str, tag: str) -> str:
    return f"<{tag}>{prompt.neutralise(text.replace(tag, ''))}</{tag}>"


CHOICES: dict[str, Body] = {
    "none": lambda text, _tag: prompt.neutralise(text),
    "word": _word(prompt.DATAMARK),
    "word-paper": _word("\u02c6"),
    "word-token": _word_token,
    "line": lambda text, _tag: prompt.mark_lines(text),
    "tag-event": _tag_event,
}


def body_of(event: TranscriptEvent) -> str:
    if isinstance(event, ActionEvent):
        body = f"{event.name}({json.dumps(event.args, sort_keys=True, ensure_ascii=False)}) -> {event.status}"
        if event.result is not None:
            body += f": {json.dumps(event.result, sort_keys=True, ensure_ascii=False)}"
        return body
    return event.content


def block(events: Sequence[TranscriptEvent], choice: str) -> str:
    """The transcript block as the judge reads it, its event text marked by ``choice``."""
    names = prompt.prompt_labels(events)
    tag = "d-" + secrets.token_hex(8)
    lines = [
        f"[turn {e.turn}] {names[e.seat]} ({e.kind}): {CHOICES[choice](body_of(e), tag)}"
        for e in events
    ]
    body = "\n".join(lines)
    name = prompt.transcript_tag(body)
    return f"<{name}>\n{body}\n</{name}>\n"


def transcripts(
    data: Path | None, casino: int, dices: int
) -> dict[str, list[list[TranscriptEvent]]]:
    example = parse_run(json.loads((REPO / "examples/haggle.json").read_text()))
    out: dict[str, list[list[TranscriptEvent]]] = {"example": [list(example.transcript)]}
    if data is None:
        return out
    dialogues = json.loads((data / "casino/casino_test.json").read_text())[:casino]
    out["casino"] = [
        list(casino_run(d, f"casino[{n}]")[0].transcript) for n, d in enumerate(dialogues)
    ]
    rows = json.loads((data / "dices/dices_350_crowdsourced.json").read_text())["instances"][:dices]
    out["dices"] = []
    for row in rows:
        inst: Any = row["instance"]
        if isinstance(inst, str):
            inst = ast.literal_eval(inst)
        out["dices"].append(dices_transcript(inst["user_prompt"], inst["response"]))
    return out


def tokenizers() -> dict[str, Callable[[str], int]]:
    from llama_cpp import Llama

    llm = Llama(model_path=str(gguf_path(judging_environment())), vocab_only=True, verbose=False)
    found: dict[str, Callable[[str], int]] = {
        "smollm2": lambda text: len(llm.tokenize(text.encode(), add_bos=False, special=False))
    }
    try:
        import tiktoken

        enc = tiktoken.get_encoding("o200k_base")
    except Exception as exc:  # noqa: BLE001 - tiktoken absent or its encoding not cached offline
        print(f"tiktoken left out: {type(exc).__name__}", file=sys.stderr)
        return found
    found["o200k"] = lambda text: len(enc.encode(text, disallowed_special=()))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--data", type=Path, default=None, help="the folder holding casino/ and dices/"
    )
    parser.add_argument("--casino", type=int, default=20)
    parser.add_argument("--dices", type=int, default=50)
    parser.add_argument("--smoke", action="store_true", help="the example run only")
    args = parser.parse_args()
    sets = transcripts(None if args.smoke else args.data, args.casino, args.dices)
    counters = tokenizers()
    print("| tokenizer | set | transcripts | " + " | ".join(CHOICES) + " |")
    print("|---|---|---:|" + "---:|" * len(CHOICES))
    ratios: dict[str, float] = {}
    for tok, count in counters.items():
        totals = dict.fromkeys(CHOICES, 0)
        for name, runs in sets.items():
            cost = {c: sum(count(block(r, c)) for r in runs) for c in CHOICES}
            for c in CHOICES:
                totals[c] += cost[c]
            cells = [f"{cost['none']:,}"] + [
                f"{cost[c] / cost['none']:.2f}x" for c in CHOICES if c != "none"
            ]
            print(f"| {tok} | {name} | {len(runs)} | " + " | ".join(cells) + " |")
        if tok == "smollm2":
            ratios = {c: totals[c] / totals["none"] for c in CHOICES}
    print(f"line_ratio={ratios['line']:.3f} word_ratio={ratios['word']:.3f}")


if __name__ == "__main__":
    main()
