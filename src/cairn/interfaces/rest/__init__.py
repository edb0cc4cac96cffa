"""The REST API (`cairn serve`): FastAPI routers over `cairn.service.Cairn`, one module per
domain. `create_app(settings_or_home)` in `app.py` builds the application; docs/server.md
lists the endpoints, keys and trust zones."""
