"""The OpenAPI 3.1 document, generated from the endpoint declarations and their models."""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel

from mnemex.interfaces.http.endpoint import Endpoint
from mnemex.interfaces.http.schemas import ErrorBody

_REF = "#/components/schemas/{model}"
_PATH_PARAM = re.compile(r"{(\w+)}")
_ERRORS = {
    "400": "Bad input: the message names the field and the limit",
    "401": "Missing or invalid bearer token",
    "404": "No such record for this tenant",
    "413": "Body over the size limit",
    "422": "Body or query does not match the schema",
}


def _schema(model: type[BaseModel], components: dict[str, Any]) -> dict[str, Any]:
    """A $ref to `model`, adding it (and the models it uses) to the components."""
    schema = model.model_json_schema(ref_template=_REF)
    components.update(schema.pop("$defs", {}))
    components[model.__name__] = schema
    return {"$ref": _REF.format(model=model.__name__)}


def _query_parameters(model: type[BaseModel]) -> list[dict[str, Any]]:
    schema = model.model_json_schema(ref_template=_REF)
    required = set(schema.get("required", []))
    return [
        {"name": name, "in": "query", "required": name in required, "schema": prop}
        for name, prop in schema["properties"].items()
    ]


def _operation(endpoint: Endpoint, components: dict[str, Any]) -> dict[str, Any]:
    parameters = [
        {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
        for name in _PATH_PARAM.findall(endpoint.path)
    ]
    if endpoint.query is not None:
        parameters += _query_parameters(endpoint.query)
    error = {"content": {"application/json": {"schema": {"$ref": _REF.format(model="ErrorBody")}}}}
    responses: dict[str, Any] = {
        str(endpoint.status): {
            "description": "Success",
            "content": {endpoint.media_type: {"schema": {}}},
        },
        **{status: {"description": text, **error} for status, text in _ERRORS.items()},
    }
    operation: dict[str, Any] = {
        "operationId": endpoint.handler.__module__.rsplit(".", 1)[-1]
        + "_"
        + endpoint.handler.__name__,
        "summary": endpoint.summary,
        "tags": [endpoint.tag],
        "parameters": parameters,
        "responses": responses,
    }
    if endpoint.body is not None:
        operation["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": _schema(endpoint.body, components)}},
        }
    return operation


def document(endpoints: list[Endpoint], version: str) -> dict[str, Any]:
    """The whole document; `/health` and the document itself are listed as unauthenticated."""
    components: dict[str, Any] = {}
    _schema(ErrorBody, components)
    paths: dict[str, Any] = {}
    for endpoint in endpoints:
        paths.setdefault(endpoint.path, {})[endpoint.method.lower()] = _operation(
            endpoint, components
        )
    paths["/health"] = {
        "get": {
            "operationId": "health",
            "summary": "Store and model status (no token needed)",
            "tags": ["upkeep"],
            "security": [],
            "responses": {"200": {"description": "Healthy"}, "503": {"description": "Degraded"}},
        }
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "Mnemex", "version": version},
        "paths": paths,
        "components": {
            "schemas": components,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
        "security": [{"bearer": []}, {}],
    }
