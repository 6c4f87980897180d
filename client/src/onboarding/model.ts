/**
 * What the walkthrough's buttons act on, without vscode: the source file a server runs (for the squiggle and the
 * preview steps), the tool a first call should use and arguments that satisfy its input schema.
 */
import * as path from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../servers/discovery';

const SOURCE = /\.(ts|mts|cts|js|mjs|cjs|py)$/;

/** The source file a server runs: a detected server's file, else the first argument naming a source file. */
export function sourceFileOf(c: ServerConfig, workspaceFolder: string): string | undefined {
  if (c.detected) return c.detected.sourceFile;
  const arg = c.args.map((a) => a.replace(/\$\{workspaceFolder\}/g, workspaceFolder)).find((a) => SOURCE.test(a));
  if (!arg) return undefined;
  const base = c.cwd ? path.resolve(workspaceFolder, c.cwd.replace(/\$\{workspaceFolder\}/g, workspaceFolder)) : workspaceFolder;
  return path.resolve(base, arg);
}

/** The tool a first call should use: one declared read-only (nothing changes), else the first. */
export function firstCallTool(tools: readonly Tool[]): Tool | undefined {
  return tools.find((t) => t.annotations?.readOnlyHint === true) ?? tools[0];
}

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  examples?: unknown[];
  minimum?: number;
  minLength?: number;
  properties?: Record<string, Schema>;
  required?: string[];
};

function sample(name: string, s: Schema): unknown {
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  if (s.examples?.length) return s.examples[0];
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'string':
      return 'example'.padEnd(s.minLength ?? 0, 'x');
    case 'number':
    case 'integer':
      return s.minimum !== undefined && s.minimum > 1 ? s.minimum : 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return sampleArguments(s);
    default:
      return name;
  }
}

/** Arguments for the required parameters of an input schema (defaults, enums and examples first). */
export function sampleArguments(schema: unknown): Record<string, unknown> {
  const s = (schema ?? {}) as Schema;
  const out: Record<string, unknown> = {};
  for (const name of s.required ?? []) out[name] = sample(name, s.properties?.[name] ?? {});
  return out;
}
