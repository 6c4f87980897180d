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
