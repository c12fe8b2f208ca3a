#!/usr/bin/env python3
"""Drives `replay mcp` with the official MCP Python SDK (`pip install mcp`) as a real client.

Both eras: the SDK's default ('auto': `server/discover`, the 2026-07-28 stateless protocol) and
'legacy' (the `initialize` handshake, 2025-11-25). For each: list the tools and resources, call
every tool on the crash fixture, page a state a level at a time, read a resource, and send bad
arguments — each answer checked by value, each structured result against the tool's declared
output schema (`jsonschema`).

Usage: Scripts/mcp-sdk-check.py [REPLAY_BINARY]   (default: the debug build's replay)
Exit status 0 when every check passed, 1 when one failed; 0 with a message when the SDK cannot
be installed here, unless CI=true, where that is a failure.
"""
import asyncio
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ensure_packages():
    """Imports mcp and jsonschema, installing them with pip when missing."""
    try:
        import mcp  # noqa: F401
        import jsonschema  # noqa: F401
        return True
    except ImportError:
        pass
    result = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "mcp", "jsonschema"],
        capture_output=True, text=True)
    try:
        import mcp  # noqa: F401,F811
        import jsonschema  # noqa: F401,F811
        return True
    except ImportError:
        message = f"mcp-sdk-check: cannot install the MCP SDK: {result.stderr.strip()[-300:]}"
        if os.environ.get("CI") == "true":
            print(message + " (required when CI=true)", file=sys.stderr)
            sys.exit(1)
        print(message + " — skipped", file=sys.stderr)
        sys.exit(0)


failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


async def session(replay, mode):
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters
    import jsonschema

    server = StdioServerParameters(
        command=replay, args=["mcp", os.path.join(ROOT, "Fixtures")], cwd=ROOT)
    async with Client(server, mode=mode) as client:
        era = f"[{mode}]"
        version = client.session.protocol_version
        expected = "2026-07-28" if mode == "auto" else "2025-11-25"
        check(version == expected, f"{era} the protocol version agreed is {expected} ({version})")
        tools = (await client.list_tools()).tools
        names = [tool.name for tool in tools]
        check(names == ["logs", "info", "actions", "action", "state", "diff", "history", "search",
                        "crash", "verify", "where", "profile"], f"{era} tools/list names every tool: {names}")
        schemas = {tool.name: tool.output_schema for tool in tools}

        async def call(name, arguments):
            result = await client.call_tool(name, arguments)
            if not result.is_error and schemas.get(name):
                try:
                    jsonschema.validate(result.structured_content, schemas[name])
                    check(True, f"{era} {name}: result matches its output schema")
                except jsonschema.ValidationError as error:
                    check(False, f"{era} {name}: result breaks its output schema: {error.message}")
            return result

        logs = await call("logs", {"limit": 500})
        log_names = [entry["name"] for entry in logs.structured_content["logs"]]
        check("todo-crash.jsonl" in log_names, f"{era} logs lists todo-crash.jsonl")
        crash_log = {"log": "todo-crash.jsonl"}

        info = await call("info", crash_log)
        check(info.structured_content["actions"] == 38 and info.structured_content["app"] == "todo",
              f"{era} info: 38 actions of the todo app")

        crash = await call("crash", crash_log)
        report = crash.structured_content.get("crash") or {}
        check(report.get("seq") == 38 and report.get("message") == "Index out of range",
              f"{era} crash: action 38, 'Index out of range' ({report.get('message')})")
        check(any(frame.get("file") == "Sources/RewindExamples/Todo.swift" for frame in report.get("frames", [])),
              f"{era} crash: the reducer's frame in Todo.swift")

        actions = await call("actions", {**crash_log, "type": "move", "limit": 5})
        listed = actions.structured_content["actions"]
        check(len(listed) >= 1 and all(action["type"] == "move" for action in listed),
              f"{era} actions: only 'move' actions ({len(listed)})")
        page = await call("actions", {**crash_log, "limit": 10})
        check(page.structured_content.get("nextFrom") == 11, f"{era} actions pages with nextFrom")

        state = await call("state", {**crash_log, "path": "todos", "limit": 2})
        content = state.structured_content
        check(content["position"] == 37 and "note" in content,
              f"{era} state: without 'at', the state before the crashing action, with a note")
        check(len(content["children"]) == 2 and content.get("nextOffset") == 2,
              f"{era} state pages a level: 2 children, nextOffset 2")
        second = await call("state", {**crash_log, "path": "todos", "at": 37, "offset": 2, "limit": 2})
        check(second.structured_content["children"][0]["path"] == "todos[2]",
              f"{era} state: the next page starts at todos[2]")
        title = await call("state", {**crash_log, "path": "todos[0].title", "at": 37})
        check(title.structured_content.get("value") == "牛乳を買う #760",
              f"{era} state: a scalar's value ({title.structured_content.get('value')})")

        history = await call("history", {"log": "todo-session.jsonl", "path": "filter"})
        check(not history.is_error, f"{era} history of filter answers")
        search = await call("search", {"log": "todo-session.jsonl", "query": "Buy milk", "at": 10})
        check(not search.is_error, f"{era} search answers")
        diff = await call("diff", {**crash_log, "to": 5})
        check(not diff.is_error, f"{era} diff of action 5 answers")
        where = await call("where", {"log": "todo-origins.jsonl", "seq": 2})
        site = where.structured_content or {}
        check(site.get("file") == "RewindExamples/TodoScreen.swift" and site.get("line") == 30,
              f"{era} where: the call site TodoScreen.swift:30 ({site})")
        action = await call("action", {"log": "todo-origins.jsonl", "seq": 2})
        check(not action.is_error, f"{era} action answers")
        verify = await call("verify", {"log": "todo-session.jsonl"})
        check(not verify.is_error, f"{era} verify answers")
        profile = await call("profile", {"log": "todo-session.jsonl", "repeat": 1, "top": 3})
        check(not profile.is_error, f"{era} profile answers")

        bad = await client.call_tool("state", {**crash_log, "pth": "todos"})
        check(bad.is_error and "did you mean 'path'" in bad.content[0].text,
              f"{era} a misspelt argument is a tool error with the fix")
        bad = await client.call_tool("state", {**crash_log, "at": 9999})
        check(bad.is_error and "out of range" in bad.content[0].text,
              f"{era} a position out of range is a tool error")
        bad = await client.call_tool("info", {"log": "nope.jsonl"})
        check(bad.is_error and "no log named" in bad.content[0].text, f"{era} an unknown log is a tool error")

        resources = (await client.list_resources()).resources
        check(any(str(resource.uri).endswith("todo-crash.jsonl") for resource in resources),
              f"{era} resources/list has the logs")
        crash_uri = next(resource.uri for resource in resources if str(resource.uri).endswith("todo-crash.jsonl"))
        read = await client.read_resource(crash_uri)
        check('"actions":38' in read.contents[0].text, f"{era} resources/read gives the log's summary")


def main():
    ensure_packages()
    replay = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug/replay")
    for mode in ["auto", "legacy"]:
        try:
            asyncio.run(session(replay, mode))
        except Exception as error:  # a protocol failure of the SDK is a failed check
            check(False, f"[{mode}] the session ran: {type(error).__name__}: {error}")
    if failures:
        print(f"mcp-sdk-check: {len(failures)} checks failed", file=sys.stderr)
        sys.exit(1)
    print("mcp-sdk-check: every check passed")


if __name__ == "__main__":
    main()
