"""Backup and restore of the whole home, the operations of `cairn.service.Cairn`: backup,
restore, backup_daily. A mixin: `self` is the Cairn. The snapshot format, its checks and
the swap are store/backup.py's; here the store (SQLite or PostgreSQL) is chosen and the
index is reconciled with the restored vault."""

from __future__ import annotations

from pathlib import Path

from cairn import results as R


class BackupOps:
    """Snapshots of the home: take one, restore one, keep N daily ones."""

    def _pg_url(self) -> str | None:
        return self.conn.url if self.on_postgres else None

    def _backup_dir(self) -> Path:
        return (self.settings.home / Path(self.settings.backup.dir).expanduser()).resolve()

    def backup(self, to: str | Path) -> R.BackupTaken:
        """Write one consistent snapshot of the home under folder `to` while the server may
        keep writing (store.backup.snapshot); returns {"snapshot": path, "files": n}.
        Raises InvalidInput for an empty folder path or a folder inside the vault, BackupFailed
        when pg_dump fails."""
        from cairn.store.backup import snapshot
        from cairn.validate import check_given
        check_given(to, "the backup folder path")
        path = snapshot(self.settings.home, self.settings.vault, Path(to), pg_url=self._pg_url(),
                        pg_bin=self.settings.backup.pg_bin, skip=self._backup_dir())
        import json
        count = len(json.loads((path / "manifest.json").read_text(encoding="utf-8"))["files"])
        return R.BackupTaken(snapshot=str(path), files=count)

    def backup_verify(self, snapshot: str | Path) -> R.BackupChecked:
        """Check a snapshot without restoring it (store.backup.verify): raises BackupDamaged."""
        from cairn.store.backup import verify
        manifest = verify(Path(snapshot), pg_bin=self.settings.backup.pg_bin)
        return R.BackupChecked(snapshot=str(Path(snapshot).resolve()), created=manifest.get("created"),
                               store=manifest.get("store"), files=len(manifest["files"]))

    def restore(self, snapshot: str | Path) -> R.BackupRestored:
        """Check snapshot `snapshot` and, when it passes, replace the home's files and the
        vault with it (what was there goes to `<home>/.restore-previous-<time>/`), then
        reconcile the index with the vault. Raises BackupDamaged with nothing replaced, and
        Conflict with nothing replaced while another process has the home open (a running
        `cairn serve`, worker or chat: the in-use lock of store/locks.py)."""
        from cairn.errors import Conflict
        from cairn.store import locks
        from cairn.store.backup import restore
        pg_url = self._pg_url()
        self.close()  # the index file is about to be replaced
        alone = locks.try_home_alone(self.settings.home)
        if alone is None:
            raise Conflict(f"another Cairn process has the home {self.settings.home} open (a running "
                           "`cairn serve`, worker or chat?): stop it, then restore again; nothing was replaced")
        try:
            done = restore(Path(snapshot), self.settings.home, self.settings.vault, pg_url=pg_url,
                           pg_bin=self.settings.backup.pg_bin)
        finally:
            locks.release(alone)
        report = self.sync()
        return R.BackupRestored(snapshot=done["snapshot"], previous=done["previous"], files=done["files"],
                                sync=report.to_json())

    def backup_daily(self) -> R.BackupTaken | None:
        """With `[backup] keep` > 0: take today's snapshot under `[backup] dir` unless one of
        today (UTC) exists, and delete all but the `keep` newest. None when nothing was due."""
        from datetime import datetime, timezone

        from cairn.store.backup import PREFIX, prune, snapshots
        keep = self.settings.backup.keep
        if keep <= 0:
            return None
        dest = self._backup_dir()
        today = PREFIX + datetime.now(timezone.utc).strftime("%Y%m%d")
        if any(p.name.startswith(today) for p in snapshots(dest)):
            return None
        taken = self.backup(dest)
        prune(dest, keep)
        return taken
