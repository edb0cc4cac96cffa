"""The Matrix bot: the client-server API over HTTP (httpx), long-polling `/sync`.

Endpoints used (Matrix client-server API v3):
- `GET /_matrix/client/v3/account/whoami` — the bot's own user id (checks the token);
- `GET /_matrix/client/v3/sync?since=…&timeout=…` — new events, long-polled;
- `POST /_matrix/client/v3/join/{room}` — accept an invite from an allowed person;
- `PUT /_matrix/client/v3/rooms/{room}/send/m.room.message/{txn}` — a reply (markdown in
  `body`, HTML in `formatted_body`, format `org.matrix.custom.html`).

Who may talk: only Matrix user ids in the allow-list (`--allow`, `[matrix] allow`). Anyone
else gets one refusal (remembered in `<home>/matrix/refused.json`) and nothing else; every
refusal is audited; invites from anyone else are not accepted. Messages from allowed people
go to the same conversation as Telegram's (cairn.assistant.channels); a reply that would
carry Approve / Deny buttons ends with "Reply approve ID or deny ID (or react 👍 / 👎)", and
the reply "approve ID" / "deny ID" or a 👍 / 👎 reaction on that message presses the button.
While `run` runs, turns go to the turn lane (in order per room) and the sync thread handles
decisions at once, so an approval never waits behind a long turn (cairn.interfaces.lanes).
Voice: an audio message (`m.audio`, e.g. a voice message) is fetched (authenticated media,
`GET /_matrix/client/v1/media/download/{server}/{id}`), transcribed offline and answered; the
answer is spoken (uploaded with `POST /_matrix/media/v3/upload`, sent as `m.audio` marked as a
voice message) when the message was audio, asked for a spoken answer, or the room said
`/voice on` — the same rules and voice as Telegram's (cairn.assistant.voice).
The first sync only takes the position (older history is not answered); the position is
kept in `<home>/matrix/since.json`, so a restart answers what arrived meanwhile, once.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import threading
import time
from pathlib import Path
from urllib.parse import quote

from cairn import audit
from cairn.interfaces.telegram.bot import REFUSAL, Conversation, Reply
from cairn.interfaces.telegram.format import plain_text, split_message

log = logging.getLogger("cairn.matrix")
USER_ID = re.compile(r"@[^:\s]+:[^\s]+")
DECISION = re.compile(r"\s*(approve|deny)\s+(\S+)\s*", re.I)
REACTIONS = {"👍": "approve", "👍️": "approve", "✅": "approve", "👎": "deny", "👎️": "deny", "❌": "deny"}
MAX_PART = 16000  # characters per message part (events are limited to 64 KiB)


class MatrixBot:
    """The bot for one home. homeserver: the client-server API root ("https://matrix.org");
    token: the bot account's access token; allow: user ids (@name:server); conversation: who
    answers (default: the assistant, channel "matrix"). Raises InvalidInput for a bad
    homeserver URL, an empty token or a malformed user id."""

    def __init__(self, settings, homeserver: str, token: str, allow: list[str],
                 conversation: Conversation | None = None, poll_timeout_ms: int = 30000) -> None:
        from cairn.errors import InvalidInput
        if not re.fullmatch(r"https?://[^\s/]+(/[^\s]*)?", homeserver.strip()):
            raise InvalidInput("the homeserver is a URL such as https://matrix.example.org; give it "
                               "with --homeserver or [matrix] homeserver")
        if not token.strip():
            raise InvalidInput("no Matrix access token: give --token, [matrix] token or CAIRN_MATRIX_TOKEN")
        self.allow = {a.strip() for a in allow if a.strip()}
        self.lanes = None  # set by run(): turns on the turn lane, decisions in the sync thread
        bad = sorted(a for a in self.allow if not USER_ID.fullmatch(a))
        if bad:
            raise InvalidInput(f"Matrix user ids look like @name:server; not: {', '.join(bad)}")
        self.settings = settings
        self.base = homeserver.strip().rstrip("/") + "/_matrix/client/v3"
        self.token = token.strip()
        self.poll_timeout_ms = poll_timeout_ms
        if conversation is None:
            from cairn.assistant.channels import conversation_for
            conversation = conversation_for(settings, channel="matrix")
        self.conversation = conversation
        self.folder = Path(settings.home) / "matrix"
        self.folder.mkdir(parents=True, exist_ok=True)
        self._since_path = self.folder / "since.json"
        self._refused_path = self.folder / "refused.json"
        from cairn.assistant.voice import VoicePrefs
        self.voice_prefs = VoicePrefs(self.folder)
        self.media = homeserver.strip().rstrip("/") + "/_matrix"
        self._asks: dict[str, list[tuple[str, str]]] = {}  # our event id -> its buttons
        # held by a send with buttons from its first PUT until its event id is in _asks, and by a
        # reaction's lookup: a reaction synced while the turn lane is still registering the message
        # it reacts to waits for it instead of finding no buttons (and being dropped)
        self._asks_lock = threading.RLock()
        self._txn = 0
        self.me = ""
        import httpx
        self.http = httpx.Client(headers={"Authorization": f"Bearer {self.token}"},
                                 timeout=httpx.Timeout(30.0, read=poll_timeout_ms / 1000 + 30))

    # --------------------------------------------------------------- protocol
    def _call(self, method: str, path: str, **kw) -> dict:
        from cairn.errors import InvalidInput
        r = self.http.request(method, self.base + path, **kw)
        if r.status_code == 401:
            raise InvalidInput(f"the homeserver refused the access token ({_errcode(r)})")
        r.raise_for_status()
        return r.json()

    def connect(self) -> str:
        """Check the token; returns the bot's user id."""
        self.me = self._call("GET", "/account/whoami")["user_id"]
        return self.me

    def _since(self) -> str:
        try:
            return str(json.loads(self._since_path.read_text())["since"])
        except (OSError, ValueError, KeyError, TypeError):
            return ""

    def sync_once(self) -> int:
        """One `/sync` (long-polled after the first); handles its invites and messages.
        Returns the number of events handled."""
        since = self._since()
        params = {"timeout": str(self.poll_timeout_ms if since else 0)}
        if since:
            params["since"] = since
        data = self._call("GET", "/sync", params=params)
        handled = 0
        if since:
            for room, inv in (data.get("rooms", {}).get("invite") or {}).items():
                handled += self._on_invite(room, inv)
            for room, joined in (data.get("rooms", {}).get("join") or {}).items():
                for ev in (joined.get("timeline") or {}).get("events") or []:
                    handled += self._guarded(room, ev)
        tmp = self._since_path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"since": data["next_batch"]}))
        tmp.replace(self._since_path)
        return handled

    def run(self, stop: threading.Event | None = None) -> None:
        """Sync until `stop` is set (or Ctrl-C); a network failure waits and retries (up to a
        minute apart); a refused token raises InvalidInput."""
        import httpx
        stop = stop or threading.Event()
        if not self.me:
            self.connect()
        from cairn.interfaces.lanes import Lanes
        self.lanes = Lanes(self.settings.assistant.turn_workers, name="cairn-matrix")
        wait = 1.0
        while not stop.is_set():
            try:
                self.sync_once()
                wait = 1.0
            except (httpx.HTTPError, ValueError, KeyError) as exc:
                log.warning("matrix sync failed (%s); retrying in %.0f s", exc, wait)
                stop.wait(wait)
                wait = min(wait * 2, 60.0)
        self.lanes.close()

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self.http.close()

    # --------------------------------------------------------------- gate
    def _allowed(self, room: str, sender: str) -> bool:
        if sender in self.allow:
            return True
        try:
            refused = set(json.loads(self._refused_path.read_text()))
        except (OSError, ValueError):
            refused = set()
        first = sender not in refused
        audit.record(self.settings.home, f"matrix:{sender}", "matrix.refused", sender, "denied", {"first": first})
        if first:
            refused.add(sender)
            self._refused_path.write_text(json.dumps(sorted(refused)))
            self.send(room, Reply(REFUSAL))
        return False

    # --------------------------------------------------------------- events
    def _on_invite(self, room: str, invite: dict) -> int:
        events = (invite.get("invite_state") or {}).get("events") or []
        inviter = next((e.get("sender") for e in events if e.get("type") == "m.room.member"
                        and e.get("state_key") == self.me and (e.get("content") or {}).get("membership") == "invite"), "")
        if inviter not in self.allow:
            audit.record(self.settings.home, f"matrix:{inviter or '?'}", "matrix.invite", room, "denied", {})
            return 0
        self._call("POST", f"/join/{quote(room, safe='')}", json={})
        return 1

    def _guarded(self, room: str, ev: dict) -> int:
        """One event, its failure contained: it is logged and said in the room (once), and
        the next events are still handled (the position moves on: nothing is answered twice)."""
        try:
            return self._on_event(room, ev)
        except Exception as exc:  # noqa: BLE001 - one bad turn must not stop the bot
            log.exception("matrix: handling event %s failed", ev.get("event_id"))
            try:
                self.send(room, Reply(f"Sorry, that failed: {exc}"))
            except Exception:  # noqa: BLE001 - the homeserver is gone too: logged above
                pass
            return 1

    def _on_event(self, room: str, ev: dict) -> int:
        sender = ev.get("sender", "")
        if sender == self.me or ev.get("type") not in ("m.room.message", "m.reaction"):
            return 0
        if not self._allowed(room, sender):
            return 1
        person = f"matrix:{sender}"
        content = ev.get("content") or {}
        if ev["type"] == "m.reaction":
            rel = content.get("m.relates_to") or {}
            action = REACTIONS.get(rel.get("key", ""))
            with self._asks_lock:
                buttons = self._asks.get(rel.get("event_id", ""), [])
                data = next((d for _, d in buttons if d.startswith(f"{action}:")), None) if action else None
                if data:
                    self._asks.pop(rel["event_id"], None)
            if data:
                self.send(room, self.conversation.press(person, data))
            return 1
        if "m.new_content" in content:
            return 0  # edits are not turns
        if content.get("msgtype") == "m.audio":
            return self._on_audio(room, person, content)
        if content.get("msgtype") not in ("m.text", "m.notice"):
            return 0  # files and images: not (yet) on Matrix
        text = str(content.get("body") or "")
        m = DECISION.fullmatch(text)
        from cairn.assistant.voice import voice_command
        setting = voice_command(self.voice_prefs, room, text)
        if setting is not None:
            self.send(room, Reply(setting))
        elif m:
            self.send(room, self.conversation.press(person, f"{m.group(1).lower()}:{m.group(2)}"))
        else:
            self._turn(room, lambda: self.answer(room, text, self.conversation.reply(person, text)))
        return 1

    def _turn(self, room: str, work) -> None:
        """Run `work()` (a turn and its answer): on the turn lane while `run` runs, in order per
        room, so the sync thread goes on to decisions (approve / deny, reactions) at once;
        directly otherwise. A failure is logged and said in the room."""
        if self.lanes is None:
            work()
            return

        def guarded() -> None:
            try:
                work()
            except Exception as exc:  # noqa: BLE001 - one bad turn must not stop the bot
                log.exception("matrix: a turn in %s failed", room)
                try:
                    self.send(room, Reply(f"Sorry, that failed: {exc}"))
                except Exception:  # noqa: BLE001 - the homeserver is gone too: logged above
                    pass
        self.lanes.submit_turn(room, guarded)

    def _on_audio(self, room: str, person: str, content: dict) -> int:
        self._turn(room, lambda: self._audio_turn(room, person, content))
        return 1

    def _audio_turn(self, room: str, person: str, content: dict) -> None:
        from cairn.interfaces.telegram.bot import MAX_FILE_BYTES, transcribe
        m = re.fullmatch(r"mxc://([^/]+)/([\w-]+)", str(content.get("url") or ""))
        try:
            if not m:
                raise ValueError("the message has no media address (an encrypted file?)")
            r = self.http.get(f"{self.media}/client/v1/media/download/{m.group(1)}/{m.group(2)}")
            r.raise_for_status()
            if len(r.content) > MAX_FILE_BYTES:
                raise ValueError(f"the audio is {len(r.content)} bytes; at most {MAX_FILE_BYTES}")
            text = transcribe(r.content)
        except Exception as exc:  # noqa: BLE001 - said to the person, nothing stored
            self.send(room, Reply(f"I could not understand that voice message: {exc}"))
            return
        if not text:
            self.send(room, Reply("I heard no speech in that voice message."))
            return
        self.answer(room, text, self.conversation.reply(person, text), spoken_in=True)

    def answer(self, room: str, asked: str, reply: Reply, spoken_in: bool = False) -> list[str]:
        """Send `reply` to the message `asked`: spoken when wanted (see the module docstring;
        buttons follow as text), else as text, with a note when a voice could not be made."""
        from cairn.assistant.voice import Speech, spoken_reply
        speech = spoken_reply(self.settings, self.voice_prefs, room, asked, reply.text, spoken_in)
        heard = f"*You said:* {asked}\n\n" if spoken_in else ""
        if isinstance(speech, Speech):
            ids = [self.send_voice(room, speech, f"You said: {asked}" if spoken_in else "Voice reply")]
            return ids + (self.send(room, reply) if reply.buttons else [])
        note = f"\n\n*{speech}*" if isinstance(speech, str) else ""
        return self.send(room, Reply(f"{heard}{reply.text}{note}", reply.buttons))

    def send_voice(self, room: str, speech, body: str) -> str:
        """Upload `speech` (cairn.assistant.voice.Speech) and send it as a voice message
        (`m.audio` with the MSC3245 voice marker); `body` is its text. Returns the event id."""
        up = self.http.post(f"{self.media}/media/v3/upload", params={"filename": "reply.ogg"},
                            content=speech.audio, headers={"Content-Type": speech.mime})
        up.raise_for_status()
        ms = int(speech.seconds * 1000)
        content = {"msgtype": "m.audio", "body": body, "url": up.json()["content_uri"],
                   "info": {"mimetype": speech.mime, "size": len(speech.audio), "duration": ms},
                   "org.matrix.msc1767.audio": {"duration": ms}, "org.matrix.msc3245.voice": {}}
        self._txn += 1
        return self._call("PUT", f"/rooms/{quote(room, safe='')}/send/m.room.message/"
                                 f"cairn{time.time_ns()}.{self._txn}", json=content)["event_id"]

    # --------------------------------------------------------------- sending
    def send(self, room: str, reply: Reply) -> list[str]:
        """Send `reply` to `room` (split under MAX_PART characters; buttons become the line
        "Reply approve ID or deny ID (or react 👍 / 👎)" on the last part). Returns event ids."""
        text = reply.text
        ids = [d.partition(":")[2] for _, d in reply.buttons if d.startswith("approve:")]
        if ids:
            text += "\n\n" + "; ".join(f"Reply `approve {i}` or `deny {i}`" for i in ids) + " (or react 👍 / 👎)."
        out = []
        with self._asks_lock if reply.buttons else contextlib.nullcontext():
            for part in split_message(text, MAX_PART):
                self._txn += 1
                txn = f"cairn{time.time_ns()}.{self._txn}"
                body = {"msgtype": "m.text", "body": plain_text(part), "format": "org.matrix.custom.html",
                        "formatted_body": part}
                r = self._call("PUT", f"/rooms/{quote(room, safe='')}/send/m.room.message/{txn}", json=body)
                out.append(r["event_id"])
            if reply.buttons and out:
                self._asks[out[-1]] = list(reply.buttons)
        return out


def _errcode(r) -> str:
    try:
        return str(r.json().get("errcode") or r.status_code)
    except ValueError:
        return str(r.status_code)

