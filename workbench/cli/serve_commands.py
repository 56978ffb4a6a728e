"""``workbench serve`` (HTTP API, port 3000) and ``workbench tools`` (MCP tool server, port 3001).

Both wait for the database first (one log line while waiting, retry with backoff; see
``workbench.notes.service.startup``), apply pending migrations, then serve with uvicorn. With no
token configured, the first start creates one under ``$WORKBENCH_HOME`` and prints it.

Exit codes: 0 stopped normally, 1 the database did not come up or a migration failed, 2 bad
settings (malformed token variables or files, a malformed ``DATABASE_URL``, a ``WORKBENCH_HOME``
that is a file or not writable), reported in one line without a traceback.
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import sys

for _module in ("fastapi", "uvicorn", "mcp", "psycopg_pool"):
    # checked without importing them (that would slow every other command down); a missing one
    # makes `workbench --help` list these commands as unavailable with the install hint
    if importlib.util.find_spec(_module) is None:
        raise ModuleNotFoundError(f"No module named {_module!r}", name=_module)

__all__ = ["DEFAULT_API_PORT", "DEFAULT_TOOLS_PORT", "register"]

DEFAULT_API_PORT = 3000
DEFAULT_TOOLS_PORT = 3001
EXIT_OK, EXIT_FAILED = 0, 1
_log = logging.getLogger("workbench.notes.service")


def _prepare(what: str):  # -> Services or None
    from workbench.errors import NoteStoreError, SettingError
    from workbench.notes.service.auth import load_tokens
    from workbench.notes.service.services import start_services
    from workbench.notes.service.settings import ServiceSettings

    settings = ServiceSettings.from_env()  # bad values: WorkbenchError, exit 2
    tokens = load_tokens(create=True)
    if tokens.created_token:
        print(
            f"Created an API token (owner 'local', administrator) in {tokens.created_file}:\n"
            f"  {tokens.created_token}\n"
            f"Send it as 'Authorization: Bearer <token>'. It is not printed again.",
            flush=True,
        )
    else:
        _log.info("%s: API tokens from %s", what, ", ".join(tokens.sources))
    try:
        return start_services(settings, tokens)
    except SettingError:
        raise  # bad settings: one line and exit 2 (workbench.cli.main)
    except NoteStoreError as exc:
        print(f"error: {what} not started: {exc}", file=sys.stderr)
        return None


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from workbench.notes.service.app import create_app
    from workbench.notes.service.protocol import JsonErrorH11Protocol

    services = _prepare("API")
    if services is None:
        return EXIT_FAILED
    uvicorn.run(
        create_app(services),
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        http=JsonErrorH11Protocol,
    )
    return EXIT_OK


def _tools(args: argparse.Namespace) -> int:
    import uvicorn

    from workbench.notes.service.protocol import JsonErrorH11Protocol
    from workbench.notes.service.tools import create_tools_app

    services = _prepare("tool server")
    if services is None:
        return EXIT_FAILED
    app = create_tools_app(services, host=args.host, port=args.port, public_url=args.public_url)
    uvicorn.run(
        app, host=args.host, port=args.port, log_level=args.log_level, http=JsonErrorH11Protocol
    )
    return EXIT_OK


def _common(parser: argparse.ArgumentParser, port: int) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="interface (default %(default)s)")
    parser.add_argument("--port", type=int, default=port, help="TCP port (default %(default)s)")
    parser.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="uvicorn log level (default %(default)s)",
    )


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``serve`` and ``tools`` commands."""
    serve = subparsers.add_parser(
        "serve",
        help="run the note search HTTP API (uvicorn)",
        description="Serve the note search HTTP API after the database is up. "
        "Tokens: WORKBENCH_API_TOKENS, WORKBENCH_ADMIN_TOKEN, WORKBENCH_TOKENS_FILE.",
    )
    _common(serve, DEFAULT_API_PORT)
    serve.set_defaults(func=_serve)

    tools = subparsers.add_parser(
        "tools",
        help="run the MCP tool server (search_notes over streamable HTTP at /mcp)",
        description="Serve the MCP tool server after the database is up; same tokens as 'serve'.",
    )
    _common(tools, DEFAULT_TOOLS_PORT)
    tools.add_argument(
        "--public-url",
        default=None,
        help="base URL clients use, announced as token issuer (default http://HOST:PORT)",
    )
    tools.set_defaults(func=_tools)
