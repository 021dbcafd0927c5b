"""What every HTTP answer of the API shares: errors are always a 4xx or 5xx JSON body with a
code and a sentence, ``{"error": code, "detail": message}``."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from panal.server.http.request_error import RequestError

__all__ = ["answer_errors"]


def answer_errors(app: FastAPI) -> None:
    """Install the error handlers that turn every refusal into that body."""

    @app.exception_handler(RequestError)
    async def request_error(request: Request, exc: RequestError) -> JSONResponse:
        body = exc.to_json()
        body.pop("type")
        body["error"] = body.pop("code")
        body["detail"] = body.pop("message")
        headers = {}
        if "retry_after" in exc.details:
            headers["Retry-After"] = exc.details["retry_after"]
        return JSONResponse(body, exc.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = []
        for error in exc.errors()[:10]:
            where = ".".join(str(part) for part in error.get("loc", ()) if part != "body")
            problems.append(f"{where or 'body'}: {error.get('msg', 'invalid')}")
        return JSONResponse(
            {"error": "bad_request", "detail": "; ".join(problems) or "invalid request"}, 422
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return JSONResponse(
            {"error": code, "detail": str(exc.detail)}, exc.status_code, headers=exc.headers
        )
