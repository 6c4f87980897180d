// Resource templates and prompts with arguments against a real SDK server (test/fixtures/servers/ts/catalog.ts, which
// serves its lists two items a page): the tree lists every template with its uriTemplate, a template read with given
// values returns what the server made of them, prompts/get with arguments returns the server's messages, and a
// missing required argument or variable is reported by name without sending anything.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { McpSession } from '../../../client/src/servers/session';
import type { ServerConfig } from '../../../client/src/servers/discovery';
import { groupChildren, groupText, serverChildren, templateText } from '../../../client/src/servers/treeModel';
import { expandTemplate, templateVariables } from '../../../client/src/servers/templates';
import { promptArgumentsSchema, templateVariablesSchema } from '../../../common/playground-messages';
import { nodeServer, playgroundOn, pyServer, root, tsServer } from './helpers';

const sessions: McpSession[] = [];
after(() => Promise.all(sessions.map((s) => s.stop())));

const config: ServerConfig = { id: 'setting:catalog', name: 'catalog', origin: 'setting', command: 'node', args: [], env: {}, inputs: [], watchRoot: root };

async function started(spec: ConstructorParameters<typeof McpSession>[0]): Promise<McpSession> {
  const s = new McpSession(spec);
  sessions.push(s);
  await s.start();
  return s;
}

