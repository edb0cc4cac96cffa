"""The Matrix channel (`cairn matrix`, docs/matrix.md): the client-server API over HTTP."""
