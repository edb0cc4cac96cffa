"""Request-level helpers shared by the routers: the runtime, the caller, scope checks."""

from __future__ import annotations

from fastapi import Depends, Request

from cairn import audit
from cairn.errors import Forbidden
from cairn.tools import SCOPES, scope_allows


def runtime(request: Request):
    """The app's `Runtime` (runtime.py)."""
    return request.app.state.runtime


def principal(request: Request) -> dict:
    """{"actor", "scope", "key_id"} set by security.Guard."""
    return request.scope.get("state", {}).get("principal") or {"actor": "local", "scope": "admin"}


def actor(request: Request) -> str:
    return principal(request)["actor"]


def need(scope: str):
    """A dependency refusing (403, audited for writes) a caller whose key lacks `scope`."""

    def check(request: Request) -> None:
        have = principal(request)["scope"]
        if have not in SCOPES or not scope_allows(have, scope):
            if scope != "read":
                audit.record(request.app.state.runtime.home, actor(request),
                             f"{request.method} {request.url.path}", None, "denied",
                             {"need": scope, "have": have}, principal(request).get("person"))
            raise Forbidden(f"this needs a key with scope {scope!r}; yours has {have!r} "
                            f"(`cairn keys create NAME --scope {scope}`)")

    return Depends(check)


READ, WRITE, ADMIN = need("read"), need("write"), need("admin")
