/** Small in-memory TypeScript workspaces for the front-end tests: analyse one, read a span's text, find a tool. */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { analyzeTypeScript } from '../../../server/src/analysis/typescript';
import type { FileHost, Span, ToolDefinition } from '../../../server/src/analysis/model';

export const ROOT = '/virtual/ws';

export const HEAD = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nimport { z } from "zod";\nconst server = new McpServer({ name: "demo", version: "1.0.0" });\n`;

/** `files` are paths relative to ROOT. */
export function memoryHost(files: Record<string, string>): FileHost {
  const abs = new Map(Object.entries(files).map(([k, v]) => [path.join(ROOT, k), v]));
  return { readFile: (f) => abs.get(f), fileExists: (f) => abs.has(f) };
}

export function analyze(files: Record<string, string>, entry = 'main.ts') {
  const result = analyzeTypeScript(path.join(ROOT, entry), files[entry], memoryHost(files));
  const textOf = (s: Span | undefined) => {
    assert.ok(s, 'span expected');
    return files[path.relative(ROOT, s.file)].slice(s.start, s.end);
  };
  const tool = (name: string): ToolDefinition => {
    const t = result.tools.find((x) => x.name.value === name);
    assert.ok(t, `tool ${name} not found among ${result.tools.map((x) => x.name.value).join(', ')}`);
    return t;
  };
  return { result, textOf, tool };
}
