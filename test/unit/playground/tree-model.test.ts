// The Servers tree under a running server: its tools, then "Resources" and "Prompts" groups when the server offers
// them (real fixture servers, TypeScript and Python), none when it offers nothing, the list error when listing fails,
// and a server that never answers resources/list still starts.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { McpSession } from '../../../client/src/servers/session';
import type { ServerConfig } from '../../../client/src/servers/discovery';
import { groupChildren, groupText, promptText, resourceText, serverChildren, templateText, type GroupChild, type ServerChild } from '../../../client/src/servers/treeModel';
import { nodeServer, pyServer, tsServer, root } from './helpers';

const sessions: McpSession[] = [];
after(async () => {
  await Promise.all(sessions.map((s) => s.stop()));
});

const config = (name: string): ServerConfig => ({ id: `setting:${name}`, name, origin: 'setting', command: 'node', args: [], env: {}, inputs: [], watchRoot: root });

/** catalogChanged events per session: one per resources/list or prompts/list answered (or failed). */
const listed = new Map<McpSession, number>();
async function started(spec: ConstructorParameters<typeof McpSession>[0]): Promise<McpSession> {
  const s = new McpSession(spec);
  sessions.push(s);
  s.on('catalogChanged', () => listed.set(s, (listed.get(s) ?? 0) + 1));
  await s.start();
  return s;
}

/** Waits until the session has listed (or failed to list) both catalogs; they arrive after start(). */
async function catalogSettled(s: McpSession, done: (s: McpSession) => boolean): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!done(s)) {
    if (Date.now() > deadline) throw new Error(`catalog not listed: ${JSON.stringify({ resources: s.resources, prompts: s.prompts, errors: s.catalogErrors })}`);
    await new Promise<void>((r) => {
      const t = setTimeout(r, 200);
      s.once('catalogChanged', () => {
        clearTimeout(t);
        r();
      });
    });
  }
}

/** The tree as a person reads it: label and description of each row, groups expanded. */
function shown(c: ServerConfig, s: McpSession): string[] {
  const rows: string[] = [];
  for (const n of serverChildren(c, s)) {
    if (n.kind === 'tool') {
      rows.push(`tool ${n.tool.name}`);
      continue;
    }
    const g = groupText(n);
    rows.push(`${g.label} (${g.description})`);
    for (const child of groupChildren(c, s, n.group)) rows.push(`  ${row(child)}`);
  }
  return rows;
}
function row(n: GroupChild): string {
  if (n.kind === 'note') return `${n.error ? '!' : ''}${n.text}`;
  const t = n.kind === 'resource' ? resourceText(n.resource) : n.kind === 'template' ? templateText(n.template) : promptText(n.prompt);
  return `${n.kind} ${t.label} — ${t.description ?? ''}`;
}

test('TypeScript server: tools, then a Resources and a Prompts group with what it lists', async () => {
  const c = config('ts');
  const s = await started(tsServer('well-behaved.ts'));
  await catalogSettled(s, (x) => x.resources.length > 0 && x.prompts.length > 0);
  const rows = shown(c, s);
  const groups = rows.filter((r) => !r.startsWith('tool ') && !r.startsWith('  '));
  assert.deepEqual(groups, ['Resources (1)', 'Prompts (1)']);
  // Tools come first, the groups after them.
  assert.ok(rows.indexOf('tool echo_text') >= 0 && rows.indexOf('tool echo_text') < rows.indexOf('Resources (1)'), rows.join('\n'));
  assert.deepEqual(rows.slice(rows.indexOf('Resources (1)')), [
    'Resources (1)',
    '  resource Readme — fixture://notes/readme · text/plain',
    'Prompts (1)',
    '  prompt Review code — review_code (language*)',
  ]);
  const res = groupChildren(c, s, 'resources')[0] as Extract<GroupChild, { kind: 'resource' }>;
  assert.equal(res.resource.uri, 'fixture://notes/readme', 'a click reads this uri');
  assert.match(resourceText(res.resource).tooltip, /A note/);
  // Stopped: nothing under the server.
  await s.stop();
  assert.deepEqual(serverChildren(c, s), []);
  assert.deepEqual(groupChildren(c, s, 'resources'), []);
});

test('Python server (official SDK): its resource and prompt, named as the decorators name them', async () => {
  const c = config('py');
  const s = await started(pyServer('well_behaved.py'));
  await catalogSettled(s, (x) => x.resources.length > 0 && x.prompts.length > 0);
  const rows = shown(c, s);
  assert.deepEqual(rows.slice(rows.findIndex((r) => r.startsWith('Resources'))), ['Resources (1)', '  resource hello — notes://hello · text/plain', 'Prompts (1)', '  prompt summarize — (topic*)']);
});

test('a server that offers no resources or prompts gets no empty groups (TS: no capability; Python: empty lists)', async () => {
  const ts = await started(tsServer('forms.ts'));
  const py = await started(pyServer('forms.py'));
  // The Python SDK declares resources and prompts whatever the server registers: wait for its (empty) lists.
  await catalogSettled(py, (x) => (listed.get(x) ?? 0) >= 2);
  // The TS server lists nothing: give a (wrong) late catalog the time to show up.
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(listed.get(ts) ?? 0, 0);
  for (const [name, s] of [
    ['ts', ts],
    ['py', py],
  ] as const) {
    const kinds = serverChildren(config(name), s).map((n: ServerChild) => n.kind);
    assert.ok(kinds.length > 0 && kinds.every((k) => k === 'tool'), `${name}: ${kinds.join(',')}`);
  }
  assert.ok(py.capabilities?.resources && py.capabilities?.prompts, 'the Python server does declare both');
  assert.deepEqual([py.resources, py.prompts, py.catalogErrors], [[], [], {}]);
});

test('listing fails: the group says so and shows the error instead of items', async () => {
  const c = config('bad');
  const s = await started(nodeServer('misbehaving.mjs', 'bad-catalog'));
  await catalogSettled(s, (x) => !!x.catalogErrors.resources && !!x.catalogErrors.prompts);
  assert.deepEqual(
    shown(c, s).filter((r) => !r.startsWith('tool ')),
    [
      'Resources (could not be listed)',
      '  !resources/list failed: MCP error -32601: Method not found: resources/list',
      'Prompts (could not be listed)',
      '  !prompts/list failed: MCP error -32601: Method not found: prompts/list',
    ],
  );
  assert.equal(s.status, 'running', 'a failing catalog is not a failing server');
});

test('a server that never answers resources/list still starts at once, with its tools', async () => {
  const c = config('silent');
  const t0 = Date.now();
  const s = await started(nodeServer('misbehaving.mjs', 'silent-catalog'));
  assert.ok(Date.now() - t0 < 10_000, `start took ${Date.now() - t0} ms`);
  assert.equal(s.status, 'running');
  assert.deepEqual(
    serverChildren(c, s).map((n) => n.kind),
    s.tools.map(() => 'tool'),
  );
  assert.ok(s.tools.length > 0);
});
