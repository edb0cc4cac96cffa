"""A plugin's log with a size cap: what the plugin writes to stderr, kept to at most
`max_bytes` in `NAME.log` plus one older `NAME.log.1` (rotation, as logging's
RotatingFileHandler does with backupCount=1), so a plugin that prints without end cannot
fill the disk. A single write larger than the cap keeps its last `max_bytes`.

    log = CappedLog(home / "plugins/logs/pyplug.log")
    pump(proc.stderr, log)          # in a thread: copies until the plugin closes stderr
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

LOG_MAX_BYTES = 1_000_000


class CappedLog:
    """Append-only log file `path` of at most `max_bytes`, rotated once to `path.1`."""

    def __init__(self, path: Path, max_bytes: int = LOG_MAX_BYTES) -> None:
        self.path = Path(path)
        self.max_bytes = max_bytes
        self._lock = threading.Lock()

    def write(self, data: bytes) -> None:
        """Append `data`; rotate first when it would pass the cap. OSError (a full disk) is
        swallowed: a plugin's log must never fail the plugin."""
        if not data:
            return
        data = data[-self.max_bytes:]
        with self._lock:
            try:
                size = self.path.stat().st_size if self.path.exists() else 0
                if size and size + len(data) > self.max_bytes:
                    os.replace(self.path, self.path.with_name(self.path.name + ".1"))
                with open(self.path, "ab") as fh:
                    fh.write(data)
            except OSError:
                pass


def pump(stream, log: CappedLog, chunk: int = 65536) -> None:
    """Copy `stream` (a binary pipe) into `log` until end of file; then close the stream."""
    try:
        while True:
            data = stream.read1(chunk) if hasattr(stream, "read1") else stream.read(chunk)
            if not data:
                break
            log.write(data)
    except (OSError, ValueError):
        pass
    finally:
        try:
            stream.close()
        except OSError:
            pass
