/**
 * The proof of issue 16, in a real workbench (code-server): the playground answers what servers ask of it.
 * One workbench on a folder whose .vscode/mcp.json declares four servers:
 *   - everything: the published @modelcontextprotocol/server-everything (stdio, 2025-11-25 handshake): all 19 tools
 *     listed and each called from the playground's form — sampling answered by hand in the sampling card, elicitation
 *     accepted and declined, roots listed, a task run to completion and one cancelled, a subscription update seen;
 *   - asks-v2: a TypeScript SDK v2 fixture on 2026-07-28 (multi-round-trip input_required sampling and elicitation);
 *   - py-asks: a Python mcp 2.3 fixture (the SDK's Sample / Elicit resolvers);
 *   - remote: server-everything over Streamable HTTP, `"type": "http"` with a `${env:}` header, reached through a
 *     recording proxy (the header's value is checked where it arrives).
 * Screenshots: test-results/proof-*.png (listed in docs/playground.md). Nothing is skipped: a missing install fails.
 */
import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import type { FrameLocator, Locator } from 'playwright-core';
import { startWorkbench, root, type Workbench, activeWebviewFrame, openServersView, screenshotOnFailure } from './harness';
import { choose } from '../webview/harness';
import { venvPython } from '../unit/playground/helpers';
import { ensureEverything } from '../../scripts/ensure-everything.mjs';

let wb: Workbench | undefined;
const children: ChildProcess[] = [];
const servers: http.Server[] = [];
let workspace = '';
/** Headers the proxy in front of the HTTP server saw, per request. */
const seenHeaders: http.IncomingHttpHeaders[] = [];
const TRACE = `trace-${process.pid}-${Date.now().toString(36)}`;
const t0 = Date.now();

after(async () => {
  await wb?.stop();
  for (const c of children) c.kill();
  for (const s of servers) s.close();
  if (workspace) fs.rmSync(workspace, { recursive: true, force: true });
  console.log(`[proof] wall time ${((Date.now() - t0) / 1000).toFixed(1)} s`);
});

const step = screenshotOnFailure(() => wb, 'proof-failed');

