"""OTLP/JSON trace data (``ExportTraceServiceRequest``; 64-bit integers as strings, ids in hex
or base64) decoded into plain span records; a span that cannot be decoded is reported and left
out (docs/integrations.md)."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import Any, NamedTuple

from judge.core.errors import InputError
from judge.core.integrity import linear

_HEX = linear.compile(r"^[0-9a-fA-F]+$")
STATUS_ERROR = 2
_STATUS_NAMES = {"STATUS_CODE_UNSET": 0, "STATUS_CODE_OK": 1, "STATUS_CODE_ERROR": 2}


class SpanEvent(NamedTuple):
    name: str
    time_ns: int
    attributes: dict[str, Any]


class Span(NamedTuple):
    """One span, decoded: ids as lowercase hex, attribute values as plain JSON values."""

    trace_id: str
    span_id: str
    parent_span_id: str | None
    name: str
    start_ns: int
    end_ns: int
    attributes: dict[str, Any]
    events: list[SpanEvent]
    status_code: int
    status_message: str
    resource: dict[str, Any]


class BrokenSpan(NamedTuple):
    where: str
    trace_id: str | None
    reason: str


class Decoded(NamedTuple):
    spans: list[Span]
    broken: list[BrokenSpan]


class SpanFormatError(ValueError):
    """Raised inside decoding; becomes a :class:`BrokenSpan` for the span it concerns."""


def decode_id(raw: Any, size: int, field: str) -> str:
    """A trace (16 bytes) or span (8 bytes) id from hex or base64, as lowercase hex."""
    if not isinstance(raw, str) or not raw:
        raise SpanFormatError(f"{field} is missing")
    if len(raw) == 2 * size and _HEX.match(raw):
        value = raw.lower()
    else:
        try:
            value = base64.b64decode(raw, validate=True).hex()
        except (binascii.Error, ValueError):
            raise SpanFormatError(f"{field} {raw!r} is neither hex nor base64") from None
    if len(value) != 2 * size or value == "0" * 2 * size:
        raise SpanFormatError(f"{field} {raw!r} is not a valid {size}-byte id")
    return value


def any_value(value: Any) -> Any:
    """A plain JSON value from an OTLP ``AnyValue``."""
    if not isinstance(value, Mapping) or len(value) > 1:
        raise SpanFormatError(f"not an attribute value: {value!r}")
    if not value:
        return None
    ((kind, inner),) = value.items()
    if kind in ("stringValue", "boolValue", "doubleValue", "bytesValue"):
        return inner
    if kind == "intValue":
        try:
            return int(inner)
        except (TypeError, ValueError):
            raise SpanFormatError(f"intValue {inner!r} is not an integer") from None
    if kind in ("arrayValue", "kvlistValue") and not isinstance(inner, Mapping):
        raise SpanFormatError(f"{kind} must be an object with values")
    if kind == "arrayValue":
        return [any_value(v) for v in inner.get("values", [])]
    if kind == "kvlistValue":
        return attributes(inner.get("values", []))
    raise SpanFormatError(f"unknown attribute value type {kind!r}")


def attributes(items: Any) -> dict[str, Any]:
    """``[{"key", "value"}]`` as a dict."""
    if not isinstance(items, list):
        raise SpanFormatError("attributes must be a list of key/value pairs")
    out = {}
    for item in items:
        if not isinstance(item, Mapping) or not isinstance(item.get("key"), str):
            raise SpanFormatError(f"attribute without a key: {item!r}")
        out[item["key"]] = any_value(item.get("value", {}))
    return out


def _nanos(raw: Any, field: str) -> int:
    try:
        return int(raw or 0)
    except (TypeError, ValueError):
        raise SpanFormatError(f"{field} {raw!r} is not a number of nanoseconds") from None


def _status(raw: Any) -> tuple[int, str]:
    status = raw if isinstance(raw, Mapping) else {}
    code = status.get("code", 0)
    code = _STATUS_NAMES.get(code, code) if isinstance(code, str) else code
    if not isinstance(code, int) or isinstance(code, bool) or code not in _STATUS_NAMES.values():
        raise SpanFormatError(f"status code {code!r} is not one of {sorted(_STATUS_NAMES)} or 0-2")
    return code, str(status.get("message", ""))


def decode_span(raw: Mapping[str, Any], resource: dict[str, Any]) -> Span:
    """One span. Raises SpanFormatError naming the problem."""
    trace_id = decode_id(raw.get("traceId"), 16, "traceId")
    span_id = decode_id(raw.get("spanId"), 8, "spanId")
    parent = decode_id(raw["parentSpanId"], 8, "parentSpanId") if raw.get("parentSpanId") else None
    raw_events = raw.get("events", [])
    if not isinstance(raw_events, list) or not all(isinstance(e, Mapping) for e in raw_events):
        raise SpanFormatError("events must be a list of objects")
    events = [
        SpanEvent(
            str(e.get("name", "")),
            _nanos(e.get("timeUnixNano"), "event time"),
            attributes(e.get("attributes", [])),
        )
        for e in raw_events
    ]
    code, message = _status(raw.get("status"))
    start = _nanos(raw.get("startTimeUnixNano"), "startTimeUnixNano")
    end = _nanos(raw.get("endTimeUnixNano"), "endTimeUnixNano")
    name, attrs = str(raw.get("name", "")), attributes(raw.get("attributes", []))
    return Span(trace_id, span_id, parent, name, start, end, attrs, events, code, message, resource)


def _partial_trace_id(raw: Mapping[str, Any]) -> str | None:
    try:
        return decode_id(raw.get("traceId"), 16, "traceId")
    except SpanFormatError:
        return None


def _where(raw: Mapping[str, Any], position: str) -> str:
    span_id = raw.get("spanId")
    return f"span {span_id}" if isinstance(span_id, str) and span_id else position


def decode_request(data: Any) -> Decoded:
    """Every span of an ``ExportTraceServiceRequest`` in JSON form (InputError: not one)."""
    if not isinstance(data, Mapping) or not isinstance(data.get("resourceSpans"), list):
        raise InputError("not OTLP/JSON trace data: expected an object with a resourceSpans list")
    spans, broken = [], []
    for r, resource_spans in enumerate(data["resourceSpans"]):
        where = f"resourceSpans[{r}]"
        try:
            resource = attributes(_object(resource_spans, "resource").get("attributes", []))
        except SpanFormatError as exc:
            raise InputError(f"{where}.resource: {exc}") from None
        for s, scope_spans in enumerate(_items(resource_spans, "scopeSpans", where)):
            for n, raw in enumerate(_items(scope_spans, "spans", f"{where}.scopeSpans[{s}]")):
                position = f"{where}.scopeSpans[{s}].spans[{n}]"
                if not isinstance(raw, Mapping):
                    broken.append(BrokenSpan(position, None, "a span must be a JSON object"))
                    continue
                try:
                    spans.append(decode_span(raw, resource))
                except SpanFormatError as exc:
                    broken.append(
                        BrokenSpan(_where(raw, position), _partial_trace_id(raw), str(exc))
                    )
    return Decoded(spans, broken)


def _object(parent: Any, key: str) -> Mapping[str, Any]:
    value = parent.get(key, {}) if isinstance(parent, Mapping) else None
    if not isinstance(value, Mapping):
        raise SpanFormatError(f"{key} must be an object")
    return value


def _items(parent: Any, key: str, where: str) -> list[Any]:
    value = parent.get(key, []) if isinstance(parent, Mapping) else None
    if not isinstance(value, list):
        raise InputError(f"{where}.{key} must be a list")
    return value


def span_record(span: Span) -> dict[str, Any]:
    """A decoded span as plain JSON data (what the service stores), read back by
    :func:`span_from_record`."""
    record = span._asdict()
    record["events"] = [event._asdict() for event in span.events]
    return record


def span_from_record(record: Mapping[str, Any]) -> Span:
    events = [SpanEvent(**event) for event in record["events"]]
    return Span(**{**record, "events": events})


#: The protobuf form of OTLP trace data is readable when this package is installed.
PROTOBUF_PACKAGE = "opentelemetry-proto"


class ProtobufUnavailable(InputError):
    """The protobuf form arrived but ``opentelemetry-proto`` is not installed."""


def decode_protobuf(data: bytes) -> Decoded:
    """Every span of a binary ``ExportTraceServiceRequest``, read into its JSON form and decoded
    as :func:`decode_request` decodes that (the same ids, values and checks); InputError when the
    bytes are not one, ProtobufUnavailable when the package is missing."""
    try:
        from google.protobuf.json_format import MessageToDict
        from google.protobuf.message import DecodeError
        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
            ExportTraceServiceRequest,
        )
    except ImportError:
        raise ProtobufUnavailable(
            f"protobuf bodies need the {PROTOBUF_PACKAGE} package, which this service lacks; "
            "send OTLP/JSON (OTEL_EXPORTER_OTLP_PROTOCOL=http/json) or install it"
        ) from None
    request = ExportTraceServiceRequest()
    try:
        request.ParseFromString(data)
    except DecodeError:
        raise InputError("not an OTLP protobuf ExportTraceServiceRequest") from None
    return decode_request(MessageToDict(request))
