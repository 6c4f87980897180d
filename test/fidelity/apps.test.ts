/**
 * Contract fidelity, MCP Apps (`registerAppTool` of @modelcontextprotocol/ext-apps): the fixture servers under
 * test/fixtures/ts-apps (v2: ext-apps 2.x on @modelcontextprotocol/server; v1: ext-apps 1.x on
 * @modelcontextprotocol/sdk), written like the ext-apps examples' server.ts, are run for real in workspaces holding
 * the real packages (scripts/ensure-apps.mjs: exact versions, installed once per machine) and asked for tools/list
 * by their SDK line's own Client; the prediction must be deep-equal, tool by tool, in order, 100 %.
 *   source  the fixture as written (esbuild's transform, the SDK and ext-apps imported from the workspace), predicted
 *           from the .ts copy next to that node_modules (the workspace's ext-apps version read as a user's would be);
 *   bundle  the fixture bundled with esbuild as the published examples are with bun (SDK, ext-apps' minified
 *           registerAppTool and zod inlined, not minified), predicted from the bundle alone: the helper is followed
 *           with its arguments bound, and the inlined zod is converted with its own release — Toolsmith's when it is
 *           the same, else (a workspace pinning zod 4.3.5, as the examples were built) the bundle's own modules.
 * The analysis runs trusted, as `toolsmith contract` does; the bundled CLI must agree with it on one file.
 */
