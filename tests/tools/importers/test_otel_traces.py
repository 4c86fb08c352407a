"""`judge import otel`: traces made in the test with the OpenTelemetry SDK, in the GenAI
conventions' span layout, exported as OTLP/JSON."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("opentelemetry.sdk")

from google.protobuf.json_format import MessageToDict
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import Status, StatusCode, Tracer

from judge.core.domain.run import Run
from judge.tools.cli import main
from judge.tools.importers.otel_traces import read_otel


def text(role: str, content: str) -> dict[str, Any]:
    return {"role": role, "parts": [{"type": "text", "content": content}]}


SYSTEM = [{"type": "text", "content": "You are a shop assistant."}]
USER = text("user", "What does the lamp cost?")
CALL = {
    "role": "assistant",
    "parts": [
        {"type": "text", "content": "Let me check."},
        {
            "type": "tool_call",
            "id": "call_1",
            "name": "lookup_price",
            "arguments": {"item": "lamp"},
        },
    ],
    "finish_reason": "tool_call",
}
TOOL = {
    "role": "tool",
    "parts": [{"type": "tool_call_response", "id": "call_1", "response": "lamp costs 42 coins"}],
}
ANSWER = text("assistant", "It costs 42 coins.")


def chat(tracer: Tracer, inputs: list[Any], outputs: list[Any], **extra: Any) -> None:
    with tracer.start_as_current_span("chat gpt-4o") as span:
        span.set_attributes(
            {
                "gen_ai.operation.name": "chat",
                "gen_ai.provider.name": "openai",
                "gen_ai.request.model": "gpt-4o",
                "gen_ai.input.messages": json.dumps(inputs),
                "gen_ai.output.messages": json.dumps(outputs),
                "gen_ai.usage.input_tokens": 20,
                "gen_ai.usage.output_tokens": 8,
                **extra,
            }
        )


def shop_trace(tracer: Tracer) -> None:
    """The current conventions: messages as span attributes, a tool span, an evaluation event."""
    with tracer.start_as_current_span("invoke_agent shop-bot") as root:
        root.set_attributes(
            {
                "gen_ai.operation.name": "invoke_agent",
                "gen_ai.agent.name": "shop-bot",
                "gen_ai.agent.id": "shop-bot-v2",
                "app.tenant": "acme",
            }
        )
        chat(tracer, [USER], [CALL], **{"gen_ai.system_instructions": json.dumps(SYSTEM)})
        with tracer.start_as_current_span("execute_tool lookup_price") as tool:
            tool.set_attributes(
                {
                    "gen_ai.operation.name": "execute_tool",
                    "gen_ai.tool.name": "lookup_price",
                    "gen_ai.tool.call.id": "call_1",
                    "gen_ai.tool.call.arguments": '{"item": "lamp"}',
                    "gen_ai.tool.call.result": "lamp costs 42 coins",
                }
            )
        chat(tracer, [USER, CALL, TOOL], [ANSWER])
        root.add_event(
            "gen_ai.evaluation.result",
            {"gen_ai.evaluation.name": "answer_correct", "gen_ai.evaluation.score.value": 1.0},
        )
        root.add_event(
            "gen_ai.evaluation.result",
            {"gen_ai.evaluation.name": "helpfulness", "gen_ai.evaluation.score.value": 0.6},
        )


def legacy_trace(tracer: Tracer) -> None:
    """Older instrumentations: prompt/completion events in the chat shape; a failing tool."""
    call = {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "id": "c9",
                "type": "function",
                "function": {"name": "refund", "arguments": '{"order": 7}'},
            }
        ],
    }
    user = {"role": "user", "content": "Refund order 7, please."}
    with tracer.start_as_current_span("invoke_agent refund-bot") as root:
        root.set_attribute("gen_ai.operation.name", "invoke_agent")
        with tracer.start_as_current_span("chat small-model") as span:
            span.set_attributes(
                {"gen_ai.operation.name": "chat", "gen_ai.request.model": "small-model"}
            )
            span.add_event("gen_ai.content.prompt", {"gen_ai.prompt": json.dumps([user])})
            span.add_event("gen_ai.content.completion", {"gen_ai.completion": json.dumps([call])})
        with tracer.start_as_current_span("execute_tool refund") as tool:
            tool.set_attributes(
                {
                    "gen_ai.operation.name": "execute_tool",
                    "gen_ai.tool.name": "refund",
                    "gen_ai.tool.call.id": "c9",
                    "error.type": "TimeoutError",
                }
            )
            tool.set_status(Status(StatusCode.ERROR, "payments timed out"))
        with tracer.start_as_current_span("chat small-model") as span:
            span.set_attributes(
                {
                    "gen_ai.operation.name": "chat",
                    "gen_ai.request.model": "small-model",
                    "gen_ai.input.messages": "[not json",
                }
            )


def record(*traces: Any) -> list[ReadableSpan]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider(resource=Resource.create({"service.name": "shop-service"}))
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("test.genai")
    for trace in traces:
        trace(tracer)
    return list(exporter.get_finished_spans())


def hex_ids(node: Any) -> Any:
    """OTLP/JSON proper writes ids in hex where the generic protobuf mapping uses base64."""
    if isinstance(node, dict):
        return {
            k: base64.b64decode(v).hex()
            if k in ("traceId", "spanId", "parentSpanId")
            else hex_ids(v)
            for k, v in node.items()
        }
    return [hex_ids(v) for v in node] if isinstance(node, list) else node


def export(spans: list[ReadableSpan], path: Path, *, hex_encoded: bool = True) -> Path:
    document = MessageToDict(encode_spans(spans))
    path.write_text(json.dumps(hex_ids(document) if hex_encoded else document))
    return path


def rows(run: Run) -> list[tuple[Any, ...]]:
    out = []
    for e in run.transcript:
        body = (e.name, e.args, e.status) if e.kind == "action" else (e.content,)  # type: ignore[union-attr]
        out.append((e.turn, e.seat, e.kind, *body))
    return out


@pytest.fixture
def shop_file(tmp_path: Path) -> Path:
    return export(record(shop_trace), tmp_path / "shop.json")


def test_a_genai_trace_imports_to_the_expected_run(shop_file: Path) -> None:
    found = read_otel(shop_file)
    assert found.broken == []
    [item] = found.runs
    run = item.run
    assert (
        run.scenario_id == "shop-service"
        and run.run_id.startswith("otel-")
        and len(run.run_id) == 37
    )
    assert [(s.seat, s.agent_id, s.scored) for s in run.seats] == [
        ("agent", "shop-bot-v2", True),
        ("user", "otel-user", False),
    ]
    assert rows(run) == [
        (1, "agent", "system", "You are a shop assistant."),
        (1, "user", "message", "What does the lamp cost?"),
        (1, "agent", "message", "Let me check."),
        (1, "agent", "action", "lookup_price", {"item": "lamp"}, "ok"),
        (2, "agent", "observation", "lamp costs 42 coins"),
        (2, "agent", "message", "It costs 42 coins."),
    ]
    assert [(c.id, c.met, c.progress) for c in run.win_conditions] == [
        ("answer_correct", True, None),
        ("helpfulness", False, 0.6),
    ]
    assert [(t.turn, t.tokens_in, t.tokens_out, t.tool_calls) for t in run.trace] == [
        (1, 20, 8, 1),
        (2, 20, 8, 0),
    ]


def test_unknown_attributes_are_kept_in_the_notes(shop_file: Path) -> None:
    notes = read_otel(shop_file).runs[0].notes
    kept = notes.unmapped["spans"]
    root = next(v for v in kept.values() if v["name"] == "invoke_agent shop-bot")
    assert root["attributes"] == {"app.tenant": "acme"}
    assert {
        v["attributes"].get("gen_ai.provider.name")
        for v in kept.values()
        if v["name"] == "chat gpt-4o"
    } == {"openai"}
    assert notes.unmapped["resource"]["service.name"] == "shop-service"
    assert (
        notes.origin["trace_id"] == notes.origin["trace_id"].lower() and notes.origin["spans"] == 4
    )


def test_the_run_keeps_its_trace_id_so_its_scores_go_back_into_the_trace(
    shop_file: Path,
) -> None:
    [item] = read_otel(shop_file).runs
    assert item.run.trace_id == item.notes.origin["trace_id"]
    assert item.run.run_id == f"otel-{item.run.trace_id}"


def test_the_run_names_its_root_span_for_the_annotations(shop_file: Path) -> None:
    [item] = read_otel(shop_file).runs
    kept = item.notes.unmapped["spans"]
    [root] = [span_id for span_id, v in kept.items() if v["name"] == "invoke_agent shop-bot"]
    assert item.run.span_id == root


def test_a_trace_whose_root_span_never_arrived_names_no_span(tmp_path: Path) -> None:
    children = [s for s in record(shop_trace) if s.parent is not None]
    [item] = read_otel(export(children, tmp_path / "children.json")).runs
    assert item.run.trace_id is not None and item.run.span_id is None


def test_base64_ids_of_the_generic_protobuf_mapping_read_the_same(
    shop_file: Path, tmp_path: Path
) -> None:
    spans = record(shop_trace)
    both = [
        read_otel(export(spans, tmp_path / f"{h}.json", hex_encoded=h)).runs[0].run
        for h in (True, False)
    ]
    assert both[0] == both[1]


def test_traces_group_into_runs_and_broken_spans_are_reported_by_id(tmp_path: Path) -> None:
    spans = record(shop_trace, legacy_trace)
    found = read_otel(export(spans, tmp_path / "two.json"))
    runs = {i.run.seats[0].agent_id: i for i in found.runs}
    assert set(runs) == {"shop-bot-v2", "small-model"}
    legacy = runs["small-model"]
    assert rows(legacy.run) == [
        (1, "user", "message", "Refund order 7, please."),
        (1, "agent", "action", "refund", {"order": 7}, "error"),
        (2, "agent", "observation", "error: payments timed out"),
    ]
    broken_id = format(
        spans[-2].context.span_id, "016x"
    )  # the second chat span of the refund trace
    assert legacy.notes.skipped == [
        f"span {broken_id}: gen_ai.input.messages is not valid JSON: Expecting value"
    ]
    assert legacy.run.trace[0].tool_errors == 1


def test_a_span_without_ids_is_reported_and_the_rest_imported(
    shop_file: Path, tmp_path: Path, capsys: Any
) -> None:
    document = json.loads(shop_file.read_text())
    spans = document["resourceSpans"][0]["scopeSpans"][0]["spans"]
    spans.append({"name": "orphan", "spanId": "00f067aa0ba902b7"})
    spans.append({"name": "nameless", "traceId": spans[0]["traceId"]})
    path = tmp_path / "partly.json"
    path.write_text(json.dumps(document))
    assert main(["import", "otel", str(path)]) == 0
    out, err = capsys.readouterr()
    assert len(json.loads(out)) == 1
    assert "judge: note: span 00f067aa0ba902b7: traceId is missing (left out)" in err
    assert "resourceSpans[0].scopeSpans[0].spans[5]: spanId is missing" in err


def test_the_cli_writes_runs_that_score(
    shop_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    out = tmp_path / "runs"
    assert (
        main(["import", "otel", str(shop_file), "--out", str(out), "--scenario-id", "lamp-shop"])
        == 0
    )
    [written] = capsys.readouterr().out.split()
    assert json.loads(Path(written).read_text())["scenario_id"] == "lamp-shop"
    assert Path(written).with_name(Path(written).stem + ".import.json").is_file()
    monkeypatch.setenv("JUDGE_DEV_MODE", "1")
    assert main(["score", written, "--judge", "scripted/0.7", "--json", "--no-progress"]) == 0
    card = json.loads(capsys.readouterr().out)
    assert card["seats"]["agent"]["participation"]["player_messages"] == 2
    assert card["seats"]["agent"]["objectives"]["conditions"] == {
        "answer_correct": True,
        "helpfulness": False,
    }


def test_a_file_that_is_not_otlp_json_is_bad_input(tmp_path: Path, capsys: Any) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"spans": []}')
    assert main(["import", "otel", str(bad)]) == 2
    assert "expected an object with a resourceSpans list" in capsys.readouterr().err


def test_a_bad_status_or_token_count_does_not_stop_the_import(
    shop_file: Path, tmp_path: Path
) -> None:
    document = json.loads(shop_file.read_text())
    spans = document["resourceSpans"][0]["scopeSpans"][0]["spans"]
    root = next(s for s in spans if s["name"].startswith("invoke_agent"))
    root["status"] = {"code": "SOMETIMES"}
    first_chat = next(s for s in spans if s["name"] == "chat gpt-4o")
    usage = next(a for a in first_chat["attributes"] if a["key"] == "gen_ai.usage.input_tokens")
    usage["value"] = {"stringValue": "many"}
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(document))
    found = read_otel(path)
    skipped = found.runs[0].notes.skipped
    names = "['STATUS_CODE_ERROR', 'STATUS_CODE_OK', 'STATUS_CODE_UNSET']"
    assert skipped == [
        f"span {root['spanId']}: status code 'SOMETIMES' is not one of {names} or 0-2"
    ]
    assert found.runs[0].run.trace[0].tokens_in == 0
