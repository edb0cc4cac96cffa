"""A fake Matrix homeserver on loopback for tests (standard library only).

It speaks the client-server API endpoints the bot uses, over real HTTP with bearer-token
auth (401 M_UNKNOWN_TOKEN otherwise): GET /_matrix/client/v3/account/whoami, GET /sync
(long-polled up to 1 s, `since` tokens are stream positions "s<N>"), POST /join/{room},
PUT /rooms/{room}/send/m.room.message/{txn} (idempotent per transaction id, as the spec
requires), POST /_matrix/media/v3/upload (raw bytes -> an mxc:// URI) and GET
/_matrix/client/v1/media/download/{server}/{id} (authenticated media). The test side pushes events from people and reads what the bot sent.

    with FakeHomeserver("tok", bot="@cairn:test") as hs:
        hs.push_text("!room:test", "@me:test", "hello")
        hs.wait_sent(1)
"""

from __future__ import annotations

import json
import re
import time
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, unquote, urlsplit

from fakes.loopback import LoopbackChatServer


class FakeHomeserver(LoopbackChatServer):
    def __init__(self, token: str, bot: str = "@cairn:test"):
        super().__init__()
        self.token, self.bot = token, bot
        self.stream: list[tuple[int, str, str, dict]] = []  # (position, kind, room, event)
        self.joined: list[str] = []
        self.media: dict[str, bytes] = {}  # "mxc://test/ID" -> bytes
        self.syncs = 0
        self._txns: dict[str, str] = {}
        self._pos = 0
        hs = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def _reply(self, status, obj, raw: bytes | None = None):
                body = raw if raw is not None else json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/octet-stream" if raw is not None else "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def _route(self, method):
                if self.headers.get("Authorization") != f"Bearer {hs.token}":
                    return self._reply(401, {"errcode": "M_UNKNOWN_TOKEN", "error": "Invalid access token"})
                url = urlsplit(self.path)
                n = int(self.headers.get("Content-Length") or 0)
                data = self.rfile.read(n) if n else b""
                path = unquote(url.path)
                if method == "POST" and path == "/_matrix/media/v3/upload":
                    uri = f"mxc://test/m{len(hs.media) + 1}"
                    hs.media[uri] = data
                    return self._reply(200, {"content_uri": uri})
                m = re.fullmatch(r"/_matrix/client/v1/media/download/([^/]+)/([^/]+)", path)
                if method == "GET" and m:
                    blob = hs.media.get(f"mxc://{m.group(1)}/{m.group(2)}")
                    if blob is None:
                        return self._reply(404, {"errcode": "M_NOT_FOUND", "error": "Not found"})
                    return self._reply(200, None, raw=blob)
                body = json.loads(data or b"{}") if data else {}
                status, obj = hs.handle(method, unquote(url.path), {k: v[0] for k, v in parse_qs(url.query).items()}, body)
                self._reply(status, obj)

            def do_GET(self):
                self._route("GET")

            def do_POST(self):
                self._route("POST")

            def do_PUT(self):
                self._route("PUT")

        self._listen(Handler)

    # --------------------------------------------------------------- protocol
    def handle(self, method: str, path: str, query: dict, body: dict) -> tuple[int, dict]:
        api = "/_matrix/client/v3"
        if method == "GET" and path == f"{api}/account/whoami":
            return 200, {"user_id": self.bot}
        if method == "GET" and path == f"{api}/sync":
            return 200, self._sync(query)
        m = re.fullmatch(rf"{api}/join/(.+)", path)
        if method == "POST" and m:
            self.joined.append(m.group(1))
            return 200, {"room_id": m.group(1)}
        m = re.fullmatch(rf"{api}/rooms/([^/]+)/send/m\.room\.message/([^/]+)", path)
        if method == "PUT" and m:
            room, txn = m.groups()
            with self._cond:
                if txn not in self._txns:
                    eid = f"$ev{len(self._txns) + 1}:test"
                    self._txns[txn] = eid
                    self.sent.append({"room": room, "txn": txn, "event_id": eid, **body})
                    self._append("join", room, {"type": "m.room.message", "sender": self.bot,
                                                "event_id": eid, "content": body})
                    self._cond.notify_all()
                return 200, {"event_id": self._txns[txn]}
        return 404, {"errcode": "M_UNRECOGNIZED", "error": f"{method} {path} not faked"}

    def _sync(self, q: dict) -> dict:
        since = int(q["since"][1:]) if q.get("since", "").startswith("s") else 0
        deadline = time.time() + min(int(q.get("timeout") or 0) / 1000, 1.0)
        with self._cond:
            self.syncs += 1
            while True:
                new = [e for e in self.stream if e[0] > since]
                if new or time.time() >= deadline:
                    break
                self._cond.wait(max(0.01, deadline - time.time()))
            rooms: dict = {"join": {}, "invite": {}}
            for _, kind, room, ev in new:
                if kind == "invite":
                    rooms["invite"][room] = {"invite_state": {"events": [ev]}}
                else:
                    rooms["join"].setdefault(room, {"timeline": {"events": []}})["timeline"]["events"].append(ev)
            return {"next_batch": f"s{self._pos}", "rooms": rooms}

    def _append(self, kind: str, room: str, ev: dict) -> None:
        self._pos += 1
        ev.setdefault("event_id", f"$in{self._pos}:test")
        ev.setdefault("origin_server_ts", int(time.time() * 1000))
        self.stream.append((self._pos, kind, room, ev))

    # --------------------------------------------------------------- test side
    def push(self, kind: str, room: str, ev: dict) -> str:
        with self._cond:
            self._append(kind, room, ev)
            self._cond.notify_all()
            return ev["event_id"]

    def push_text(self, room: str, sender: str, body: str) -> str:
        return self.push("join", room, {"type": "m.room.message", "sender": sender,
                                        "content": {"msgtype": "m.text", "body": body}})

    def push_voice(self, room: str, sender: str, audio: bytes) -> str:
        uri = f"mxc://test/in{len(self.media) + 1}"
        self.media[uri] = audio
        return self.push("join", room, {"type": "m.room.message", "sender": sender, "content": {
            "msgtype": "m.audio", "body": "voice.ogg", "url": uri, "info": {"mimetype": "audio/ogg"},
            "org.matrix.msc3245.voice": {}}})

    def push_reaction(self, room: str, sender: str, event_id: str, key: str) -> str:
        return self.push("join", room, {"type": "m.reaction", "sender": sender, "content": {
            "m.relates_to": {"rel_type": "m.annotation", "event_id": event_id, "key": key}}})

    def push_invite(self, room: str, sender: str) -> str:
        return self.push("invite", room, {"type": "m.room.member", "sender": sender, "state_key": self.bot,
                                          "content": {"membership": "invite"}})
