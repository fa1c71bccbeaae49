"""`trainwreck mcp`: parse the options, check the SDK is installed, serve.

Imports nothing of the SDK until the server starts, so a missing extra gets one
line, not a traceback.
"""

from __future__ import annotations

import click

from trainwreck.errors import UsageError
from trainwreck.mcp_server.inputs import Policy
from trainwreck.mcp_server.network import forbid_network, parse_http


@click.command("mcp")
@click.option(
    "--allow",
    "allowed",
    multiple=True,
    metavar="PATH",
    help="Let tools read files under PATH (repeatable). Default: no file reads; agents pass text.",
)
@click.option(
    "--online", is_flag=True, help="Permit network access (default: every connection is refused)."
)
@click.option(
    "--http",
    "http",
    metavar="HOST:PORT",
    help="Serve streamable HTTP on HOST:PORT instead of stdio (loopback only by default).",
)
@click.option(
    "--allow-remote", is_flag=True, help="Permit --http on a non-loopback address (no auth!)."
)
def mcp_command(
    allowed: tuple[str, ...], online: bool, http: str | None, allow_remote: bool
) -> None:
    """Serve trainwreck's tools to coding agents over the Model Context Protocol.

    \b
    Tools: diagnose_failure, search_knowledge, get_page, query_hyperparameter_priors,
    propose_hypothesis, check_config, estimate_memory.
    \b
    Examples:
      trainwreck mcp
      trainwreck mcp --allow ~/runs
      trainwreck mcp --http 127.0.0.1:8765
    """
    address = parse_http(http, allow_remote) if http else None
    try:
        from trainwreck.mcp_server.server import build
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] != "mcp":
            raise
        raise UsageError(
            "the MCP server needs the MCP SDK: pip install 'trainwreck[mcp]'"
        ) from None
    policy = Policy.from_options(allowed, online)
    if not policy.online:
        forbid_network(address[0] if address else None)
    server = build(policy)
    if address is None:
        server.run()
    else:
        server.run("streamable-http", host=address[0], port=address[1])
