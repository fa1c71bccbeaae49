"""A malformed JSON-RPC line over stdio gets the protocol's error reply (issue 16: it got no
reply at all), and the server keeps serving: raw bytes to a real `trainwreck mcp` process."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from mcp_session import ROOT
from mcp_types import INVALID_REQUEST, jsonrpc_message_adapter
from pydantic import ValidationError

from trainwreck.mcp_server.framing import error_reply
from trainwreck.mcp_server.inputs import MAX_ID_CHARS

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "raw-bytes", "version": "0"},
    },
}
TOKEN = "hf_" + "aBcDeFgHiJkLmNoPqRsTuVwXyZ012345"
LINES = [
    b"{not json\n",
    b"\n",  # a blank line: nothing to answer
    b'{"jsonrpc": "2.0", "id": 7, "method": 5}\n',  # JSON, but no valid request
    b"[1, 2]\n",
    f'{{"token": "{TOKEN}", oops\n'.encode(),
    b'{"jsonrpc": "2.0", "id": "' + b"i" * 5000 + b'", "method": 5}\n',
    json.dumps(INITIALIZE).encode() + b"\n",
]


def _replies() -> list[dict[str, Any]]:
    result = subprocess.run(
        [sys.executable, "-m", "trainwreck", "mcp"],
        input=b"".join(LINES),
        capture_output=True,
        timeout=120,
        cwd=ROOT,
    )
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def test_malformed_lines_get_json_rpc_errors_and_the_server_keeps_serving() -> None:
    replies = _replies()
    errors = [(reply["id"], reply["error"]["code"]) for reply in replies if "error" in reply]
    assert errors == [(None, -32700), (7, -32600), (None, -32600), (None, -32700), (None, -32600)]
    parse_error = replies[0]["error"]
    assert parse_error["message"].startswith("Parse error") and parse_error["data"]["line"]
    assert TOKEN not in json.dumps(replies)  # a quoted line is redacted
    initialized = [reply for reply in replies if reply.get("id") == 1]
    assert len(initialized) == 1 and initialized[0]["result"]["serverInfo"]["name"] == "trainwreck"


@pytest.mark.parametrize(
    ("length", "echoed"),
    [(MAX_ID_CHARS - 1, True), (MAX_ID_CHARS, True), (MAX_ID_CHARS + 1, False)],
)
def test_an_id_is_echoed_up_to_the_id_limit(length: int, echoed: bool) -> None:
    request_id = "i" * length
    with pytest.raises(ValidationError) as raised:
        jsonrpc_message_adapter.validate_json(
            json.dumps({"jsonrpc": "2.0", "id": request_id, "method": 5})
        )
    reply = error_reply(raised.value)
    assert reply is not None and reply.error.code == INVALID_REQUEST
    assert reply.id == (request_id if echoed else None)
