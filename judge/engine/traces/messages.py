"""Chat messages as OpenTelemetry GenAI spans carry them, read into one plain form: the current
conventions' ``{"role", "parts": [...]}`` (parts of type text, tool_call and tool_call_response;
any other kept as text naming its type) and the older chat shape of ``gen_ai.prompt`` /
``gen_ai.completion`` (``{"role", "content", "tool_calls", "tool_call_id"}``)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal, NamedTuple

from judge.core.domain.limits import bounded_loads
from judge.core.errors import InputError

PartKind = Literal["text", "tool_call", "tool_call_response"]


class Part(NamedTuple):
    kind: PartKind
    text: str = ""
    call_id: str | None = None
    name: str | None = None
    arguments: dict[str, Any] | None = None


class Message(NamedTuple):
    role: str
    parts: tuple[Part, ...]

    @property
    def text(self) -> str:
        return "\n".join(p.text for p in self.parts if p.kind == "text" and p.text)


class MessageFormatError(ValueError):
    """A message attribute that cannot be read; the span carrying it is reported."""


def as_text(value: Any) -> str:
    """A tool result or other JSON value as the text the judge reads."""
    return (
        value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)
    )


def as_arguments(value: Any) -> dict[str, Any]:
    """Tool call arguments as an object: JSON text is parsed; a non-object is wrapped."""
    if isinstance(value, str):
        try:
            value = bounded_loads(value)
        except (json.JSONDecodeError, InputError):  # kept as the text it was
            return {"arguments": value}
    if value is None:
        return {}
    return dict(value) if isinstance(value, Mapping) else {"arguments": value}


def _json(value: Any, field: str) -> Any:
    if not isinstance(value, str):
        return value
    try:
        return bounded_loads(value)
    except json.JSONDecodeError as exc:
        raise MessageFormatError(f"{field} is not valid JSON: {exc.msg}") from None
    except InputError as exc:
        raise MessageFormatError(f"{field}: {exc}") from None


def _call(call_id: Any, name: Any, arguments: Any) -> Part:
    return Part(
        "tool_call", call_id=call_id, name=str(name or "tool"), arguments=as_arguments(arguments)
    )


def _part(raw: Any) -> Part:
    if not isinstance(raw, Mapping):
        return Part("text", as_text(raw))
    kind = raw.get("type")
    if kind == "text":
        return Part("text", as_text(raw.get("content", "")))
    if kind == "tool_call":
        return _call(raw.get("id"), raw.get("name"), raw.get("arguments"))
    if kind == "tool_call_response":
        return Part("tool_call_response", as_text(raw.get("response")), call_id=raw.get("id"))
    return Part("text", f"[{kind} part]")


def _chat_parts(raw: Mapping[str, Any]) -> tuple[Part, ...]:
    """Parts of a message in the older chat shape."""
    content = raw.get("content")
    if raw.get("role") == "tool" or raw.get("tool_call_id"):
        return (
            Part("tool_call_response", as_text(content or ""), call_id=raw.get("tool_call_id")),
        )
    parts = [Part("text", as_text(content))] if content not in (None, "") else []
    for call in raw.get("tool_calls") or []:
        function = call.get("function", {}) if isinstance(call, Mapping) else {}
        parts.append(_call(call.get("id"), function.get("name"), function.get("arguments")))
    return tuple(parts)


def message(raw: Any, field: str) -> Message:
    if not isinstance(raw, Mapping):
        raise MessageFormatError(f"{field}: a message must be an object, got {type(raw).__name__}")
    role = str(raw.get("role") or "user")
    parts = raw.get("parts")
    if isinstance(parts, list):
        return Message(role, tuple(_part(p) for p in parts))
    return Message(role, _chat_parts(raw))


def messages(value: Any, field: str) -> list[Message]:
    """The messages of one attribute, JSON text or structured (MessageFormatError: not JSON, or
    not a list of message objects)."""
    data = _json(value, field)
    if isinstance(data, Mapping):  # one message, or {"messages": [...]}
        data = data.get("messages", [data])
    if not isinstance(data, list):
        raise MessageFormatError(f"{field} must be a list of messages")
    return [message(m, field) for m in data]


def system_instructions(value: Any, field: str) -> Message:
    """``gen_ai.system_instructions`` (a list of parts, or text) as one system message."""
    if isinstance(value, str) and not value.lstrip().startswith("["):
        return Message("system", (Part("text", value),))
    data = _json(value, field)
    if isinstance(data, str):
        return Message("system", (Part("text", data),))
    if not isinstance(data, list):
        raise MessageFormatError(f"{field} must be a list of parts")
    return Message("system", tuple(_part(p) for p in data))
