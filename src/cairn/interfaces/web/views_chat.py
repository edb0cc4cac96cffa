"""The conversation page: `GET /chat` over the assistant's API (`POST /chat`, server-sent
events, and `POST /chat/approvals/{id}`; cairn.interfaces.rest.routes_chat), plus what makes
the page an installable web app.

- `GET /chat?session=ID&q=WORDS&text=…&url=…&title=…`: the conversation (a resumed session's
  turns when `session` names one), the session list (filtered by `q`, the BM25 search of
  `SessionStore.search`), and the text field `message` prefilled from a share (`text`,
  `url`, `title`: the manifest's share target). The page's script (static/chat.js) posts
  the message to `POST /chat` and shows the streamed reply, the tool calls and `Approve` /
  `Deny` buttons on a pending call.
- `GET /chat/why?session=ID`: what went into the session's last prompt (the `/why` JSON of
  cairn.context.session.load_why), shown behind a disclosure.
- `GET /manifest.webmanifest`, `GET /sw.js`: the web-app manifest (icons, share target) and
  the service worker that keeps an offline shell (static files and the chat page).

Sessions are read through the service's session operations (ops/sessions.py: `sessions`,
`sessions_search`, `session_conversation`, `session_why`): a key acting for a person
(cairn.people) sees only that person's sessions. Errors: an unknown session id shows the
page with the message (404).
"""

from __future__ import annotations

import json

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from cairn.interfaces.web.common import page
from cairn.interfaces.web.deps import HERE, call, service

router = APIRouter()

MANIFEST = {
    "name": "Cairn", "short_name": "Cairn", "id": "/chat", "start_url": "/chat", "scope": "/",
    "display": "standalone", "background_color": "#f6f5f1", "theme_color": "#2f6b55",
    "description": "Your local-first memory: talk to it, search it, keep what matters.",
    "icons": [{"src": "/static/web/icon-192.png", "sizes": "192x192", "type": "image/png"},
              {"src": "/static/web/icon-512.png", "sizes": "512x512", "type": "image/png"},
              {"src": "/static/web/icon-512.png", "sizes": "512x512", "type": "image/png",
               "purpose": "maskable"}],
    "share_target": {"action": "/chat", "method": "GET",
                     "params": {"title": "title", "text": "text", "url": "url"}},
}


def shared_text(title: str, text: str, url: str) -> str:
    """The message a share prefills: the shared title, text and address, one per line, each
    once (a phone often repeats the address inside the text)."""
    parts: list[str] = []
    for part in (title, text, url):
        part = (part or "").strip()
        if part and not any(part in p for p in parts):
            parts.append(part)
    return "\n".join(parts)[:8000]


@router.get("/chat")
def chat_page(request: Request, session: str = "", q: str = "", text: str = "", url: str = "",
              title: str = ""):
    """The conversation (see the module docstring)."""
    from cairn.errors import CairnError
    app = service(request)
    turns, pending, error, status = [], [], None, 200
    if session:
        try:
            shown = call(request, app.session_conversation, session)
            turns, pending = shown["turns"], shown["pending"]
        except CairnError as exc:
            error, status, session = exc.message or str(exc), exc.http_status, ""
    found = call(request, app.sessions_search, q, k=20) if q.strip() else None
    sessions = list(call(request, app.sessions))[:50]
    return page(request, "chat.html", "chat", status_code=status, error=error, session=session,
                turns=turns, pending=pending, sessions=sessions, q=q, found=found,
                draft=shared_text(title, text, url))


@router.get("/chat/why")
def chat_why(request: Request, session: str = ""):
    """The `/why` JSON of the session's last prompt ({"budget", "total_tokens", "bands"});
    404 {"error"} for an unknown session."""
    from cairn.errors import CairnError
    try:
        return JSONResponse(dict(call(request, service(request).session_why, session)))
    except CairnError as exc:
        from cairn.interfaces.web.render import web_words
        return JSONResponse({"error": web_words(exc.message or str(exc))}, status_code=exc.http_status)


@router.get("/manifest.webmanifest")
def manifest():
    """The web-app manifest (name, icons, start page, share target)."""
    return Response(json.dumps(MANIFEST), media_type="application/manifest+json",
                    headers={"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"})


@router.get("/sw.js")
def service_worker():
    """The service worker, served at the root so that its scope is the whole page."""
    return Response((HERE / "static" / "sw.js").read_bytes(), media_type="text/javascript",
                    headers={"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff",
                             "Service-Worker-Allowed": "/"})
