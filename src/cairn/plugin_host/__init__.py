"""Subprocess plugins: tools written in any language, run as separate programs (docs/plugins.md).

- rpc.py: JSON-RPC 2.0 messages, one JSON object per line.
- process.py: one plugin program: start, initialize, calls with timeouts, crash isolation,
  restart with exponential back-off, shutdown.
- host.py: discovery of `cairn-plugin-*` executables and their tools in the tool registry.
"""
