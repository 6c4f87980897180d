/**
 * Fixture-driven protocol tests: what an editor sees for each annotated fixture — the exact diagnostics (rule and
 * range), the quick fixes offered for them, the text after applying them, fix-all, hover and code lenses.
 */
import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import type { CodeAction, Diagnostic, MarkupContent } from 'vscode-languageserver-protocol';
import { LspClient, ROOT, fileUri, tempDir } from './harness';
import { loadFixture, describeAll, severityName, type Expectation } from './fixtures';

const ANNOTATED = ['ts/helpdesk.ts', 'py/docs_server.py', 'py/fastmcp_notes.py', 'clean/search.ts'];

let client: LspClient;
let dir: string;
before(async () => {
  dir = tempDir();
  // The fixtures pin every rule's diagnostics: the strict preset runs them all (the default, recommended, skips some).
  client = await LspClient.start({ initializationOptions: { diagnosticsDelayMs: 0, workspaceScan: false, settings: { preset: 'strict' } } });
});
after(async () => {
  await client.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Writes the stripped fixture to the temp dir (so it is a real file) and opens it. */
async function openFixture(rel: string, as = rel) {
  const fx = loadFixture(rel);
  const file = path.join(dir, as);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, fx.code);
  const uri = fileUri(file);
  await client.open(uri, fx.code);
  const published = await client.diagnosticsFor(uri, 1);
  return { fx, file, uri, published };
}

function asExpectations(diagnostics: Diagnostic[]): Expectation[] {
  return diagnostics.map((d) => ({ ruleId: String(d.code), severity: severityName(d.severity)!, range: d.range }));
}

function cliFixTitles(file: string): Map<string, string[]> {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'dist/cli.js'), 'check', '--format', 'json', '--preset', 'strict', file], { encoding: 'utf8', cwd: dir });
  const rows = JSON.parse(r.stdout) as { line: number; column: number; endLine: number; endColumn: number; ruleId: string; fixes: { title: string }[] }[];
  return new Map(rows.map((x) => [`${x.line - 1}:${x.column - 1}-${x.endLine - 1}:${x.endColumn - 1} ${x.ruleId}`, x.fixes.map((f) => f.title)]));
}

for (const rel of ANNOTATED) {
  test(`${rel}: exactly the marked diagnostics, each with source, code and a docs link`, async () => {
    const { fx, published } = await openFixture(rel);
    assert.deepEqual(describeAll(asExpectations(published.diagnostics)), describeAll(fx.expected));
    for (const d of published.diagnostics) {
      assert.equal(d.source, 'toolsmith');
      assert.match(String(d.code), /^[a-z0-9-]+$/);
      assert.match(d.codeDescription?.href ?? '', new RegExp(`^https://.+/docs/rules/${d.code}\\.md$`));
      // LSP 3.18 types a message as string | MarkupContent; ours are plain strings.
      assert.ok(typeof d.message === 'string' && d.message.length > 40, 'the message explains the problem');
    }
  });
}

for (const rel of ['ts/helpdesk.ts', 'py/docs_server.py', 'py/fastmcp_notes.py']) {
  test(`${rel}: quick fixes offered per diagnostic match the findings' fixes; applying each removes its finding`, async () => {
    const { file, uri, published } = await openFixture(rel, `quickfix/${rel}`);
    const titlesFromCli = cliFixTitles(file);
    let applied = 0;
    for (const d of published.diagnostics) {
      const actions = ((await client.codeActions(uri, d.range)) ?? []) as CodeAction[];
      const mine = actions.filter((a) => a.kind === 'quickfix' && a.diagnostics?.some((x) => x.code === d.code && sameRange(x.range, d.range)));
      const key = `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.code}`;
      assert.deepEqual(
        mine.map((a) => a.title),
        titlesFromCli.get(key) ?? [],
        `fixes offered for ${key}`,
      );
      if (mine.length) assert.equal(mine[0].isPreferred, true, 'the first fix is preferred');
      assert.ok(mine.slice(1).every((a) => !a.isPreferred));
      // Apply the first fix to a copy of the document, check the finding is gone, then restore.
      if (!mine[0]?.edit) continue;
      const original = client.text(uri);
      const texts = await client.applyEdit(mine[0].edit);
      const after = await client.diagnosticsFor(uri);
      assert.ok(texts.get(uri) !== original, `${mine[0].title} changed the text`);
      const still = after.diagnostics.filter((x) => x.code === d.code && x.range.start.line === d.range.start.line && x.message === d.message);
      assert.deepEqual(still, [], `${mine[0].title} removed ${d.code}`);
      applied++;
      await client.change(uri, original);
      await client.diagnosticsFor(uri);
    }
    assert.ok(applied >= 1, 'at least one fix applied');
  });

  test(`${rel}: source.fixAll.toolsmith gives the expected text and leaves only the marked diagnostics`, async () => {
    const { fx, uri } = await openFixture(rel, `fixall/${rel}`);
    const fixed = loadFixture(rel.replace(/(\.\w+)$/, '.fixed$1'));
    const end = client.documents.get(uri)!.positionAt(fx.code.length);
    const whole = { start: { line: 0, character: 0 }, end };
    const plain = ((await client.codeActions(uri, whole)) ?? []) as CodeAction[];
    assert.ok(!plain.some((a) => a.kind === 'source.fixAll.toolsmith'), 'fix-all is a source action, only offered when asked for');
    const actions = ((await client.codeActions(uri, whole, ['source.fixAll'])) ?? []) as CodeAction[];
    assert.deepEqual(
      actions.map((a) => a.kind),
      ['source.fixAll.toolsmith'],
    );
    const texts = await client.applyEdit(actions[0].edit!);
    assert.equal(texts.get(uri), fixed.code);
    const after = await client.diagnosticsFor(uri);
    assert.deepEqual(describeAll(asExpectations(after.diagnostics)), describeAll(fixed.expected));
  });
}

