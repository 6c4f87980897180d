/**
 * Resource fidelity: every fixture server under test/fixtures/ts-resources is started for real (`node --import tsx`)
 * and asked for resources/list and resources/templates/list by its own SDK line's Client over stdio —
 * @modelcontextprotocol/sdk 1.32 for the `v1-*` fixtures, @modelcontextprotocol/client 2.x (default negotiation) for
 * `v2-*` — and compared with the `resources` / `resourceTemplates` fields of `node dist/cli.js contract <file> --json`,
 * in order, key order ignored. What is compared is the raw JSON-RPC result as it crossed the pipe (tapped at the
 * client transport), not the client's parsed copy, which drops keys its schema does not know.
 * Resources a template's `list` callback returns are run-time values: they must come after the predicted ones, and
 * the prediction must say so (a `resourcesUnresolved` row with `index: null` per such template).
 * Covered: registerResource on both lines and 1.x resource() with each overload; static URIs and templates; title,
 * description, mimeType, size, annotations, icons, _meta; config from consts, spreads and loops; v2's cacheHint and
 * scopeChallenge (not listed); list callbacks.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { cli, root, sameTool, type Tool } from './compare';

const fixtures = path.join(root, 'test/fixtures/ts-resources');

interface Listed {
  resources: Tool[];
  resourceTemplates: Tool[];
}

/** The raw results of resources/list and resources/templates/list, as the server wrote them on stdout. */
async function live(file: string): Promise<Listed> {
  const server = { command: process.execPath, args: ['--import', 'tsx', file], cwd: root, stderr: 'pipe' as const };
  const v2 = path.basename(file).startsWith('v2-');
  const transport = v2 ? new StdioV2(server) : new StdioV1(server);
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = v2 ? new ClientV2({ name: 'toolsmith-resources', version: '1.0.0' }) : new ClientV1({ name: 'toolsmith-resources', version: '1.0.0' });
  const raw = new Map<string | number, Record<string, unknown>>();
  try {
    await (client as ClientV1).connect(transport);
    const onmessage = transport.onmessage!;
    transport.onmessage = (message: unknown, extra?: unknown) => {
      const m = message as { id?: string | number; result?: Record<string, unknown> };
      if (m.id !== undefined && m.result) raw.set(m.id, m.result);
      (onmessage as (m: unknown, e?: unknown) => void)(message, extra);
    };
    await client.listResources();
    const resources = [...raw.values()].find((r) => Array.isArray(r.resources))?.resources as Tool[];
    await client.listResourceTemplates();
    const resourceTemplates = [...raw.values()].find((r) => Array.isArray(r.resourceTemplates))?.resourceTemplates as Tool[];
    assert.ok(resources && resourceTemplates, 'the raw results were not seen on the transport');
    return { resources, resourceTemplates };
  } catch (err) {
    throw new Error(`${path.relative(root, file)} did not answer resources/list: ${err instanceof Error ? err.message : String(err)}\n${stderr}`, { cause: err });
  } finally {
    await client.close().catch(() => {});
  }
}

interface Printed {
  resources?: Tool[];
  resourceTemplates?: Tool[];
  resourcesUnresolved?: { list: string; index: number | null; name: string | null; part: string; reason: string }[];
}

function predicted(file: string): Printed {
  const r = spawnSync(process.execPath, [cli, 'contract', file, '--json'], { encoding: 'utf8', cwd: root });
  assert.equal(r.status, 0, `toolsmith contract failed on ${file}: ${r.stderr}`);
  return JSON.parse(r.stdout) as Printed;
}

/** Compares a live list with the predicted one, entry by entry in order; returns the differences. */
function compareList(what: string, live: Tool[], mine: Tool[], counts: { exact: number; total: number }): string[] {
  const failures: string[] = [];
  live.forEach((entry, i) => {
    counts.total++;
    if (sameTool(mine[i], entry)) counts.exact++;
    else failures.push(`${what} #${i}\n  live:      ${JSON.stringify(entry)}\n  predicted: ${JSON.stringify(mine[i])}`);
  });
  if (mine.length > live.length) failures.push(`predicted ${what} the server does not list: ${JSON.stringify(mine.slice(live.length))}`);
  return failures;
}

const counts = { exact: 0, total: 0 };
let runTime = 0;

for (const name of fs
  .readdirSync(fixtures)
  .filter((f) => f.endsWith('.ts'))
  .sort()) {
  test(`resource fidelity: ${name}`, async () => {
    const file = path.join(fixtures, name);
    const listed = await live(file);
    const printed = predicted(file);
    assert.ok(listed.resources.length + listed.resourceTemplates.length > 0, 'the fixture server published no resource');
    const rows = printed.resourcesUnresolved ?? [];
    // Only the run-time rows (a template's list callback) may be unresolved in a fixture.
    assert.deepEqual(
      rows.filter((r) => r.index !== null),
      [],
      'a fixture resource is reported unresolved',
    );
    const mine = printed.resources ?? [];
    // What a list callback returns is listed after the static resources: the predicted ones are a prefix.
    const listedAtRunTime = listed.resources.slice(mine.length);
    const failures = [
      ...compareList('resource', listed.resources.slice(0, mine.length), mine, counts),
      ...compareList('resource template', listed.resourceTemplates, printed.resourceTemplates ?? [], counts),
    ];
    if (listedAtRunTime.length) {
      runTime += listedAtRunTime.length;
      const said = rows.filter((r) => r.index === null && r.part === 'list');
      if (!said.length) failures.push(`${listedAtRunTime.length} resources listed at run time, and nothing says so: ${JSON.stringify(listedAtRunTime)}`);
    }
    assert.deepEqual(failures, [], failures.join('\n'));
  });
}

test('resource fidelity: summary', () => {
  console.log(`resource fidelity: ${counts.exact}/${counts.total} resources and templates exact (${runTime} more listed at run time by list callbacks, reported unresolved)`);
  assert.ok(counts.total >= 20, `only ${counts.total} resources and templates across the fixtures`);
  assert.equal(counts.exact, counts.total);
});
