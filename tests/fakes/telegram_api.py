"""A fake Telegram Bot API server on loopback for tests (standard library only).

It speaks the real HTTP protocol that python-telegram-bot uses (POST /bot<token>/<method>
with form fields whose values are JSON, GET /file/bot<token>/<path>), so the library's
base URL can point at it. Supported: getMe, deleteWebhook, getUpdates (long polling),
sendMessage (checks the 4096 limit and, for parse_mode HTML, that the tags are balanced,
answering 400 like Telegram otherwise), sendVoice (multipart/form-data upload; the audio is
kept in `voices`, answering 400 unless it is an OGG file), answerCallbackQuery, getFile,
file downloads.

    with FakeBotAPI(token) as api:
        api.push_text(user_id=1, text="hello")      # an update from a person
        api.wait_sent(1)                            # messages the bot sent, as dicts
"""

from __future__ import annotations

import json
import re
import time
from html.parser import HTMLParser
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, unquote

from fakes.loopback import LoopbackChatServer

ALLOWED_TAGS = {"b", "strong", "i", "em", "u", "s", "code", "pre", "a", "blockquote", "tg-spoiler"}


class _Balance(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.error, self.text = [], None, []

    def handle_starttag(self, tag, attrs):
        if tag not in ALLOWED_TAGS:
            self.error = f"unsupported start tag \"{tag}\""
        self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.error = f"can't find end tag corresponding to start tag \"{tag}\""
        else:
            self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def check_html(text: str) -> tuple[str | None, str]:
    """(error or None, the text after entity parsing)."""
    p = _Balance()
    p.feed(text)
    p.close()
    if p.stack and not p.error:
        p.error = f"can't find end of the entity starting with tag \"{p.stack[-1]}\""
    return p.error, "".join(p.text)


def multipart(ctype: str, body: bytes) -> dict:
    """Form fields of a multipart/form-data body: text values JSON-decoded when they parse,
    file parts as {"filename", "content_type", "data"}."""
    from email.parser import BytesParser
    from email.policy import HTTP
    msg = BytesParser(policy=HTTP).parsebytes(f"Content-Type: {ctype}\r\n\r\n".encode() + body)
    out: dict = {}
    for part in msg.iter_parts():
        name = part.get_param("name", header="content-disposition")
        data = part.get_payload(decode=True) or b""
        if part.get_filename() is not None:
            out[name] = {"filename": part.get_filename(), "content_type": part.get_content_type(), "data": data}
            continue
        text = data.decode()
        try:
            out[name] = json.loads(text)
        except ValueError:
            out[name] = text
    return out


class FakeBotAPI(LoopbackChatServer):
    def __init__(self, token: str):
        super().__init__()
        self.token = token
        self.updates: list[dict] = []
        self.voices: list[dict] = []  # sendVoice calls: their fields, the file under "voice"
        self.calls: list[tuple[str, dict]] = []
        self.files: dict[str, bytes] = {}
        self.reject_html = 0  # refuse this many HTML messages with "can't parse entities"
        self.forbid_voice = False  # refuse voice messages as for a person who forbids them
        self._next_update = 1
        self._next_msg = 100
        api = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def _reply(self, status, obj=None, raw: bytes | None = None):
                body = raw if raw is not None else json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/octet-stream" if raw is not None else "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                m = re.fullmatch(r"/file/bot([^/]+)/(.+)", unquote(self.path))
                if m and m.group(1) == api.token and m.group(2) in api.files:
                    return self._reply(200, raw=api.files[m.group(2)])
                self._reply(404, {"ok": False, "error_code": 404, "description": "Not Found"})

            def do_POST(self):
                m = re.fullmatch(r"/bot([^/]+)/(\w+)", unquote(self.path))
                if not m or m.group(1) != api.token:
                    return self._reply(401, {"ok": False, "error_code": 401, "description": "Unauthorized"})
                n = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(n) if n else b""
                ctype = self.headers.get("Content-Type", "")
                if ctype.startswith("multipart/form-data"):
                    status, obj = api.handle(m.group(2), multipart(ctype, body))
                    return self._reply(status, obj)
                raw = body.decode()
                params = {}
                if "json" in ctype and raw:
                    params = json.loads(raw)
                elif raw:
                    for k, v in parse_qs(raw, keep_blank_values=True).items():
                        try:
                            params[k] = json.loads(v[0])
                        except ValueError:
                            params[k] = v[0]
                status, obj = api.handle(m.group(2), params)
                self._reply(status, obj)

        self._listen(Handler)

    # --------------------------------------------------------------- protocol
    def handle(self, method: str, p: dict) -> tuple[int, dict]:
        self.calls.append((method, p))
        ok = lambda result: (200, {"ok": True, "result": result})  # noqa: E731
        if method == "getMe":
            return ok({"id": 4242, "is_bot": True, "first_name": "Cairn", "username": "cairn_test_bot",
                       "can_join_groups": False, "can_read_all_group_messages": False,
                       "supports_inline_queries": False})
        if method in ("deleteWebhook", "setMyCommands", "answerCallbackQuery", "editMessageReplyMarkup"):
            return ok(True)
        if method == "getUpdates":
            offset = int(p.get("offset") or 0)
            deadline = time.time() + min(float(p.get("timeout") or 0), 2.0)
            with self._cond:
                while True:
                    ready = [u for u in self.updates if u["update_id"] >= offset]
                    if ready or time.time() >= deadline:
                        return ok(ready)
                    self._cond.wait(max(0.01, deadline - time.time()))
        if method == "sendMessage":
            text = str(p.get("text", ""))
            parsed = text
            if p.get("parse_mode") == "HTML":
                if self.reject_html > 0:
                    self.reject_html -= 1
                    return 400, {"ok": False, "error_code": 400,
                                 "description": "Bad Request: can't parse entities: test refusal"}
                error, parsed = check_html(text)
                if error:
                    return 400, {"ok": False, "error_code": 400, "description": f"Bad Request: can't parse entities: {error}"}
            if len(parsed.encode("utf-16-le")) // 2 > 4096:
                return 400, {"ok": False, "error_code": 400, "description": "Bad Request: message is too long"}
            with self._cond:
                self._next_msg += 1
                msg = {"message_id": self._next_msg, "date": int(time.time()),
                       "chat": {"id": int(p["chat_id"]), "type": "private"}, "text": parsed,
                       "from": {"id": 4242, "is_bot": True, "first_name": "Cairn"}}
                self.sent.append({**p, "parsed": parsed})
                self._cond.notify_all()
            return ok(msg)
        if method == "sendVoice":
            voice = p.get("voice")
            if self.forbid_voice:
                return 400, {"ok": False, "error_code": 400, "description": "Bad Request: VOICE_MESSAGES_FORBIDDEN"}
            if not isinstance(voice, dict) or not voice["data"].startswith(b"OggS"):
                return 400, {"ok": False, "error_code": 400, "description": "Bad Request: wrong file type for a voice message"}
            with self._cond:
                self._next_msg += 1
                fid = f"sent-voice-{self._next_msg}"
                msg = {"message_id": self._next_msg, "date": int(time.time()),
                       "chat": {"id": int(p["chat_id"]), "type": "private"},
                       "voice": {"file_id": fid, "file_unique_id": fid, "duration": int(p.get("duration") or 1),
                                 "mime_type": "audio/ogg", "file_size": len(voice["data"])},
                       "from": {"id": 4242, "is_bot": True, "first_name": "Cairn"}}
                self.voices.append(p)
                self.sent.append({**p, "parsed": f"(voice {len(voice['data'])} bytes)"})
                self._cond.notify_all()
            return ok(msg)
        if method == "getFile":
            fid = str(p.get("file_id"))
            if fid not in self.files:
                return 400, {"ok": False, "error_code": 400, "description": "Bad Request: invalid file_id"}
            return ok({"file_id": fid, "file_unique_id": fid, "file_size": len(self.files[fid]), "file_path": fid})
        return 400, {"ok": False, "error_code": 400, "description": f"Bad Request: method {method} not faked"}

    # --------------------------------------------------------------- test side
    def _push(self, update: dict) -> None:
        with self._cond:
            update["update_id"] = self._next_update
            self._next_update += 1
            self.updates.append(update)
            self._cond.notify_all()

    @staticmethod
    def _user(uid: int) -> dict:
        return {"id": uid, "is_bot": False, "first_name": f"user{uid}"}

    def _message(self, uid: int, **extra) -> dict:
        self._next_msg += 1
        return {"message_id": self._next_msg, "date": int(time.time()), "from": self._user(uid),
                "chat": {"id": uid, "type": "private"}, **extra}

    def push_text(self, user_id: int, text: str) -> None:
        self._push({"message": self._message(user_id, text=text)})

    def push_file(self, user_id: int, kind: str, data: bytes, file_id: str, **fields) -> None:
        self.files[file_id] = data
        media = {"file_id": file_id, "file_unique_id": file_id, "file_size": len(data), **fields}
        if kind == "photo":
            media.update(width=10, height=10)
            self._push({"message": self._message(user_id, photo=[media])})
        else:
            self._push({"message": self._message(user_id, **{kind: media})})

    def push_press(self, user_id: int, data: str) -> None:
        self._push({"callback_query": {"id": f"cq{self._next_update}", "from": self._user(user_id),
                                       "chat_instance": "1", "data": data,
                                       "message": self._message(4242, text="(buttons)")}})
