"""A small shop assistant instrumented with the OpenTelemetry SDK and the GenAI semantic
conventions, exporting its traces over OTLP/HTTP to ``judge serve`` (docs/integrations.md,
"Worked example: scoring live traces").

Each conversation is one trace: an ``invoke_agent`` root span, a ``chat`` span where the model
asks for a tool, the ``execute_tool`` span, and a ``chat`` span with the answer. The model here
is a stand-in (``toy_model``) so the example runs offline; in a real agent that call is your
LLM client and its instrumentation writes the same attributes.

Where the spans go is the OpenTelemetry SDK's usual configuration, nothing judge-specific:

    OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:8000          # /v1/traces is added
    OTEL_EXPORTER_OTLP_HEADERS=x-judge-ingest-key=ik_live_...  # the source's ingest key
    OTEL_EXPORTER_OTLP_COMPRESSION=gzip

Run: ``python examples/otel_agent.py --conversations 12``; it prints the id of each trace sent.
Needs ``pip install opentelemetry-sdk opentelemetry-exporter-otlp-proto-http``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor
from opentelemetry.trace import SpanKind, Tracer

SERVICE = "shop-bot"
AGENT = "shop-helper"
MODEL = "toy-model-1"
PRICES = {"lamp": 42, "chair": 35, "rug": 120, "kettle": 18}
QUESTIONS = [
    "What does the {item} cost?",
    "Is the {item} under 50 coins?",
    "Could you check the price of the {item} for me?",
]


def parts(role: str, *items: dict[str, Any]) -> dict[str, Any]:
    return {"role": role, "parts": list(items)}


def text(content: str) -> dict[str, Any]:
    return {"type": "text", "content": content}


def toy_model(history: list[dict[str, Any]], item: str) -> dict[str, Any]:
    """The stand-in for an LLM call: asks for the price tool first, then answers with its
    result."""
    last = history[-1]
    if last["role"] == "user":
        call = {"type": "tool_call", "id": "call_1", "name": "lookup_price"}
        return parts("assistant", {**call, "arguments": {"item": item}})
    price = last["parts"][0]["response"]
    return parts("assistant", text(f"The {item} costs {price} coins. Shall I reserve one?"))


def chat(tracer: Tracer, history: list[dict[str, Any]], item: str) -> dict[str, Any]:
    """One model call, as a GenAI ``chat`` span carrying its input and output messages."""
    with tracer.start_as_current_span(f"chat {MODEL}", kind=SpanKind.CLIENT) as span:
        reply = toy_model(history, item)
        span.set_attributes(
            {
                "gen_ai.operation.name": "chat",
                "gen_ai.provider.name": "toy",
                "gen_ai.request.model": MODEL,
                "gen_ai.input.messages": json.dumps(history),
                "gen_ai.output.messages": json.dumps([reply]),
                "gen_ai.usage.input_tokens": 12 * len(history),
                "gen_ai.usage.output_tokens": 14,
            }
        )
        return reply


def lookup_price(tracer: Tracer, call: dict[str, Any]) -> dict[str, Any]:
    """The tool, as a GenAI ``execute_tool`` span."""
    item = call["arguments"]["item"]
    with tracer.start_as_current_span("execute_tool lookup_price") as span:
        result = str(PRICES[item])
        span.set_attributes(
            {
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": "lookup_price",
                "gen_ai.tool.call.id": call["id"],
                "gen_ai.tool.call.arguments": json.dumps(call["arguments"]),
                "gen_ai.tool.call.result": result,
            }
        )
    return parts("tool", {"type": "tool_call_response", "id": call["id"], "response": result})


def conversation(tracer: Tracer, number: int) -> str:
    """One customer question answered, as one trace; returns its trace id (hex)."""
    item = list(PRICES)[number % len(PRICES)]
    question = QUESTIONS[number % len(QUESTIONS)].format(item=item)
    with tracer.start_as_current_span(f"invoke_agent {AGENT}") as root:
        root.set_attributes(
            {
                "gen_ai.operation.name": "invoke_agent",
                "gen_ai.agent.name": AGENT,
                "gen_ai.agent.id": AGENT,
                "app.conversation": number,
            }
        )
        history = [parts("user", text(question))]
        asked = chat(tracer, history, item)
        history += [asked, lookup_price(tracer, asked["parts"][0])]
        chat(tracer, history, item)
        return format(root.get_span_context().trace_id, "032x")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversations", type=int, default=3)
    args = parser.parse_args(argv)

    provider = TracerProvider(resource=Resource.create({"service.name": SERVICE}))
    # the endpoint, headers and compression come from OTEL_EXPORTER_OTLP_* in the environment
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    tracer = provider.get_tracer("examples.otel_agent")
    for number in range(args.conversations):
        print(conversation(tracer, number))
    provider.shutdown()  # flushes the last batch before the process exits
    return 0


if __name__ == "__main__":
    sys.exit(main())
