"""The published OpenAPI 3.1 document and the /docs page (Swagger UI from the installed
package, no CDN). The document is completed so that what is documented is what is sent: models
routes read themselves are published as components, and every error answer, the request
guard's refusals included, is the one :class:`judge.server.api.errors.ErrorPublic` body.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request, Response
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, TypeAdapter
from swagger_ui_bundle import swagger_ui_path

from judge.server.api.errors import ErrorPublic, error_responses

REF = "#/components/schemas/{model}"
#: Models published as components although no route declares them as a body or a model.
_PUBLISHED: dict[str, type[BaseModel]] = {}
DOCS_ASSETS = {
    "swagger-ui-bundle.js": "text/javascript",
    "swagger-ui.css": "text/css",
    "favicon-32x32.png": "image/png",
}
DOCS_STATIC = "/docs/static"
_GUARD = {
    413: "The body is larger than `JUDGE_MAX_BODY_BYTES`.",
    429: "Too many runs submitted with this key, or too many refused credentials from this address "
    "(Retry-After).",
}
_DOCS_CACHING = {"Cache-Control": "public, max-age=86400"}
_DROPPED = ("HTTPValidationError", "ValidationError")


def component_ref(model: type[BaseModel]) -> dict[str, str]:
    """A ``$ref`` to ``model``, which is then published among the components."""
    _PUBLISHED[model.__name__] = model
    return {"$ref": REF.format(model=model.__name__)}


def _publish(schema: dict[str, Any]) -> None:
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    for name, model in _PUBLISHED.items():
        published = TypeAdapter(model).json_schema(ref_template=REF)
        for inner, definition in published.pop("$defs", {}).items():
            components.setdefault(inner, definition)
        components[name] = published


def _document_errors(operation: dict[str, Any]) -> None:
    responses = operation.setdefault("responses", {})
    standard = error_responses(401, 422, 503)
    wanted = {
        422: str(standard[422]["description"]),
        429: _GUARD[429],
        503: str(standard[503]["description"]),
    }
    if "security" in operation or "requestBody" in operation:
        wanted[401] = str(standard[401]["description"])
    if "requestBody" in operation:
        wanted[413] = _GUARD[413]
    for status, description in wanted.items():
        responses.setdefault(str(status), {"description": description})
    for status, answer in responses.items():
        if status.startswith(("4", "5")):  # what the guard and the error handlers send
            answer["content"] = {"application/json": {"schema": component_ref(ErrorPublic)}}


def complete(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with its components published and every error answer documented as sent."""
    for methods in schema.get("paths", {}).values():
        for operation in methods.values():
            _document_errors(operation)
    _publish(schema)
    components = schema["components"]["schemas"]
    for name in _DROPPED:
        components.pop(name, None)
    return schema


def install_openapi(app: FastAPI) -> None:
    """Serve the completed document at /openapi.json and Swagger UI at /docs."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = complete(build())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    _serve_docs(app)


def _serve_docs(app: FastAPI) -> None:
    # plain Starlette routes, as FastAPI mounts its own docs: public pages outside the API
    async def docs(_request: Request) -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title=f"{app.title} API",
            swagger_js_url=f"{DOCS_STATIC}/swagger-ui-bundle.js",
            swagger_css_url=f"{DOCS_STATIC}/swagger-ui.css",
            swagger_favicon_url=f"{DOCS_STATIC}/favicon-32x32.png",
        )

    async def docs_asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in DOCS_ASSETS:
            raise HTTPException(404, f"no docs asset {name!r}")
        data = (Path(str(swagger_ui_path)) / name).read_bytes()
        return Response(data, media_type=DOCS_ASSETS[name], headers=_DOCS_CACHING)

    app.add_route("/docs", docs, methods=["GET"], include_in_schema=False)
    app.add_route(DOCS_STATIC + "/{name}", docs_asset, methods=["GET"], include_in_schema=False)