import { before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { analyzeSource } from '../../server/src/analysis/analyze';
import { createFileHost } from '../../server/src/host';
import { contractJson, resourcesJson } from '../../server/src/cli/contract-json';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { setWorkspaceTrust } from '../../server/src/contract/typescript/trust';
import { cli, compareTools, fixtureServers, liveTools, root, type Tool } from './compare';

interface Workspace {
  name: string;
  line: 'v1' | 'v2';
  packages: Record<string, string>;
  forms: ('source' | 'bundle')[];
  honestOnly?: ('source' | 'bundle')[];
}
interface AppsScript {
  APPS_WORKSPACES: Workspace[];
  appsDir(w: Workspace): string;
  ensureApps(names?: string[]): string[];
}

const fixtures = path.join(root, 'test/fixtures/ts-apps');
let script: AppsScript;

before(async () => {
  setWorkspaceTrust(true);
  script = (await import(path.join(root, 'scripts/ensure-apps.mjs'))) as AppsScript;
  const failures = script.ensureApps();
  assert.deepEqual(failures, [], failures.join('\n'));
});

type Prediction = { tools: Tool[]; unresolved: { tool: number; part: string; reason: string }[] };

/** `toolsmith contract --json` of one file, computed in this process (TypeScript loaded once). */
function predict(file: string): Prediction {
  const host = createFileHost();
  const result = analyzeSource(file, fs.readFileSync(file, 'utf8'), host);
  return JSON.parse(JSON.stringify(contractJson(result.tools, (f) => host.readFile(f), result.files))) as Prediction;
}

/** resources/list predicted for a file, as `toolsmith contract --json` prints it (`resources`). */
function predictResources(file: string): Tool[] {
  const host = createFileHost();
  const result = analyzeSource(file, fs.readFileSync(file, 'utf8'), host);
  const printed = resourcesJson(result.resources ?? [], (f) => host.readFile(f));
  assert.deepEqual(printed.resourcesUnresolved, [], `${file}: unresolved resource parts`);
  return JSON.parse(JSON.stringify(printed.resources)) as Tool[];
}

/** resources/list of a server, read by its SDK line's own Client. */
async function liveResources(file: string, line: 'v1' | 'v2'): Promise<Tool[]> {
  const params = { command: process.execPath, args: [file], cwd: path.dirname(file), stderr: 'pipe' as const };
  if (line === 'v2') {
    const client = new ClientV2({ name: 'toolsmith-fidelity-apps', version: '1.0.0' });
    try {
      await client.connect(new StdioV2(params));
      return (await client.listResources()).resources;
    } finally {
      await client.close().catch(() => {});
    }
  }
  const client = new ClientV1({ name: 'toolsmith-fidelity-apps', version: '1.0.0' });
  try {
    await client.connect(new StdioV1(params));
    return (await client.listResources()).resources;
  } finally {
    await client.close().catch(() => {});
  }
}

/** tools/list of a v2 server, read by the v2 SDK's Client (the default negotiation, as typescript-v2.test.ts). */
async function liveV2(file: string): Promise<Tool[]> {
  const transport = new StdioV2({ command: process.execPath, args: [file], cwd: path.dirname(file), stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new ClientV2({ name: 'toolsmith-fidelity-apps', version: '1.0.0' });
  try {
    await client.connect(transport);
    return (await client.listTools()).tools;
  } catch (err) {
    throw new Error(`${file} did not answer tools/list: ${err instanceof Error ? err.message : String(err)}\n${stderr}`, { cause: err });
  } finally {
    await client.close().catch(() => {});
  }
}

const summary: string[] = [];
let exact = 0;
let total = 0;
let resourcesExact = 0;

test('fidelity apps: every MCP Apps workspace, source and bundle forms, live against the prediction', async (t) => {
  for (const w of script.APPS_WORKSPACES) {
    await t.test(w.name, async () => {
      const dir = script.appsDir(w);
      const copy = path.join(dir, 'fixtures');
      fs.rmSync(copy, { recursive: true, force: true });
      fs.cpSync(path.join(fixtures, w.line), copy, { recursive: true });
      const sources = fixtureServers(copy);
      assert.ok(sources.length >= 2, `${w.name}: no fixtures`);
      const run = async (form: 'source' | 'bundle') => {
        const out = path.join(copy, form);
        // source: each server as plain JavaScript, its packages imported from this workspace; bundle: all inlined.
        await esbuild.build({
          entryPoints: sources,
          outdir: out,
          outExtension: { '.js': '.mjs' },
          bundle: true,
          platform: 'node',
          format: 'esm',
          target: 'node20',
          logLevel: 'error',
          absWorkingDir: dir,
          ...(form === 'source' ? { packages: 'external' as const } : { banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' } }),
        });
        for (const src of sources) {
          const js = path.join(out, `${path.basename(src, '.ts')}.mjs`);
          const live = w.line === 'v2' ? await liveV2(js) : await liveTools(js, { command: process.execPath, args: [js], cwd: dir });
          const predicted = predict(form === 'source' ? src : js);
          const label = `${w.name} ${form} ${path.basename(src)}`;
          assert.ok(live.length > 0, `${label}: the server published no tool`);
          if (w.honestOnly?.includes(form)) {
            // Each live tool predicted exactly, or with an unresolved row saying why: never a wrong contract.
            const partial = new Set(predicted.unresolved.map((u) => predicted.tools[u.tool]?.name));
            const wrong = live.filter((l) => !partial.has(l.name) && !compareTools([{ file: label, live: [l], predicted: predicted.tools.filter((p) => p.name === l.name) }], { order: false }).exact);
            assert.deepEqual(
              wrong.map((l) => l.name),
              [],
              `${label}: predicted wrong, with nothing unresolved`,
            );
            assert.ok(partial.size > 0 || predicted.tools.length === live.length, `${label}: tools missing`);
            summary.push(
              `${label}: ${live.length - partial.size}/${live.length} exact, ${partial.size} unresolved (${[...new Set(predicted.unresolved.map((u) => u.reason.split(':')[0]))].join('; ')}), 0 wrong`,
            );
            continue;
          }
          const unresolved = predicted.unresolved.map((u) => `${String(predicted.tools[u.tool]?.name)} ${u.part}: ${u.reason}`);
          assert.deepEqual(unresolved, [], `${label}: unresolved parts`);
          const compared = compareTools([{ file: `${w.name}/${form}/${path.basename(src)}`, live, predicted: predicted.tools }], { order: true });
          assert.deepEqual(compared.failures, [], compared.failures.join('\n'));
          exact += compared.exact;
          total += compared.total;
          // registerAppResource: the app's view in resources/list, as the SDK publishes it (ext-apps' default mime type).
          const resources = predictResources(form === 'source' ? src : js);
          if (resources.length) {
            const liveList = await liveResources(js, w.line);
            const byUri = (l: Tool[]) => [...l].sort((a, b) => String(a.uri).localeCompare(String(b.uri)));
            assert.deepEqual(byUri(resources), byUri(liveList), `${label}: resources/list`);
            resourcesExact += resources.length;
          }
          summary.push(
            `${label}: ${compared.exact}/${compared.total} exact${resources.length ? `, resources/list ${resources.length}/${resources.length}` : ''}${form === 'bundle' ? ` (${(fs.statSync(js).size / 1024).toFixed(0)} KiB bundle)` : ''}`,
          );
        }
      };
      for (const form of w.forms) await run(form);
      // The bundled CLI predicts the first file as the analysis here does (trusted; a bundle over 1 MiB when asked).
      const first = w.forms.includes('source') ? sources[0] : path.join(copy, 'bundle', `${path.basename(sources[0], '.ts')}.mjs`);
      const r = spawnSync(process.execPath, [cli, 'contract', first, '--json', '--max-file-size', '4'], { encoding: 'utf8', cwd: root });
      assert.equal(r.status, 0, r.stderr);
      assert.deepEqual((JSON.parse(r.stdout) as Prediction).tools, predict(first).tools, `${w.name}: toolsmith contract --json differs from the analysis`);
    });
  }
  console.log(`fidelity apps: ${exact}/${total} tools exact, ${resourcesExact} resources exact\n  ${summary.join('\n  ')}`);
  assert.equal(exact, total);
  assert.ok(total >= 20, `only ${total} tools compared`);
});