/** The catalog lists are not awaited by start(): wait until they arrived. */
async function settled(s: McpSession, done: (s: McpSession) => boolean): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!done(s)) {
    if (Date.now() > deadline) throw new Error(`catalog not listed: ${JSON.stringify({ templates: s.resourceTemplates, prompts: s.prompts, errors: s.catalogErrors })}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function controllerFor(session: McpSession) {
  return playgroundOn(session, 'catalog', 'catalog');
}

describe('a server with resource templates and prompts with arguments', () => {
  let s: McpSession;
  before(async () => {
    s = await started(tsServer('catalog.ts'));
    await settled(s, (x) => x.resourceTemplates.length === 3 && x.prompts.length === 3 && x.resources.length === 1);
  });

  test('the tree lists every template (all pages) in a "Resource templates" group, with its uriTemplate', () => {
    const groups = serverChildren(config, s).filter((n) => n.kind === 'group');
    assert.deepEqual(
      groups.map((g) => (g.kind === 'group' ? `${groupText(g).label} (${groupText(g).description})` : '')),
      ['Resources (1)', 'Resource templates (3)', 'Prompts (3)'],
    );
    const rows = groupChildren(config, s, 'templates').map((n) => {
      assert.equal(n.kind, 'template');
      const t = n.kind === 'template' ? templateText(n.template) : undefined;
      return `${t?.label} — ${t?.description}`;
    });
    assert.deepEqual(rows, ['Note by folder and name — notes://{folder}/{name} · text/plain', 'search — search://notes{?q}', 'page — pages://{id} · text/html']);
    const note = groupChildren(config, s, 'templates')[0];
    assert.ok(note.kind === 'template');
    if (note.kind === 'template') {
      const tip = templateText(note.template).tooltip;
      assert.match(tip, /One note of a folder/);
      assert.match(tip, /Variables: folder\*, name\* \(\* required\)/);
    }
  });

  test('template variables: path ones required, query ones optional; the SDK expands them percent-encoded', () => {
    assert.deepEqual(templateVariables('notes://{folder}/{name}'), [
      { name: 'folder', expression: '{folder}', required: true },
      { name: 'name', expression: '{name}', required: true },
    ]);
    assert.deepEqual(
      templateVariables('search://notes{?q,limit}').map((v) => [v.name, v.required]),
      [
        ['q', false],
        ['limit', false],
      ],
    );
    assert.equal(expandTemplate('notes://{folder}/{name}', { folder: 'work', name: 'plan 2026/b' }), 'notes://work/plan%202026%2Fb');
    assert.equal(expandTemplate('search://notes{?q,limit}', { q: 'a&b', limit: '' }), 'search://notes?q=a%26b');
    const schema = templateVariablesSchema({ variables: templateVariables('notes://{folder}/{name}') });
    assert.deepEqual(schema.required, ['folder', 'name']);
  });

  test('reading a template with values returns the content the server made for them', async () => {
    const { c, posted } = controllerFor(s);
    const read = await c.readTemplate('notes://{folder}/{name}', { folder: 'work', name: 'plan 2026' });
    assert.equal(read.error, undefined);
    assert.equal(read.uri, 'notes://work/plan%202026');
    assert.deepEqual(read.contents, [{ type: 'resource', uri: 'notes://work/plan%202026', mimeType: 'text/plain', text: 'Note "plan 2026" in folder "work"' }]);
    assert.equal(posted.at(-1), read, 'what is returned is what the webview is sent');
    const search = await c.readTemplate('search://notes{?q}', { q: 'budget' });
    assert.deepEqual(JSON.parse(search.contents[0].type === 'resource' ? (search.contents[0].text ?? '') : ''), { query: 'budget', hits: ['budget in work/plan'] });
  });

  test('a required template variable left empty is named and nothing is read; forced, the server answers for itself', async () => {
    const { c } = controllerFor(s);
    const missing = await c.readTemplate('notes://{folder}/{name}', { folder: 'work' });
    assert.match(missing.error ?? '', /^Missing required variable: name\. .*nothing was sent/);
    assert.deepEqual(missing.violations, [{ path: '/name', message: 'is required', keyword: 'required' }]);
    assert.deepEqual(missing.contents, []);
    const forced = await c.readTemplate('notes://{folder}/{name}', { folder: 'work' }, true);
    assert.equal(forced.uri, 'notes://work/');
    assert.match(forced.error ?? '', /Resource notes:\/\/work\/ not found/);
  });

  test('prompts/list: every page, with the declared arguments the form is drawn from', () => {
    assert.deepEqual(
      s.prompts.map((p) => p.name),
      ['review_code', 'show_everything', 'daily_summary'],
    );
    const review = s.prompts[0];
    assert.deepEqual(promptArgumentsSchema(review), {
      type: 'object',
      properties: { language: { type: 'string', description: 'Programming language of the code' }, focus: { type: 'string', description: 'What to look at first' } },
      required: ['language'],
      additionalProperties: false,
    });
  });

  test('a prompt got with arguments returns the server messages, roles and every content kind', async () => {
    const { c } = controllerFor(s);
    const got = await c.getPrompt('review_code', { language: 'Rust', focus: 'lifetimes' });
    assert.equal(got.error, undefined);
    assert.equal(got.description, 'Review of Rust code');
    assert.deepEqual(got.messages, [
      { role: 'user', content: { type: 'text', text: 'Please review this Rust code, looking at lifetimes first.' } },
      { role: 'assistant', content: { type: 'text', text: 'Sure: paste the Rust code.' } },
    ]);
    assert.match(got.raw ?? '', /"messages"/);
    const all = await c.getPrompt('show_everything', { topic: 'cats' });
    assert.deepEqual(
      all.messages.map((m) => `${m.role} ${m.content.type}`),
      ['user text', 'user image', 'user audio', 'assistant resource', 'assistant resource_link'],
    );
    const embedded = all.messages[3].content;
    assert.deepEqual(embedded, { type: 'resource', uri: 'notes://work/cats', mimeType: 'text/plain', text: 'embedded note on cats' });
    const none = await c.getPrompt('daily_summary', {});
    assert.deepEqual(none.messages, [{ role: 'user', content: { type: 'text', text: 'Summarise what happened today.' } }]);
  });

  test('a missing required argument is named with its description and prompts/get is not sent; forced, the SDK server refuses it', async () => {
    const { c, posted } = controllerFor(s);
    const got = await c.getPrompt('review_code', { focus: 'tests' });
    assert.equal(got.error, 'Missing required argument: language (Programming language of the code). prompts/get was not sent.');
    assert.deepEqual(
      got.violations?.map((v) => `${v.path} ${v.message}`),
      ['/language is required'],
    );
    assert.deepEqual(got.messages, []);
    assert.equal(posted.length, 1);
    const forced = await c.getPrompt('review_code', { focus: 'tests' }, true);
    assert.equal(forced.violations, undefined);
    assert.match(forced.error ?? '', /Invalid arguments for prompt review_code/);
    assert.match(forced.error ?? '', /language/);
  });

  test('completion/complete: prompt argument by prefix, template variable from the other values given as context', async () => {
    assert.ok(s.capabilities?.completions, 'the server declares completions');
    const { c, posted } = controllerFor(s);
    await c.handle({ type: 'complete', requestId: 1, ref: { type: 'ref/prompt', name: 'review_code' }, argument: 'language', value: 'r', context: {} });
    await c.handle({ type: 'complete', requestId: 2, ref: { type: 'ref/resource', uri: 'notes://{folder}/{name}' }, argument: 'name', value: '', context: { folder: 'work' } });
    await c.handle({ type: 'complete', requestId: 3, ref: { type: 'ref/resource', uri: 'notes://{folder}/{name}' }, argument: 'name', value: '', context: { folder: 'home' } });
    await c.handle({ type: 'complete', requestId: 4, ref: { type: 'ref/prompt', name: 'no_such_prompt' }, argument: 'x', value: '', context: {} });
    const answers = posted.filter((m) => m.type === 'completion').map((m) => (m.type === 'completion' ? [m.requestId, m.values, m.error ?? ''] : []));
    assert.deepEqual(answers.slice(0, 3), [
      [1, ['Ruby', 'Rust'], ''],
      [2, ['budget', 'plan 2026'], ''],
      [3, ['groceries'], ''],
    ]);
    assert.equal(answers[3][0], 4);
    assert.deepEqual(answers[3][1], []);
    assert.match(String(answers[3][2]), /Prompt no_such_prompt not found/);
  });

  test('the webview messages of the catalog carry the templates with their variables', async () => {
    const { c, posted } = controllerFor(s);
    await c.handle({ type: 'listCatalog' });
    const cat = posted.find((m) => m.type === 'catalog');
    assert.ok(cat?.type === 'catalog');
    if (cat?.type !== 'catalog') return;
    assert.equal(cat.error, undefined);
    assert.deepEqual(
      cat.templates.map((t) => [t.uriTemplate, t.variables.map((v) => v.name)]),
      [
        ['notes://{folder}/{name}', ['folder', 'name']],
        ['search://notes{?q}', ['q']],
        ['pages://{id}', ['id']],
      ],
    );
    assert.deepEqual(
      cat.prompts.map((p) => p.name),
      ['review_code', 'show_everything', 'daily_summary'],
    );
    assert.equal(cat.completions, true);
  });
});

test('a server whose resources/templates/list is "Method not found" has no templates group, not an error', async () => {
  const s = await started(nodeServer('misbehaving.mjs', 'bad-catalog'));
  await settled(s, (x) => !!x.catalogErrors.resources && !!x.catalogErrors.prompts);
  // The templates answer comes in its own time: give it as long as the two lists above took.
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(s.catalogErrors.templates, undefined);
  assert.deepEqual(s.resourceTemplates, []);
  assert.deepEqual(
    serverChildren(config, s)
      .filter((n) => n.kind === 'group')
      .map((n) => (n.kind === 'group' ? n.group : '')),
    ['resources', 'prompts'],
  );
});

test('a failing resources/templates/list: the group shows the error; the playground still lists resources and prompts', async () => {
  const s = await started(tsServer('catalog.ts', 'broken-templates'));
  await settled(s, (x) => !!x.catalogErrors.templates && x.prompts.length === 3 && x.resources.length === 1);
  const group = serverChildren(config, s).find((n) => n.kind === 'group' && n.group === 'templates');
  assert.ok(group?.kind === 'group');
  if (group?.kind === 'group') assert.equal(groupText(group).description, 'could not be listed');
  assert.deepEqual(
    groupChildren(config, s, 'templates').map((n) => (n.kind === 'note' ? `${n.error ? '!' : ''}${n.text}` : n.kind)),
    ['!resources/templates/list failed: MCP error -32603: template store offline'],
  );
  const { c, posted } = controllerFor(s);
  await c.handle({ type: 'listCatalog' });
  const cat = posted.find((m) => m.type === 'catalog');
  assert.ok(cat?.type === 'catalog');
  if (cat?.type !== 'catalog') return;
  assert.equal(cat.error, 'resources/templates/list failed: MCP error -32603: template store offline');
  assert.deepEqual([cat.resources.length, cat.templates.length, cat.prompts.length], [1, 0, 3]);
});

test('Python server (official SDK): its template is listed and read with values, its prompt got with arguments', async () => {
  const s = await started(pyServer('catalog.py'));
  await settled(s, (x) => x.resourceTemplates.length > 0 && x.prompts.length > 0);
  assert.deepEqual(
    groupChildren(config, s, 'templates').map((n) => (n.kind === 'template' ? `${templateText(n.template).label} — ${templateText(n.template).description}` : n.kind)),
    ['Note by folder and name — notes://{folder}/{name} · text/plain'],
  );
  const { c } = controllerFor(s);
  const read = await c.readTemplate('notes://{folder}/{name}', { folder: 'home', name: 'list' });
  assert.equal(read.error, undefined);
  assert.equal(read.contents[0].type === 'resource' && read.contents[0].text, 'Python note "list" in folder "home"');
  assert.deepEqual(
    s.prompts[0].arguments?.map((a) => [a.name, a.required === true]),
    [
      ['language', true],
      ['focus', false],
    ],
  );
  const got = await c.getPrompt('review_code', { language: 'Python', focus: 'typing' });
  assert.deepEqual(
    got.messages.map((m) => `${m.role}: ${m.content.type === 'text' ? m.content.text : m.content.type}`),
    ['user: Please review this Python code, looking at typing first.', 'assistant: Sure: paste the Python code.'],
  );
  const missing = await c.getPrompt('review_code', {});
  assert.equal(missing.error, 'Missing required argument: language (Programming language of the code). prompts/get was not sent.');
  const forced = await c.getPrompt('review_code', {}, true);
  assert.ok(forced.error && !forced.violations, 'the Python server refuses it itself');
  // Its own words, with the JSON-RPC code: on the protocol the 2.x client negotiates with mcp 2.x, the Python server
  // answers a missing argument with -32603 "Internal server error" (1.x-era clients were told which argument).
  assert.match(forced.error ?? '', s.protocolVersion === '2026-07-28' ? /^MCP error -32603/ : /language/);
});
