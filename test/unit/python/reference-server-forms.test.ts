/**
 * Forms of the reference servers mcp-server-git and mcp-server-time (corpus, test/fidelity/real-world.test.ts):
 * tool names from an Enum member's `.value`, `annotations=` a module constant, ToolAnnotations keywords in snake_case
 * (published under their camelCase aliases by mcp 2.x), and a name that cannot be read (never replaced by the
 * function's name).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { analyzePython } from '../../../server/src/analysis/python';
import type { FileHost } from '../../../server/src/analysis/model';

function analyze(text: string) {
  const host: FileHost = { readFile: (f) => (f === '/ws/server.py' ? text : undefined), fileExists: (f) => f === '/ws/server.py' };
  return analyzePython('/ws/server.py', text, host);
}

const HEAD = `from enum import Enum
from mcp.server import MCPServer
from mcp.types import ToolAnnotations

class GitTools(str, Enum):
    STATUS = "git_status"

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)

server = MCPServer("git")
`;

test('name=Enum.MEMBER.value is the member value; annotations=CONST publishes the camelCase aliases (mcp 2.x)', () => {
  const { tools } = analyze(
    HEAD +
      `
@server.tool(name=GitTools.STATUS.value, description="Shows the working tree status", annotations=READ_ONLY, structured_output=False)
def status(repo_path: str) -> str:
    return ""
`,
  );
  assert.equal(tools.length, 1);
  const [t] = tools;
  assert.deepEqual(t.unresolved, []);
  assert.equal(t.contract.name, 'git_status');
  assert.deepEqual(t.contract.annotations, { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
});

test('an unresolved name= leaves the contract without a name (not the function name) and says why', () => {
  const { tools } = analyze(
    HEAD +
      `
@server.tool(name=tool_name(), description="x")
def status(repo_path: str) -> str:
    return ""
`,
  );
  const [t] = tools;
  assert.equal(t.name.value, undefined);
  assert.equal(t.contract.name, undefined, 'the contract must not carry a made-up name');
  assert.ok(t.unresolved.some((u) => u.part === 'name'));
});

test('mcp 1.x: a snake_case ToolAnnotations keyword is an extra field, published as written', () => {
  const text = `from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations
mcp = FastMCP("v1")

@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True, open_world_hint=False))
def ping() -> str:
    """Ping."""
    return "pong"
`;
  const [t] = analyze(text).tools;
  assert.deepEqual(t.contract.annotations, { readOnlyHint: true, open_world_hint: false });
});

test('annotations from a helper returning ToolAnnotations(...) with its arguments bound; f-string fields naming constants', () => {
  const { tools } = analyze(
    HEAD +
      `
FORMATS = ("ISO 8601 " "or relative dates")
LIMIT = 20

def writes(*, destructive: bool, idempotent: bool = True) -> ToolAnnotations:
    return ToolAnnotations(read_only_hint=False, destructive_hint=destructive, idempotent_hint=idempotent, open_world_hint=False)

@server.tool(name="git_reset", annotations=writes(destructive=True))
def reset(since: Annotated[str, Field(description=f"Start timestamp. {FORMATS}, at most {LIMIT}")]) -> str:
    """Reset."""
    return ""

@server.tool(annotations=READ_ONLY)
def log(where: Annotated[str, Field(description=f"Path under {repo_root}")]) -> str:
    """Log."""
    return ""
`.replace('from mcp.types import ToolAnnotations', 'from mcp.types import ToolAnnotations\nfrom typing import Annotated\nfrom pydantic import Field'),
  );
  const reset = tools.find((t) => t.name.value === 'git_reset');
  assert.ok(reset);
  assert.deepEqual(reset.unresolved, []);
  assert.deepEqual(reset.contract.annotations, { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false });
  const props = (reset.contract.inputSchema as { properties: Record<string, { description?: string }> }).properties;
  assert.equal(props.since.description, 'Start timestamp. ISO 8601 or relative dates, at most 20');
  // A field naming something that is not a module constant stays unresolved, with the name in the reason.
  const log = tools.find((t) => t.name.value === 'log');
  assert.ok(log?.unresolved.some((u) => /repo_root/.test(u.reason)));
});
