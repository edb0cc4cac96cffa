"""Page rendering shared by the web views: one `page()` that renders a template with the
navigation context and the security headers every page carries."""

from __future__ import annotations

from fastapi import Request

from cairn.interfaces.web.deps import KEY_COOKIE, caller_scope, templates

# No inline script or style anywhere: the page runs only its own files from /static/web/.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")
HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "same-origin", "Cache-Control": "no-store"}

NAV = (("search", "/", "Search"), ("chat", "/chat", "Chat"), ("ask", "/ask", "Ask"), ("notes", "/notes", "Notes"),
       ("memories", "/memories", "Memories"), ("reminders", "/reminders", "Reminders"),
       ("ingest", "/ingest", "Add"),
       ("status", "/status", "Status"))


def page(request: Request, template: str, section: str, status_code: int = 200, **ctx):
    """Render `template` (a full page extending base.html) with `ctx`; `section` marks the
    current navigation entry."""
    ctx.setdefault("error", None)
    ctx.setdefault("notice", None)
    ctx["signed_in"] = bool(request.cookies.get(KEY_COOKIE))
    # signed in with a read key: every page says so before anything is typed into a form
    # that key may not send (the text was lost on the "Not allowed" page)
    ctx["read_only"] = ctx["signed_in"] and caller_scope(request) == "read"
    return templates.TemplateResponse(request, template, {"nav": NAV, "section": section, **ctx},
                                      status_code=status_code, headers=HEADERS)


def fragment(request: Request, template: str, **ctx) -> str:
    """A template rendered to a string (for streamed parts of a page)."""
    return templates.get_template(template).render(request=request, **ctx)