function sameRange(a: Diagnostic['range'], b: Diagnostic['range']): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;
}

test('quick fix on helpdesk.ts: "Set readOnlyHint to false" rewrites the hint in place', async () => {
  const { uri, published } = await openFixture('ts/helpdesk.ts', 'single/helpdesk.ts');
  const d = published.diagnostics.find((x) => x.code === 'annotation-contradicts-name')!;
  const actions = ((await client.codeActions(uri, { start: d.range.start, end: d.range.start })) ?? []) as CodeAction[];
  const fix = actions.find((a) => a.title === 'Set readOnlyHint to false');
  assert.ok(fix, `offered: ${actions.map((a) => a.title).join(', ')}`);
  assert.deepEqual(
    fix.diagnostics?.map((x) => x.code),
    ['annotation-contradicts-name'],
  );
  const before = client.text(uri);
  const text = (await client.applyEdit(fix.edit!)).get(uri)!;
  const line = text.split('\n')[d.range.start.line];
  assert.equal(line, before.split('\n')[d.range.start.line].replace('readOnlyHint: true', 'readOnlyHint: false'));
});

test('hover on a tool name shows its contract summary; elsewhere nothing', async () => {
  const { uri } = await openFixture('ts/helpdesk.ts', 'hover/helpdesk.ts');
  const { tools } = await client.tools(uri);
  assert.deepEqual(
    tools.map((t) => t.name),
    ['search_tickets', 'close_ticket'],
  );
  const search = tools[0];
  const hover = await client.hover(uri, { line: search.nameRange.start.line, character: search.nameRange.start.character + 3 });
  assert.ok(hover, 'a hover on the name');
  const md = (hover.contents as MarkupContent).value;
  assert.equal((hover.contents as MarkupContent).kind, 'markdown');
  assert.match(md, /\*\*MCP tool `search_tickets`\*\*/);
  assert.match(md, /Search helpdesk tickets by free text\./);
  assert.match(md, /\| Parameter \| Type \| Required \| Description \|/);
  assert.match(md, /\| `query` \| string \| yes \| Words to look for in ticket titles and bodies \|/);
  assert.match(md, /\| `limit` \| number \| yes \| How many tickets to return at most \|/);
  assert.match(md, /\*\*Annotations:\*\* `readOnlyHint: true`, `openWorldHint: false`/);
  assert.deepEqual(hover.range, search.nameRange);
  assert.equal(await client.hover(uri, { line: 0, character: 3 }), null, 'no hover on the import line');
});

test('code lens: "Preview contract" and "Run in playground" above each tool, with {uri, toolName}', async () => {
  const { uri } = await openFixture('py/docs_server.py', 'lens/docs_server.py');
  const { tools } = await client.tools(uri);
  const lenses = (await client.codeLens(uri)) ?? [];
  assert.equal(lenses.length, tools.length * 2);
  for (const t of tools) {
    const here = lenses.filter((l) => l.range.start.line === t.range.start.line);
    assert.deepEqual(
      here.map((l) => [l.command?.title, l.command?.command, l.command?.arguments]),
      [
        ['Preview contract', 'toolsmith.previewContract', [{ uri, toolName: t.name }]],
        ['Run in playground', 'toolsmith.openPlayground', [{ uri, toolName: t.name }]],
      ],
    );
  }
  assert.deepEqual(
    tools.map((t) => t.name),
    ['read_doc', 'grep_docs'],
  );
});

test('settings change re-analyses open documents without reload', async () => {
  const { uri, published } = await openFixture('ts/helpdesk.ts', 'settings/helpdesk.ts');
  assert.ok(published.diagnostics.some((d) => d.code === 'annotation-contradicts-name'));
  const mark = client.mark;
  await client.changeConfiguration({ preset: 'strict', rules: { 'annotation-contradicts-name': 'off', 'error-returned-as-success': 'error' } });
  const next = await client.nextDiagnostics(uri, mark);
  assert.equal(next.version, 1, 'same document version, new settings');
  assert.ok(!next.diagnostics.some((d) => d.code === 'annotation-contradicts-name'), 'rule turned off');
  assert.equal(next.diagnostics.find((d) => d.code === 'error-returned-as-success')?.severity, 1, 'severity raised to error');
  await client.changeConfiguration({});
  const back = await client.nextDiagnostics(uri, client.mark);
  assert.ok(
    back.diagnostics.some((d) => d.code === 'annotation-contradicts-name'),
    'defaults restored',
  );
  // The default preset (recommended) leaves out the strict-only rules this fixture also triggers.
  assert.ok(!back.diagnostics.some((d) => d.code === 'param-number-should-be-integer'), 'strict-only rule off by default');
  await client.changeConfiguration({ preset: 'strict' });
  const strict = await client.nextDiagnostics(uri, client.mark);
  assert.ok(
    strict.diagnostics.some((d) => d.code === 'param-number-should-be-integer'),
    'toolsmith.preset: strict turns it on',
  );
});