async function freePort(): Promise<number> {
  const srv = http.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

/** server-everything in Streamable HTTP mode behind a proxy that records each request's headers. */
async function httpEverything(entry: string): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, [entry, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('server-everything (streamableHttp) did not listen within 30 s')), 30_000);
    child.stderr.on('data', (d: Buffer) => /listening|running on port/i.test(d.toString()) && (clearTimeout(t), resolve()));
    child.once('exit', (c) => reject(new Error(`server-everything (streamableHttp) exited ${c}`)));
  });
  const proxy = http.createServer((req, res) => {
    seenHeaders.push(req.headers);
    const up = http.request({ host: '127.0.0.1', port, path: req.url, method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  servers.push(proxy);
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`;
}

before(async () => {
  const entry = ensureEverything();
  const python = venvPython();
  const url = await httpEverything(entry);
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-proof-'));
  fs.mkdirSync(path.join(workspace, '.vscode'));
  fs.writeFileSync(
    path.join(workspace, '.vscode', 'mcp.json'),
    JSON.stringify(
      {
        servers: {
          everything: { command: process.execPath, args: [entry, 'stdio'] },
          'asks-v2': { command: process.execPath, args: ['--import', 'tsx', path.join(root, 'test', 'fixtures', 'servers', 'ts', 'asks-v2.ts')], cwd: root },
          'py-asks': { command: python, args: [path.join(root, 'test', 'fixtures', 'servers', 'python', 'asks.py')] },
          remote: { type: 'http', url, headers: { 'X-Toolsmith-Trace': '${env:TOOLSMITH_E2E_TRACE}' } },
        },
      },
      null,
      2,
    ),
  );
  // code-server's extension host inherits this process's environment: the ${env:} header reads it there.
  process.env.TOOLSMITH_E2E_TRACE = TRACE;
});

let frame: FrameLocator;
let panelOpen = false;

/** Picks a tool in the playground's picker (labelled "Title (name)") and waits for its form. */
async function pickTool(name: string): Promise<void> {
  const picker = frame.locator('.tool-picker');
  const labels = (await picker.locator('li[role=option]').allTextContents()).map((t) => t.trim());
  const label = labels.find((l) => l === name || l.endsWith(`(${name})`));
  assert.ok(label, `no tool ${name} in the picker: ${labels.join(', ')}`);
  await choose(picker, label);
  await frame.locator('.tool-head', { hasText: name }).first().waitFor({ timeout: 15_000 });
}

const input = (p: string, scope: FrameLocator | Locator = frame) => scope.locator(`.field[data-path="${p}"] > .control vscode-textfield input`).first();

/** Clicks Call; returns the result of this tool (labelled with it) once it is shown. */
async function callShown(tool: string, timeout = 60_000): Promise<Locator> {
  await frame.locator('vscode-button[data-action="call"]').click();
  return shownResult(tool, timeout);
}

async function shownResult(tool: string, timeout = 60_000): Promise<Locator> {
  const result = frame.locator('.result-host .result', { has: frame.locator(`.result-label[data-tool="${tool}"]`) }).first();
  await result.waitFor({ timeout });
  return result;
}

const text = async (l: Locator) => (await l.innerText()).replace(/\s+/g, ' ');

/** Opens a server's playground from the Servers view; returns the header's text once it runs. */
async function openServer(name: string, running: RegExp): Promise<string> {
  // One playground open at a time: the webview frame found is then this server's.
  if (panelOpen) await wb!.runCommand('View: Close All Editors');
  panelOpen = true;
  const { sidebar, row } = await openServersView(wb!);
  await row(name).waitFor({ state: 'visible', timeout: 60_000 });
  await wb!.page.mouse.move(900, 700);
  await row(name).click();
  await sidebar.locator('.monaco-list-row', { hasText: running }).first().waitFor({ timeout: 90_000 });
  await wb!.page.locator('.tabs-container .tab.active', { hasText: `Playground: ${name}` }).waitFor({ timeout: 30_000 });
  frame = activeWebviewFrame(wb!);
  await frame.locator('.status[data-status="running"]').waitFor({ timeout: 60_000 });
  // The server row's hover would cover the panel: the pointer leaves the tree, the hover goes.
  await wb!.page.mouse.move(1200, 120);
  await wb!.page
    .locator('.context-view .monaco-tokenized-source, .workbench-hover-container')
    .first()
    .waitFor({ state: 'hidden', timeout: 10_000 })
    .catch(() => undefined);
  return frame.locator('header.server').innerText();
}

test('server-everything: 19 tools listed and called, the server answered by hand', { timeout: 600_000 }, () =>
  step('everything', async () => {
    wb = await startWorkbench({ workspace, trusted: true, settings: { 'toolsmith.playground.timeoutSeconds': 60 } });
    await wb.waitForLog(/Toolsmith activated in (\d+) ms/, 120_000);
    const header = await openServer('everything', /running · mcp-servers\/everything/);
    assert.match(header, /protocol 2025-11-25/, 'server-everything is a 2025-era server: the header says which protocol was negotiated');

    const picker = frame.locator('.tool-picker');
    await picker.click();
    const labels = (await picker.locator('li[role=option]').allTextContents()).map((t) => t.trim());
    await wb.page.keyboard.press('Escape');
    const names = labels.map((l) => /\(([^()]+)\)$/.exec(l)?.[1] ?? l);
    assert.equal(names.length, 19, `19 tools, the capability-gated ones included: ${names.join(', ')}`);
    for (const n of [
      'get-roots-list',
      'trigger-sampling-request',
      'trigger-elicitation-request',
      'trigger-url-elicitation',
      'simulate-research-query',
      'trigger-sampling-request-async',
      'trigger-elicitation-request-async',
    ])
      assert.ok(names.includes(n), `${n} listed`);
    const called = new Set<string>();

    // Tools that answer at once.
    const simple: [string, (() => Promise<void>) | undefined, RegExp][] = [
      ['echo', () => input('/message').fill('hello from the proof'), /Echo: hello from the proof/],
      ['get-sum', async () => (await input('/a').fill('2'), await input('/b').fill('40')), /The sum of 2 and 40 is 42/],
      [
        'get-annotated-message',
        () => choose(frame.locator('.field[data-path="/messageType"] > .control vscode-single-select').first(), 'error'),
        /for user & assistant priority 1 Error: Operation failed/,
      ],
      ['get-env', undefined, /"PATH"/],
      ['get-resource-links', undefined, /Here are 3 resource links/],
      ['get-resource-reference', undefined, /demo:\/\/resource\/dynamic\/text\/1/],
      ['get-structured-content', () => choose(frame.locator('.field[data-path="/location"] > .control vscode-single-select').first(), 'Chicago'), /temperature/],
      ['get-tiny-image', undefined, /The image above is the MCP logo/],
      [
        'gzip-file-as-resource',
        async () => (await input('/name').fill('proof.txt.gz'), await input('/data').fill(`data:text/plain;base64,${Buffer.from('proof').toString('base64')}`)),
        /proof\.txt\.gz/,
      ],
      ['toggle-simulated-logging', undefined, /Started simulated, random-leveled logging/],
      ['trigger-long-running-operation', async () => (await input('/duration').fill('2'), await input('/steps').fill('2')), /Long running operation completed/],
    ];
    for (const [tool, fill, expected] of simple) {
      await pickTool(tool);
      await fill?.();
      const r = await callShown(tool);
      assert.equal(await r.getAttribute('data-outcome'), 'ok', `${tool}: ${await text(r)}`);
      assert.match(await text(r), expected, tool);
      called.add(tool);
    }
    await wb.screenshot('proof-everything-result');

    // Roots: the workspace folder.
    await pickTool('get-roots-list');
    let r = await callShown('get-roots-list');
    assert.match(await text(r), new RegExp(path.basename(workspace)));
    called.add('get-roots-list');
    await wb.screenshot('proof-everything-roots');

    // Sampling answered by hand in the sampling card; the canned reply kept, and Ask the model says why it is off.
    await pickTool('trigger-sampling-request');
    await input('/prompt').fill('Write a haiku about proofs');
    await frame.locator('vscode-button[data-action="call"]').click();
    let card = frame.locator('.server-request.request-sampling').last();
    await card.waitFor({ timeout: 30_000 });
    assert.match(await text(card.locator('.sampling-messages')), /haiku about proofs/);
    assert.match(await text(card.locator('.model-note')), /Ask the model is unavailable: VS Code offers no language model/);
    assert.equal(await card.locator('vscode-button[data-action="ask-model"]').getAttribute('disabled'), '', 'no model in code-server: the button is off');
    await card.locator('vscode-textarea.sampling-reply textarea').fill('Proofs in the dark / a haiku typed by hand');
    await card.locator('vscode-button[data-action="save-canned"]').click();
    await card.locator('vscode-button[data-action="use-canned"]').first().waitFor({ timeout: 15_000 });
    await wb.screenshot('proof-everything-sampling');
    await card.locator('vscode-button[data-action="send-reply"]').click();
    r = await shownResult('trigger-sampling-request');
    assert.match(await text(r), /a haiku typed by hand/);
    called.add('trigger-sampling-request');

    // Task-augmented sampling: the reply picked from the canned ones.
    await pickTool('trigger-sampling-request-async');
    await input('/prompt').fill('async please');
    await frame.locator('vscode-button[data-action="call"]').click();
    card = frame.locator('.server-request.request-sampling:not(.ended)').last();
    await card.locator('vscode-button[data-action="use-canned"]').first().click({ timeout: 30_000 });
    await card.locator('vscode-button[data-action="send-reply"]').click();
    r = await shownResult('trigger-sampling-request-async');
    assert.match(await text(r), /\[COMPLETED\] Async sampling completed[\s\S]*a haiku typed by hand/);
    called.add('trigger-sampling-request-async');

    // Elicitation: accepted (form), declined (task-augmented), URL shown and cancelled.
    await pickTool('trigger-elicitation-request');
    await frame.locator('vscode-button[data-action="call"]').click();
    card = frame.locator('.server-request.request-elicitation:not(.ended)').last();
    await input('/name', card).fill('Ada Lovelace', { timeout: 30_000 });
    await wb.screenshot('proof-everything-elicitation');
    await card.locator('vscode-button[data-action="accept-elicitation"]').click();
    r = await shownResult('trigger-elicitation-request');
    assert.match(await text(r), /User provided the requested information[\s\S]*Ada Lovelace/);
    called.add('trigger-elicitation-request');

    await pickTool('trigger-elicitation-request-async');
    await frame.locator('vscode-button[data-action="call"]').click();
    await frame.locator('.server-request.request-elicitation:not(.ended) vscode-button[data-action="decline-elicitation"]').last().click({ timeout: 30_000 });
    r = await shownResult('trigger-elicitation-request-async');
    assert.match(await text(r), /\[DECLINED\] User declined/);
    called.add('trigger-elicitation-request-async');

    await pickTool('trigger-url-elicitation');
    await input('/url').fill('https://example.com/consent');
    await frame.locator('vscode-button[data-action="call"]').click();
    card = frame.locator('.server-request.request-elicitation:not(.ended)').last();
    assert.equal(await card.locator('.elicitation-url code').innerText({ timeout: 30_000 }), 'https://example.com/consent');
    await card.locator('vscode-button[data-action="cancel-elicitation"]').click();
    r = await shownResult('trigger-url-elicitation');
    assert.match(await text(r), /User cancelled the URL elicitation/);
    called.add('trigger-url-elicitation');

    // A task run to completion (its statuses shown), then one cancelled.
    await pickTool('simulate-research-query');
    await input('/topic').fill('MCP tasks');
    await frame.locator('vscode-button[data-action="call"]').click();
    await frame.locator('.progress', { hasText: /task working/ }).waitFor({ timeout: 30_000 });
    await wb.screenshot('proof-everything-task');
    r = await shownResult('simulate-research-query', 90_000);
    assert.equal(await r.getAttribute('data-outcome'), 'ok', await text(r));
    assert.match(await text(r), /MCP tasks/);
    await input('/topic').fill('a slow one');
    await frame.locator('vscode-button[data-action="call"]').click();
    await frame.locator('.progress', { hasText: /task working/ }).waitFor({ timeout: 30_000 });
    await frame.locator('vscode-button[data-action="cancel"]').click();
    r = await shownResult('simulate-research-query');
    assert.equal(await r.getAttribute('data-outcome'), 'cancelled', await text(r));
    await wb.screenshot('proof-everything-task-cancelled');
    called.add('simulate-research-query');

    // A resource subscription: subscribed from the catalog, the update marked once the server sends it.
    await frame.locator('details.catalog-box > summary').click();
    const resource = frame.locator('.resource-row').first();
    await resource.locator('vscode-button[data-action="subscribe"]').click({ timeout: 30_000 });
    await resource.locator('vscode-button[data-action="unsubscribe"]').waitFor({ timeout: 15_000 });
    await pickTool('toggle-subscriber-updates');
    await callShown('toggle-subscriber-updates');
    called.add('toggle-subscriber-updates');
    await resource.locator('.updated-mark', { hasText: /updated at/ }).waitFor({ timeout: 30_000 });
    await resource.scrollIntoViewIfNeeded();
    await wb.screenshot('proof-everything-subscription');

    assert.deepEqual(
      names.filter((n) => !called.has(n)),
      [],
      'every listed tool was called',
    );
  }),
);

test('a TypeScript SDK v2 server on 2026-07-28: input_required sampling and elicitation, the probe on the timeline', { timeout: 300_000 }, () =>
  step('v2', async () => {
    assert.ok(wb, 'the workbench of the first test');
    const header = await openServer('asks-v2', /running · asks-v2 2\.0\.0/);
    assert.match(header, /protocol 2026-07-28/);
    await pickTool('summarize');
    await input('/topic').fill('the playground');
    await frame.locator('vscode-button[data-action="call"]').click();
    let card = frame.locator('.server-request.request-sampling:not(.ended)').last();
    assert.match(await text(card.locator('.system-prompt')), /You write summaries/, 'the system prompt shown');
    assert.match(await text(card.locator('.model-preferences')), /Model preferences/);
    await card.locator('vscode-textarea.sampling-reply textarea').fill('It answers servers.');
    await card.locator('vscode-button[data-action="send-reply"]').click();
    let r = await shownResult('summarize');
    assert.match(await text(r), /summary by toolsmith-playground \(typed by hand\): It answers servers\./);

    await pickTool('delete_project');
    await input('/project').fill('demo');
    await frame.locator('vscode-button[data-action="call"]').click();
    await frame.locator('.notice vscode-button[data-action="confirm-call"]').click({ timeout: 15_000 });
    card = frame.locator('.server-request.request-elicitation:not(.ended)').last();
    await card.locator('.field[data-path="/confirm"] vscode-checkbox').click({ timeout: 30_000 });
    await input('/reason', card).fill('not needed');
    await wb.screenshot('proof-v2-elicitation');
    await card.locator('vscode-button[data-action="accept-elicitation"]').click();
    r = await shownResult('delete_project');
    assert.match(await text(r), /deleted demo \(not needed\)/);

    // The version probe is on the timeline, before the session's own messages.
    await frame.locator('details.timeline-box > summary').click();
    const probe = frame.locator('.timeline-list li[data-method="server/discover"]').first();
    await probe.waitFor({ timeout: 15_000 });
    assert.match(await text(probe), /version probe · 2nd process/);
    await probe.scrollIntoViewIfNeeded();
    await wb.screenshot('proof-v2-timeline-probe');
  }),
);

test('a Python mcp 2.3 server: sampling and elicitation (accepted and declined)', { timeout: 300_000 }, () =>
  step('python', async () => {
    assert.ok(wb, 'the workbench of the first test');
    await openServer('py-asks', /running · py-asks/);
    await pickTool('one_liner');
    await input('/topic').fill('snakes');
    await frame.locator('vscode-button[data-action="call"]').click();
    let card = frame.locator('.server-request.request-sampling:not(.ended)').last();
    assert.match(await text(card.locator('.sampling-messages')), /Write one line about snakes/);
    await card.locator('vscode-textarea.sampling-reply textarea').fill('Snakes are long.');
    await card.locator('vscode-button[data-action="send-reply"]').click();
    let r = await shownResult('one_liner');
    assert.match(await text(r), /says: Snakes are long\./);

    await pickTool('ship');
    await input('/item').fill('book');
    await frame.locator('vscode-button[data-action="call"]').click();
    card = frame.locator('.server-request.request-elicitation:not(.ended)').last();
    await input('/address', card).fill('1 Main St, Springfield', { timeout: 30_000 });
    await wb.screenshot('proof-python-elicitation');
    await card.locator('vscode-button[data-action="accept-elicitation"]').click();
    r = await shownResult('ship');
    assert.match(await text(r), /book ships to 1 Main St, Springfield/);

    await frame.locator('vscode-button[data-action="call"]').click();
    await frame.locator('.server-request.request-elicitation:not(.ended) vscode-button[data-action="decline-elicitation"]').last().click({ timeout: 30_000 });
    await frame.locator('.result-host .result', { hasText: /not shipped: the user chose decline/ }).waitFor({ timeout: 30_000 });
  }),
);

test('an HTTP server from mcp.json ("type": "http", a ${env:} header) is called', { timeout: 300_000 }, () =>
  step('http', async () => {
    assert.ok(wb, 'the workbench of the first test');
    const header = await openServer('remote', /running · mcp-servers\/everything/);
    assert.match(header, /protocol 2025-11-25/);
    await pickTool('echo');
    await input('/message').fill('over http');
    const r = await callShown('echo');
    assert.match(await text(r), /Echo: over http/);
    assert.ok(
      seenHeaders.some((h) => h['x-toolsmith-trace'] === TRACE),
      `the \${env:} header reached the server: ${JSON.stringify(seenHeaders.map((h) => h['x-toolsmith-trace']))}`,
    );
    await wb.screenshot('proof-http');
  }),
);
