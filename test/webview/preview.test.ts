// The Preview Contract webview in headless Chromium: what it renders from a real view-model, the typed messages its
// buttons post, scroll kept across re-renders, state across hide/show, no HTML from contracts, no CSP violation.
import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { z } from 'zod';
import { openPreview, type PreviewPage } from './preview-harness';
import { buildPreview, type PreviewTool } from '../../common/preview-model';
import { compareContracts } from '../../common/contract-diff';
import { getTokenizer } from '../../client/src/preview/tokens';
import { liveContracts, liveSurfaces, registerSearchDocs } from '../unit/preview/sdk-contracts';
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { JsonSchema } from '../../server/src/analysis/model';

let p: PreviewPage;
let contracts: JsonSchema[];

const range = (line: number) => ({ start: { line, character: 2 }, end: { line, character: 9 } });
const HOSTILE = 'Sends mail. <img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> <b>bold?</b>';

function tool(contract: JsonSchema, extra: Partial<PreviewTool> = {}): PreviewTool {
  return {
    name: contract.name as string,
    language: 'typescript',
    framework: 'ts-sdk',
    frameworkVersion: '^1.32.0',
    uri: 'file:///work/examples/ts/server.ts',
    range: range(10),
    contract,
    unresolved: [],
    serverId: 'server',
    ...extra,
  };
}

before(async () => {
  contracts = await liveContracts((server) => {
    registerSearchDocs(server);
    server.registerTool('send_mail', { description: HOSTILE, inputSchema: { to: z.email(), body: z.string() } }, async () => ({ content: [] }));
  });
  p = await openPreview();
});

after(async () => {
  await p?.close();
});

async function viewOf(index: number, extra: Partial<PreviewTool> = {}) {
  return buildPreview({
    tool: tool(contracts[index], extra),
    serverContracts: contracts,
    findings: [
      { ruleId: 'param-unbounded-string', severity: 'info', message: 'body has no max length', uri: 'file:///work/examples/ts/server.ts', range: range(14), hasFix: true },
      { ruleId: 'description-too-short', severity: 'warning', message: 'Too short to tell the model when to use it.', uri: 'file:///work/examples/ts/server.ts', range: range(12), hasFix: false },
    ],
    tokenizer: await getTokenizer(),
  });
}

test('renders the contract as the model reads it, and the exact JSON', async () => {
  const view = await viewOf(0);
  await p.send({ type: 'render', view });
  const { page } = p;
  await page.waitForSelector('h1.tool-name');
  assert.equal(await page.textContent('h1.tool-name'), 'search_docs');
  assert.equal(await page.textContent('.tool-title'), 'Search docs');
  assert.match((await page.textContent('p.description')) ?? '', /^Search the documentation/);
  const row = async (param: string) => page.$$eval(`tr[data-param="inputSchema.properties.${param}"] td`, (tds) => tds.map((td) => td.textContent?.trim()));
  assert.deepEqual(await row('query'), ['query', 'string', 'required', '—', 'length ≥ 1, length ≤ 200', 'Words to look for']);
  assert.deepEqual(await row('limit'), ['limit', 'integer', 'optional', '10', '≥ 1, ≤ 50', 'How many hits']);
  assert.deepEqual((await row('filters.properties.tags')).slice(0, 3), ['↳ tags', 'array of string', 'required']);
  assert.match((await row('filters'))[5] ?? '', /no description/);
  assert.equal(await page.getAttribute('.risk-badge', 'data-risk'), 'Low');
  assert.equal(await page.getAttribute('.tokens', 'data-tokens'), String(view.tokens!.tool));
  assert.match((await page.textContent('.token-figures')) ?? '', new RegExp(`whole tool list \\(2 tools\\): ${view.tokens!.server} tokens`));
  const json = await page.textContent('pre.contract-json');
  assert.deepEqual(JSON.parse(json ?? ''), contracts[0]);
  // Output schema rows and findings (errors/warnings first).
  assert.ok(await page.$('tr[data-param="outputSchema.properties.hits.properties.url"]'));
  assert.deepEqual(await page.$$eval('li.finding', (lis) => lis.map((li) => li.getAttribute('data-rule'))), ['description-too-short', 'param-unbounded-string']);
  // Components from @vscode-elements are real custom elements, upgraded.
  assert.ok(await page.evaluate(() => !!customElements.get('vscode-button') && !!customElements.get('vscode-collapsible')));
  await p.screenshot('preview-webview.png');
});

