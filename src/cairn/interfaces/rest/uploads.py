"""Uploaded files for the REST API: the one naming rule of every door lives in cairn.uploads
(`<home>/uploads/<uuid>/<safe name>`, names that can never leave their folder)."""

from cairn.uploads import safe_name, settle, target, upload_folder  # noqa: F401
