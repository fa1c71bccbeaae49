"""`trainwreck mcp`: the library's answers as Model Context Protocol tools for coding agents.

    server.py    the tools registered on the official SDK's MCPServer
    calls.py     every call: unknown arguments refused, errors as one line, redaction, cap
    bounded.py   the answer-size cap: what is cut, and how to get the rest
    framing.py   stdio: a malformed JSON-RPC line answered with the protocol's error
    answers.py   each tool's body: library call -> Markdown + structured data
    hypotheses.py  propose_hypothesis: engine ranking demoted by tried experiments
    fleet.py     triage and compare_runs: many runs grouped, two runs set side by side
    inputs.py    arguments as data: size and binary checks, the path allow-list
    network.py   no network without --online; loopback-only HTTP by default

The command line that starts it is `trainwreck/cli/mcp.py`. Named `mcp_server`, not
`mcp`, so `import mcp` always means the SDK.
"""