test('a description full of markup stays text: no element is created, nothing runs', async () => {
  await p.send({ type: 'render', view: await viewOf(1) });
  await p.page.waitForSelector('h1.tool-name:text("send_mail")');
  assert.equal(await p.page.textContent('p.description'), HOSTILE);
  assert.equal(await p.page.$$eval('main img, main script, main b', (els) => els.length), 0);
  assert.equal(await p.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  // No annotations: clients assume destructive + open world.
  assert.equal(await p.page.getAttribute('.risk-badge', 'data-risk'), 'Critical');
  assert.match((await p.page.textContent('vscode-collapsible[data-section="risk"]')) ?? '', /No autonomous execution/);
});

test('buttons post typed messages to the extension', async () => {
  await p.send({ type: 'render', view: await viewOf(1) });
  await p.page.waitForSelector('h1.tool-name:text("send_mail")');
  await p.clearPosted();
  await p.page.click('[data-action="copy-json"]');
  await p.page.click('[data-action="config-claude"]');
  await p.page.click('li.finding[data-rule="param-unbounded-string"] [data-action="fix"]');
  await p.page.click('li.finding[data-rule="description-too-short"] [data-action="reveal"]');
  await p.page.click('li.finding[data-rule="description-too-short"] [data-action="docs"]');
  await p.page.click('[data-action="compare"]');
  assert.deepEqual(await p.posted(), [
    { type: 'copyJson' },
    { type: 'copyConfig', target: 'claude' },
    { type: 'fix', index: 1 },
    { type: 'reveal', uri: 'file:///work/examples/ts/server.ts', range: range(12) },
    { type: 'openDocs', ruleId: 'description-too-short' },
    { type: 'live', action: 'compare' },
  ]);
  // The warning has no fix: no Fix button is offered for it.
  assert.equal(await p.page.$('li.finding[data-rule="description-too-short"] [data-action="fix"]'), null);
});

test('re-rendering the same tool keeps the scroll position; another tool starts at the top; state survives hide/show', async () => {
  await p.page.setViewportSize({ width: 1100, height: 400 });
  const view = await viewOf(0);
  await p.send({ type: 'render', view });
  await p.page.waitForSelector('h1.tool-name:text("search_docs")');
  await p.page.evaluate(() => window.scrollTo(0, 350));
  await p.page.waitForTimeout(150);
  // The source changed (debounced by the host): the same tool comes back with a new description.
  await p.send({ type: 'render', view: { ...view, description: 'Search the documentation, now with more words to read.' } });
  await p.page.waitForFunction(() => document.querySelector('p.description')?.textContent?.includes('more words'));
  await p.page.waitForTimeout(100);
  assert.equal(await p.page.evaluate(() => Math.round(window.scrollY)), 350);
  // Hide/show: VS Code reloads the webview; it renders from its saved state before the host answers.
  await p.page.reload();
  await p.page.waitForSelector('p.description');
  assert.match((await p.page.textContent('p.description')) ?? '', /more words/);
  await p.page.waitForTimeout(150);
  assert.equal(await p.page.evaluate(() => Math.round(window.scrollY)), 350);
  // Another tool: top of the page.
  await p.send({ type: 'render', view: await viewOf(1) });
  await p.page.waitForSelector('h1.tool-name:text("send_mail")');
  await p.page.waitForTimeout(100);
  assert.equal(await p.page.evaluate(() => window.scrollY), 0);
  await p.page.setViewportSize({ width: 1100, height: 900 });
});

test('live comparison: a stale server — changed fields listed, restart offered and posted', async () => {
  const view = await viewOf(0);
  await p.send({ type: 'render', view });
  await p.page.waitForSelector('h1.tool-name:text("search_docs")');
  const live = {
    ...contracts[0],
    description: 'Old description.',
    inputSchema: {
      ...(contracts[0].inputSchema as object),
      properties: { ...(contracts[0].inputSchema as { properties: object }).properties, limit: { type: 'integer', minimum: 1, maximum: 20, default: 10, description: 'How many hits' } },
    },
  } as JsonSchema;
  const diff = compareContracts({
    toolName: 'search_docs',
    predicted: contracts[0],
    live,
    unresolved: [],
    stale: { message: 'server.ts was saved at 10:02:03, after the server started (10:01:00).' },
  });
  await p.send({
    type: 'live',
    key: view.key,
    live: { state: 'running', summary: `${diff.differences.length} fields differ from the running server`, diff, canRestart: true, canStart: false, startedAt: new Date().toISOString() },
  });
  await p.page.waitForSelector('tr[data-diff-path]');
  assert.deepEqual(await p.page.$$eval('tr[data-diff-path]', (rows) => rows.map((r) => r.getAttribute('data-diff-path'))), ['description', 'inputSchema.properties.limit.maximum']);
  assert.deepEqual(await p.page.$$eval('tr[data-diff-path$="maximum"] td', (tds) => tds.map((t) => t.textContent)), ['inputSchema.properties.limit.maximum', 'changed', '50', '20']);
  assert.match((await p.page.textContent('li[data-reason="stale"]')) ?? '', /running stale code/);
  await p.page.locator('vscode-collapsible[data-section="live"]').scrollIntoViewIfNeeded();
  await p.screenshot('preview-webview-live-diff.png');
  await p.clearPosted();
  await p.page.click('li[data-reason="stale"] [data-action="restart"]');
  assert.deepEqual(await p.posted(), [{ type: 'live', action: 'restart' }]);
  // Only one restart button while the stale reason offers it.
  assert.equal(await p.page.$$eval('[data-action="restart"]', (b) => b.length), 1);
});

test('unresolved parts are marked in the reading and listed with a way to them', async () => {
  const { description: _d, ...partial } = contracts[0];
  const view = await viewOf(0, {
    contract: partial,
    unresolved: [{ part: 'description', reason: 'built by a function call (describe())', uri: 'file:///work/examples/ts/server.ts', range: range(11) }],
  });
  await p.send({ type: 'render', view });
  await p.page.waitForSelector('.description-block .unresolved');
  assert.match((await p.page.textContent('.description-block .unresolved')) ?? '', /unresolved: built by a function call/);
  await p.clearPosted();
  await p.page.click('[data-action="reveal-unresolved"]');
  assert.deepEqual(await p.posted(), [{ type: 'reveal', uri: 'file:///work/examples/ts/server.ts', range: range(11) }]);
});

test('a tool registered under a guard says it is listed only when the guard holds, as text, with a way to it', async () => {
  const guard = '<img src=x onerror="window.__pwned=3">clientSupportsSampling';
  const view = await viewOf(0, { condition: { text: guard, uri: 'file:///work/examples/ts/tools/sampling.ts', range: range(41) } });
  await p.send({ type: 'render', view });
  await p.page.waitForSelector('header p.condition');
  assert.equal(await p.page.textContent('header p.condition code'), guard, 'the guard is shown as written, as text');
  assert.match((await p.page.textContent('header p.condition')) ?? '', /^Listed only when .* holds at run time: a running server may not list this tool\./);
  assert.equal(await p.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  await p.clearPosted();
  await p.page.click('[data-action="reveal-condition"]');
  assert.deepEqual(await p.posted(), [{ type: 'reveal', uri: 'file:///work/examples/ts/tools/sampling.ts', range: range(41) }]);
  await p.send({ type: 'render', view: await viewOf(0) });
  await p.page.waitForSelector('header p.condition', { state: 'detached' });
});

test('the prompts and resources of the server are listed as data, with their unresolved parts', async () => {
  const file = 'file:///work/examples/ts/server.ts';
  const surfaces = await liveSurfaces((server) => {
    server.registerPrompt('review_code', { title: 'Code review', description: 'Review a snippet.', argsSchema: { code: z.string().describe('The code'), focus: z.string().optional() } }, () => ({
      messages: [],
    }));
    server.registerPrompt('summarize', { description: HOSTILE }, () => ({ messages: [] }));
    server.registerResource('readme', 'docs://readme', { title: 'README', mimeType: 'text/markdown', description: 'The project README.' }, async () => ({ contents: [] }));
    server.registerResource('user', new ResourceTemplate('users://{id}', { list: undefined }), { description: HOSTILE }, async () => ({ contents: [] }));
    server.registerResource('logs', 'logs://today', {}, async () => ({ contents: [] }));
  });
  const unresolved = [{ part: 'list', reason: "resources/list also holds what this template's list callback returns at run time", uri: file, range: range(40) }];
  const view = buildPreview({
    tool: tool(contracts[0]),
    serverContracts: contracts,
    findings: [],
    prompts: [
      ...surfaces.prompts.map((contract, i) => ({ name: contract.name as string, uri: file, range: range(20 + i), contract, unresolved: [], serverId: 'server' })),
      // A prompt of another server in the same file is not this tool's server's.
      { name: 'elsewhere', uri: file, range: range(30), contract: { name: 'elsewhere' }, unresolved: [], serverId: 'other' },
    ],
    resources: [
      ...surfaces.resources.map((contract, i) => ({ kind: 'resource' as const, name: contract.name as string, uri: file, range: range(32 + i), contract, unresolved: [], serverId: 'server' })),
      ...surfaces.resourceTemplates.map((contract) => ({ kind: 'template' as const, name: contract.name as string, uri: file, range: range(40), contract, unresolved, serverId: 'server' })),
    ],
  });
  await p.send({ type: 'render', view });
  const { page } = p;
  await page.waitForSelector('vscode-collapsible[data-section="prompts"]');
  const cells = (selector: string) => page.$$eval(`${selector} > td`, (tds) => tds.map((td) => td.textContent?.trim()));
  assert.deepEqual(await page.$$eval('tr[data-prompt]', (rows) => rows.map((r) => r.getAttribute('data-prompt'))), ['review_code', 'summarize']);
  const review = await cells('tr[data-prompt="review_code"]');
  assert.equal(review[0], 'review_codeCode review');
  assert.equal(review[1], 'Review a snippet.');
  assert.equal(review[2], 'code (required) — The codefocus (optional)');
  assert.equal(await page.textContent('tr[data-prompt="summarize"] td.prompt-description'), HOSTILE);
  assert.deepEqual(await page.$$eval('tr[data-resource]', (rows) => rows.map((r) => `${r.getAttribute('data-kind')} ${r.getAttribute('data-resource')}`)), [
    'resource docs://readme',
    'resource logs://today',
    'template users://{id}',
  ]);
  assert.deepEqual(await cells('tr[data-resource="docs://readme"]'), ['docs://readmeresource', 'readmeREADME', 'text/markdown', 'The project README.', 'server.ts:33:3']);
  assert.match((await cells('tr[data-resource="logs://today"]'))[3] ?? '', /^no description$/);
  assert.match((await page.textContent('tr[data-resource="users://{id}"] td.resource-description')) ?? '', /unresolved: resources\/list also holds/);
  // Contract text stays text: no element from the hostile descriptions, nothing ran.
  assert.equal(await page.$$eval('main img, main script, main b', (els) => els.length), 0);
  assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  await page.locator('vscode-collapsible[data-section="resources"]').scrollIntoViewIfNeeded();
  await p.screenshot('preview-webview-resources.png');
  await p.clearPosted();
  await page.click('tr[data-prompt="summarize"] [data-action="reveal-prompt"]');
  await page.click('tr[data-resource="users://{id}"] [data-action="reveal-unresolved"]');
  assert.deepEqual(await p.posted(), [
    { type: 'reveal', uri: file, range: range(21) },
    { type: 'reveal', uri: file, range: range(40) },
  ]);
});

test('no CSP violation and no page error in all of the above', async () => {
  assert.deepEqual(await p.cspViolations(), []);
  assert.deepEqual(p.pageErrors, []);
});
