"""A small Inspect task run for real in the tests: a shop assistant with one tool, played by
Inspect's ``mockllm/model`` with scripted outputs, scored by Inspect scorers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState, generate, system_message, use_tools
from inspect_ai.tool import Tool, ToolError, tool


@tool
def lookup_price() -> Tool:
    async def execute(item: str) -> str:
        """Look up an item's price.

        Args:
            item: the item's name.
        """
        if item == "ghost":
            raise ToolError("no such item")
        return f"{item} costs 42 coins"

    return execute


def reply(messages: list[ChatMessage], *_: Any) -> ModelOutput:
    """A tool call on the user's question, then a final answer once the tool has spoken."""
    last = messages[-1]
    if last.role == "user":
        item = "ghost" if "ghost" in last.text else "lamp"
        output = ModelOutput.for_tool_call(
            "mockllm/model", "lookup_price", {"item": item}, content="Let me check."
        )
    else:
        output = ModelOutput.from_content("mockllm/model", "It costs 42 coins, final answer.")
    # usage given, so mockllm does not count tokens (that would download an encoding)
    output.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
    return output


@scorer(metrics=[mean()])
def fraction() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        return Score(value=0.25, explanation="a quarter of the way")

    return score


@scorer(metrics={"*": [mean()]})
def several() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        return Score(value={"polite": True, "words": 7.0})

    return score


def shop_task(
    scorers: list[Scorer], *, epochs: int = 2, ids: tuple[str, ...] = ("lamp", "ghost")
) -> Task:
    samples = [
        Sample(id=i, input=f"What does the {i} cost?", target="7" if i == "ghost" else "42")
        for i in ids
    ]
    solver = [system_message("You are a shop assistant."), use_tools(lookup_price()), generate()]
    return Task(dataset=samples, solver=solver, scorer=scorers, epochs=epochs, name="shop")


def run_eval(task: Task, log_dir: Path, log_format: str = "eval") -> EvalLog:
    """Run the task with mockllm; the log Inspect wrote (its location is on the result)."""
    model = get_model("mockllm/model", custom_outputs=reply)
    logs = eval(task, model=model, log_dir=str(log_dir), log_format=log_format, display="none")  # type: ignore[arg-type]
    assert logs[0].status == "success", logs[0].error
    return logs[0]
