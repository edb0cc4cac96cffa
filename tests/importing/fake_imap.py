"""A small IMAP4rev1 server on loopback for the tests of `cairn import imap`: it speaks the
real protocol (RFC 3501 tagged commands, untagged responses, literals) for the commands a
read-only client needs: CAPABILITY, LOGIN, SELECT, EXAMINE, UID SEARCH (ALL, or UID n:* with
RFC 3501's meaning: "*" is the highest UID, so n:* always holds the newest message), UID
FETCH, CLOSE, LOGOUT; anything else is answered BAD. Every command received is logged in
`commands` and every UID set fetched in `fetched`, so a test can show that nothing changing
the mailbox was sent and which messages were read. A message's UID is its place in its
folder's list, from 1; `uidvalidity` can be changed between sessions."""

from __future__ import annotations

import re
import socketserver
import threading


class FakeImap:
    def __init__(self, folders: dict[str, list[bytes]], user="ana", password="s3cret", uidvalidity=7):
        self.folders, self.user, self.password, self.uidvalidity = folders, user, password, uidvalidity
        self.commands: list[str] = []
        self.fetched: list[str] = []
        owner = self

        class Handler(socketserver.StreamRequestHandler):
            def handle(self):
                owner._session(self.rfile, self.wfile)

        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    def _session(self, rfile, wfile):
        def send(line: bytes):
            wfile.write(line + b"\r\n")
            wfile.flush()
        send(b"* OK [CAPABILITY IMAP4rev1] fake ready")
        selected = None
        while True:
            line = rfile.readline()
            if not line:
                return
            text = line.decode().rstrip("\r\n")
            tag, _, rest = text.partition(" ")
            cmd, _, args = rest.partition(" ")
            cmd = cmd.upper()
            if cmd == "UID":
                sub, _, args = args.partition(" ")
                cmd = "UID " + sub.upper()
            self.commands.append(cmd if cmd != "LOGIN" else "LOGIN")
            if cmd == "CAPABILITY":
                send(b"* CAPABILITY IMAP4rev1")
                send(f"{tag} OK done".encode())
            elif cmd == "LOGIN":
                user, password = [a.strip('"') for a in re.findall(r'"(?:[^"\\]|\\.)*"|\S+', args)][:2]
                send(f"{tag} {'OK' if (user, password) == (self.user, self.password) else 'NO'} login".encode())
            elif cmd in ("SELECT", "EXAMINE"):
                name = args.strip().strip('"')
                if name not in self.folders:
                    send(f"{tag} NO no such mailbox".encode())
                    continue
                selected = name
                send(f"* {len(self.folders[name])} EXISTS".encode())
                send(f"* OK [UIDVALIDITY {self.uidvalidity}] uids valid".encode())
                send(f"{tag} OK [{'READ-ONLY' if cmd == 'EXAMINE' else 'READ-WRITE'}] done".encode())
            elif cmd == "UID SEARCH" and selected:
                top = len(self.folders[selected])
                found = list(range(1, top + 1))
                m = re.fullmatch(r"UID (\d+):\*", args.strip(), re.IGNORECASE)
                if m:  # n:* is the range between n and the highest UID, whichever is larger
                    low = min(int(m.group(1)), top)
                    found = [u for u in found if u >= low]
                uids = " ".join(str(u) for u in found)
                send(f"* SEARCH {uids}".encode())
                send(f"{tag} OK done".encode())
            elif cmd == "UID FETCH" and selected:
                wanted, _, _what = args.partition(" ")
                self.fetched.append(wanted)
                for uid in [int(u) for u in wanted.split(",")]:
                    data = self.folders[selected][uid - 1]
                    wfile.write(f"* {uid} FETCH (UID {uid} BODY[] {{{len(data)}}}\r\n".encode() + data + b")\r\n")
                send(f"{tag} OK done".encode())
            elif cmd == "CLOSE":
                selected = None
                send(f"{tag} OK done".encode())
            elif cmd == "LOGOUT":
                send(b"* BYE bye")
                send(f"{tag} OK done".encode())
                return
            else:
                send(f"{tag} BAD unknown".encode())
