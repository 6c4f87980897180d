/**
 * Generated corpora for the benchmarks: Python servers for the peer-linter comparison, and a mixed TypeScript/Python
 * workspace for the cold scan. Deterministic (seeded) so two runs measure the same files.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const VERBS = ['search', 'get', 'list', 'create', 'update', 'delete', 'send', 'close', 'archive', 'export'];
const OBJECTS = ['tickets', 'invoice', 'customer', 'report', 'note', 'order', 'document', 'user_profile', 'payment', 'event'];

/** One Python tool; `variant` picks a mix of good and flawed contracts so linters have something to find. */
function pythonTool(i: number, r: () => number, decorator: string): string {
  const verb = VERBS[Math.floor(r() * VERBS.length)];
  const obj = OBJECTS[Math.floor(r() * OBJECTS.length)];
  const variant = i % 6;
  switch (variant) {
    case 0:
      return `@${decorator}()
def ${verb}_${obj}_${i}(query: Annotated[str, Field(description="Free-text terms to match.", max_length=200)], limit: Annotated[int, Field(description="Maximum results.", ge=1, le=50)] = 10) -> list[str]:
    """Find ${obj} records matching a query. Use when the user asks about existing ${obj}. Returns matching ids."""
    return []
`;
    case 1:
      return `@${decorator}()
def process_${i}(data: str, limit: int = 10) -> dict:
    return {"error": "not found"}
`;
    case 2:
      return `@${decorator}()
def ${verb}_${obj}_${i}(${obj}_id: str, days) -> str:
    """Do ${verb}.

    Args:
        ${obj}_id: the id
        status: one of open, closed, pending
    """
    import requests
    return requests.get("https://example.invalid/" + ${obj}_id).text
`;
    case 3:
      return `@${decorator}(annotations={"readOnlyHint": True})
def delete_${obj}_${i}(${obj}_id: Annotated[str, Field(description="Identifier of the ${obj} to delete.")]) -> str:
    """Delete one ${obj} permanently. Use when the user explicitly asks to remove it. Returns a confirmation message."""
    return "deleted"
`;
    case 4:
      return `@${decorator}()
def run_sql_${i}(sql: str) -> str:
    """TODO"""
    import subprocess
    return subprocess.run(sql, shell=True, capture_output=True, text=True).stdout
`;
    default:
      return `@${decorator}()
async def ${verb}_${obj}_${i}(
    path: Annotated[str, Field(description="Path of the file to read, relative to the workspace.")],
    count: float = 5,
) -> str:
    """Read a file from the workspace and return its first lines as text. Use when the user wants to see a file."""
    return open(path).read()
`;
  }
}

export function pythonServer(fileIndex: number, tools: number, framework: 'mcp' | 'fastmcp' = 'fastmcp'): string {
  const r = rng(fileIndex + 1);
  const head =
    framework === 'fastmcp'
      ? 'from typing import Annotated\n\nfrom fastmcp import FastMCP\nfrom pydantic import Field\n\napp = FastMCP("bench-' + fileIndex + '")\n\n'
      : 'from typing import Annotated\n\nfrom mcp.server import MCPServer\nfrom pydantic import Field\n\napp = MCPServer("bench-' + fileIndex + '")\n\n';
  const body = Array.from({ length: tools }, (_, t) => pythonTool(fileIndex * 1000 + t, r, 'app.tool')).join('\n\n');
  return head + body + '\n\nif __name__ == "__main__":\n    app.run()\n';
}

export function typescriptServer(fileIndex: number, tools: number): string {
  const r = rng(fileIndex + 7);
  const lines = [
    'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";',
    'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";',
    'import { z } from "zod";',
    '',
    `const server = new McpServer({ name: "bench-${fileIndex}", version: "1.0.0" });`,
    '',
  ];
  for (let t = 0; t < tools; t++) {
    const verb = VERBS[Math.floor(r() * VERBS.length)];
    const obj = OBJECTS[Math.floor(r() * OBJECTS.length)];
    const good = t % 3 === 0;
    lines.push(
      `server.registerTool(`,
      `  "${good ? `${verb}_${obj}_${t}` : `handle${t}`}",`,
      `  {`,
      `    title: "${verb} ${obj}",`,
      `    description: "${good ? `Find ${obj} records by text. Use when the user asks about ${obj}. Returns a list of ids.` : 'Handles it.'}",`,
      `    inputSchema: {`,
      `      query: z.string()${good ? '.max(200).describe("Free-text terms to match.")' : ''},`,
      `      limit: z.number()${good ? '.int().min(1).max(50).describe("Maximum results.")' : ''}.optional(),`,
      `    },`,
      good ? `    annotations: { readOnlyHint: true },` : '',
      `  },`,
      `  async ({ query, limit }) => ({ content: [{ type: "text", text: JSON.stringify({ query, limit }) }] }),`,
      `);`,
      '',
    );
  }
  lines.push('await server.connect(new StdioServerTransport());', '');
  return lines.filter((l) => l !== '').join('\n') + '\n';
}

export function writePythonCorpus(dir: string, files: number, toolsPerFile: number): string[] {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const out: string[] = [];
  for (let i = 0; i < files; i++) {
    const file = path.join(dir, `server_${i}.py`);
    fs.writeFileSync(file, pythonServer(i, toolsPerFile));
    out.push(file);
  }
  return out;
}

export function writeMixedWorkspace(dir: string, files: number): { ts: number; py: number } {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'py'), { recursive: true });
  let ts = 0;
  let py = 0;
  for (let i = 0; i < files; i++) {
    if (i % 2 === 0) {
      fs.writeFileSync(path.join(dir, 'src', `server_${i}.ts`), typescriptServer(i, 4));
      ts++;
    } else {
      fs.writeFileSync(path.join(dir, 'py', `server_${i}.py`), pythonServer(i, 4, i % 4 === 1 ? 'mcp' : 'fastmcp'));
      py++;
    }
  }
  return { ts, py };
}
