"""The answers every route shares: a JSON problem for the API, a field error for a form, the
413 of a body that is too large."""

from __future__ import annotations

from starlette.responses import JSONResponse, PlainTextResponse, Response

MAX_BODY = 256 * 1024                         # bytes of a request body (413 past it)


def api_error(status: int, message: str, *, expected: str | None = None) -> JSONResponse:
    return JSONResponse({"error": message, "file": None, "line": None, "column": None, "expected": expected,
                         "suggestion": None, "path": None}, status_code=status)


def field_error(message: str, expected: str | None = None, suggestion: str | None = None) -> dict:
    """One form field's error, as the templates show it."""
    return {"message": message, "expected": expected, "suggestion": suggestion}


def general(message: str) -> dict:
    """An error for the box above the form."""
    return {"general": field_error(message)}


def too_large_message(limit: int) -> str:
    return (f"The request is larger than {limit // 1024} KiB, the most this server accepts. A case file is a "
            "few kilobytes; split a very large traveller into boards.")


def too_large_response(path: str, limit: int = MAX_BODY) -> Response:
    message = too_large_message(limit)
    if path.startswith("/api/"):
        return api_error(413, message)
    return PlainTextResponse(message, status_code=413)
