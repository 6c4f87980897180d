/**
 * Contract fidelity (TESTING.md §3), shared by the TypeScript and Python suites: a fixture server is started for real
 * and asked for tools/list by the SDK's own Client over stdio; `node dist/cli.js contract <file> --json` predicts it;
 * the two are compared tool by tool, deep-equal with object key order ignored, everything else exact.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export const root = path.resolve(__dirname, '../..');
export const cli = path.join(root, 'dist/cli.js');

/** One tool of a tools/list answer or of the CLI's prediction (both plain JSON). */
export type Tool = Record<string, unknown>;

/** The fixture servers of a folder: each .ts file, and each subfolder's main.ts (a server across several files). */
export function fixtureServers(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.isFile() && e.name.endsWith('.ts')) out.push(path.join(dir, e.name));
    else if (e.isDirectory() && fs.existsSync(path.join(dir, e.name, 'main.ts'))) out.push(path.join(dir, e.name, 'main.ts'));
  }
  return out.sort();
}

export interface ServerCommand {
  command: string;
  args: string[];
  cwd: string;
  /** Left out: the SDK's default environment for a stdio server (a few variables such as PATH and HOME). */
  env?: Record<string, string>;
}

/** Starts the server of `file` and returns its tools/list; throws with the server's stderr when it does not answer. */
export async function liveTools(file: string, server: ServerCommand): Promise<Tool[]> {
  const transport = new StdioClientTransport({ ...server, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'toolsmith-fidelity', version: '1.0.0' });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    return tools;
  } catch (err) {
    throw new Error(`${path.relative(root, file)} did not answer tools/list: ${err instanceof Error ? err.message : String(err)}\n${stderr}`, { cause: err });
  } finally {
    await client.close().catch(() => {});
  }
}

/** What one session of a server lists: its tools as the client reads them, its other lists as they crossed the pipe. */
export interface LiveLists {
  tools: Tool[];
  /** The raw results (tapped at the transport: the client's parse drops keys its schema does not know). */
  prompts: Tool[];
  resources: Tool[];
  resourceTemplates: Tool[];
  /** A list the server declares but could not answer (a low-level handler missing, a database not reachable): its message. */
  errors: string[];
}

/**
 * Starts the server of `file` once and reads tools/list (as liveTools does), then prompts/list, resources/list and
 * resources/templates/list when the server declares them (else empty).
 */
export async function liveLists(file: string, server: ServerCommand): Promise<LiveLists> {
  const transport = new StdioClientTransport({ ...server, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'toolsmith-fidelity', version: '1.0.0' });
  let last: Record<string, unknown> | undefined;
  try {
    await client.connect(transport);
    const onmessage = transport.onmessage!;
    transport.onmessage = (message) => {
      const m = message as { result?: Record<string, unknown> };
      if (m.result) last = m.result;
      onmessage(message);
    };
    const errors: string[] = [];
    const raw = async (call: () => Promise<unknown>, key: string): Promise<Tool[]> => {
      last = undefined;
      try {
        await call();
      } catch (err) {
        errors.push(`${key}: ${err instanceof Error ? err.message : String(err)}`);
        return [];
      }
      const list = last?.[key];
      if (!Array.isArray(list)) throw new Error(`the ${key} result was not seen on the transport`);
      return list;
    };
    const caps = client.getServerCapabilities() ?? {};
    const { tools } = await client.listTools();
    return {
      tools,
      prompts: caps.prompts ? await raw(() => client.listPrompts(), 'prompts') : [],
      resources: caps.resources ? await raw(() => client.listResources(), 'resources') : [],
      resourceTemplates: caps.resources ? await raw(() => client.listResourceTemplates(), 'resourceTemplates') : [],
      errors,
    };
  } catch (err) {
    throw new Error(`${path.relative(root, file)} did not answer its lists: ${err instanceof Error ? err.message : String(err)}\n${stderr}`, { cause: err });
  } finally {
    await client.close().catch(() => {});
  }
}

/** The contract the bundled CLI predicts for `file`. */
export function predictedTools(file: string): Tool[] {
  const r = spawnSync(process.execPath, [cli, 'contract', file, '--json'], { encoding: 'utf8', cwd: root });
  assert.equal(r.status, 0, `toolsmith contract failed on ${file}: ${r.stderr}`);
  return (JSON.parse(r.stdout) as { tools: Tool[] }).tools;
}

/** Deep-equal, object key order ignored (deepStrictEqual does not look at key order). */
export function sameTool(a: unknown, b: unknown): boolean {
  try {
    assert.deepStrictEqual(a, b);
    return true;
  } catch {
    return false;
  }
}

export interface Comparison {
  /** Live tools whose predicted contract is deep-equal. */
  exact: number;
  /** Live tools. */
  total: number;
  /** One readable entry per difference; empty when the prediction is exact. */
  failures: string[];
}

export interface FileTools {
  file: string;
  live: Tool[];
  predicted: Tool[];
}

/**
 * Compares each live tool with the predicted tool of the same name; predicted tools the server does not list are
 * failures. `order`: the predicted order must also be tools/list's order.
 */
export function compareTools(results: FileTools[], options: { order: boolean }): Comparison {
  const out: Comparison = { exact: 0, total: 0, failures: [] };
  for (const { file, live, predicted } of results) {
    const rel = path.relative(root, file);
    for (const tool of live) {
      out.total++;
      const mine = predicted.find((t) => t.name === tool.name);
      if (mine !== undefined && sameTool(mine, tool)) out.exact++;
      else out.failures.push(`${rel} ${String(tool.name)}\n  live:      ${JSON.stringify(tool)}\n  predicted: ${mine === undefined ? 'missing' : JSON.stringify(mine)}`);
    }
    const extra = predicted.filter((t) => !live.some((l) => l.name === t.name)).map((t) => String(t.name));
    if (extra.length) out.failures.push(`${rel}: predicted tools the server does not list: ${extra.join(', ')}`);
    const liveOrder = live.map((t) => String(t.name));
    const predictedOrder = predicted.map((t) => String(t.name)).filter((n) => liveOrder.includes(n));
    if (options.order && !sameTool(predictedOrder, liveOrder)) {
      out.failures.push(`${rel}: tools/list order ${liveOrder.join(', ')}; predicted ${predictedOrder.join(', ')}`);
    }
  }
  return out;
}
