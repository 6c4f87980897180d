"""The Python version matrix's runner: every fixture server of one venv, started in this one process.

Each fixture runs as `__main__` (its own `run()` call, over the framework's own stdio transport) with stdin and
stdout swapped for pipes: this process writes the JSON-RPC lines a client sends (initialize, initialized,
tools/list), reads what the server writes, and closes stdin after the tools/list answer, so the server ends on EOF
as it does when a client disconnects. The bytes read are what the server writes on a real stdio pipe: only the
interpreter start and the framework import are shared. Prints one JSON object: file -> tools/list result, or
{"error": ...} for a server that failed before answering.

Usage: python py_list_tools.py <protocolVersion> <file.py>...
"""

import io
import json
import os
import runpy
import sys
import threading
import traceback

# Counted after the framework is imported (below), so a slow import on a busy machine does not count.
TIMEOUT_S = 10


def list_tools(path: str, protocol: str) -> dict:
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    saved = sys.stdin, sys.stdout, sys.argv, list(sys.path), os.getcwd()
    sys.stdin = io.TextIOWrapper(os.fdopen(in_r, "rb", buffering=0), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(os.fdopen(out_w, "wb", buffering=0), encoding="utf-8", write_through=True)
    sys.argv = [path]
    sys.path.insert(0, os.path.dirname(path))
    os.chdir(os.path.dirname(path))
    feed = os.fdopen(in_w, "w", encoding="utf-8")
    answer: dict = {}
    done = threading.Event()

    def send(msg: dict) -> None:
        feed.write(json.dumps(msg) + "\n")
        feed.flush()

    def close_feed() -> None:
        try:
            feed.close()
        except OSError:
            pass

    def reader() -> None:
        with os.fdopen(out_r, "r", encoding="utf-8") as lines:
            for line in lines:
                try:
                    msg = json.loads(line)
                except ValueError:
                    continue
                if msg.get("id") == 1:
                    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
                    send({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}})
                elif msg.get("id") == 2:
                    answer.update(msg)
                    done.set()
                    close_feed()

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    send(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"protocolVersion": protocol, "capabilities": {}, "clientInfo": {"name": "toolsmith-fidelity", "version": "1.0.0"}},
        }
    )
    # A server that never answers: EOF on its stdin after the timeout ends it.
    watchdog = threading.Timer(TIMEOUT_S, close_feed)
    watchdog.start()
    error = None
    try:
        runpy.run_path(path, run_name="__main__")
    except BaseException as e:  # a fixture that fails at import or registration (e.g. a keyword this version lacks)
        error = "".join(traceback.format_exception_only(type(e), e)).strip()
    finally:
        watchdog.cancel()
        close_feed()
        try:
            sys.stdout.close()
        except OSError:
            pass
        sys.stdin, sys.stdout, sys.argv = saved[0], saved[1], saved[2]
        sys.path[:] = saved[3]
        os.chdir(saved[4])
    thread.join(5)
    if "result" in answer:
        return answer["result"]
    if "error" in answer:
        return {"error": json.dumps(answer["error"])}
    return {"error": error or "no tools/list answer"}


def main() -> None:
    protocol, files = sys.argv[1], sys.argv[2:]
    real_stdout = sys.stdout
    # fastmcp 3.x imports its server lazily (about 700 modules on first use): import it here, outside the timeout.
    for framework in ("mcp.server", "mcp.server.stdio", "fastmcp", "fastmcp.server.server", "fastmcp.tools"):
        try:
            __import__(framework)
        except ImportError:
            pass
    results = {}
    for f in files:
        results[f] = list_tools(os.path.abspath(f), protocol)
    real_stdout.write(json.dumps(results))
    real_stdout.flush()


if __name__ == "__main__":
    main()
