// The playground webview in headless Chromium, wired to the real host controller and live fixture servers:
// each form construct renders and yields exactly the expected arguments, validation messages show at the fields,
// results render as text (never HTML), and the page runs under a CSP without unsafe-*.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { McpSession } from '../../client/src/servers/session';
import { tsServer, nodeServer, pyServer, venvPython } from '../unit/playground/helpers';
import { openPlayground, closeBrowser, fill, chooseIn, tick, control, field, selectTool, call, MapMemento, type WebviewPage } from './harness';
import type { Page } from 'playwright-core';

const sessions: McpSession[] = [];
const pages: WebviewPage[] = [];
async function started(spec: ConstructorParameters<typeof McpSession>[0]): Promise<McpSession> {
  // What is tested is the page, not start-up: a Python server importing pydantic can take over the product's 15 s
  // on a loaded 2-core machine.
  const s = new McpSession(spec, { initializeTimeoutMs: 60_000 });
  sessions.push(s);
  await s.start();
  return s;
}
async function playground(session: McpSession, opts: Parameters<typeof openPlayground>[1] = {}) {
  const p = await openPlayground(session, opts);
  pages.push(p.wp);
  return p;
}
after(async () => {
  await Promise.all(pages.map((p) => p.close().catch(() => undefined)));
  await closeBrowser();
  await Promise.all(sessions.map((s) => s.stop()));
});

/** The text of the first text block of the shown result, parsed as JSON (the fixtures echo their arguments). */
async function echoed(page: Page): Promise<unknown> {
  const pre = page.locator('.result .content.text pre').first();
  await pre.waitFor();
  return JSON.parse((await pre.textContent()) ?? '');
}

async function outcome(page: Page): Promise<string> {
  const r = page.locator('.result-host .result');
  await r.waitFor();
  return (await r.getAttribute('data-outcome')) ?? '';
}

describe('forms over real zod output (TypeScript SDK)', () => {
  let session: McpSession;
  before(async () => {
    session = await started(tsServer('forms.ts'));
  });

  test('the page runs under a strict CSP: nonce, no unsafe-inline / unsafe-eval, no violation', async () => {
    const { wp, page } = await playground(session);
    assert.doesNotMatch(wp.csp, /unsafe-/);
    assert.match(wp.csp, /script-src 'nonce-[A-Za-z0-9]+'/);
    assert.match(wp.csp, /default-src 'none'/);
    assert.match(wp.html, new RegExp(`<script type="module" nonce="${/nonce-([A-Za-z0-9]+)/.exec(wp.csp)![1]}"`));
    await field(page, '/name').waitFor();
    assert.deepEqual(wp.cspViolations, []);
    assert.deepEqual(wp.pageErrors, []);
  });

  test('scalars: string formats, bounded numbers, booleans, enums and titled consts yield exactly the arguments', async () => {
    const { wp, page } = await playground(session);
    await selectTool(page, 'make_profile');
    assert.equal(await control(page, '/email').locator('vscode-textfield').getAttribute('type'), 'email');
    assert.equal(await control(page, '/birthday').locator('vscode-textfield').getAttribute('type'), 'date');
    assert.equal(await control(page, '/meeting').locator('vscode-textfield').getAttribute('type'), 'datetime-local');
    assert.match((await field(page, '/name').locator('.hint').textContent()) ?? '', /2–20 chars/);
    // zod's 150-character email regex is not shown: the format's name says it.
    assert.equal(await field(page, '/email').locator('.hint').textContent(), 'email');
    assert.equal(await field(page, '/ref').locator('.hint').textContent(), 'uuid');
    assert.equal(await field(page, '/count').locator('vscode-form-helper').textContent(), 'How many');
    assert.equal(await field(page, '/name').locator('vscode-label').getAttribute('required'), '');
    assert.equal(await field(page, '/email').locator('vscode-label').getAttribute('required'), null);
    await fill(page, '/name', 'Ada');
    await fill(page, '/email', 'ada@example.com');
    await fill(page, '/website', 'https://ada.dev');
    await fill(page, '/birthday', '1990-12-24');
    await fill(page, '/meeting', '2025-03-04T05:06:07');
    await fill(page, '/wake', '07:30');
    await fill(page, '/ref', '123e4567-e89b-42d3-a456-426614174000');
    await fill(page, '/count', '3');
    await fill(page, '/ratio', '0.5');
    await tick(page, '/verbose', 'verbose');
    await chooseIn(page, '/archived', 'true');
    await chooseIn(page, '/color', 'green');
    await chooseIn(page, '/level', 'High (hi)');
    const expected = {
      name: 'Ada',
      email: 'ada@example.com',
      website: 'https://ada.dev',
      birthday: '1990-12-24',
      meeting: '2025-03-04T05:06:07Z',
      wake: '07:30',
      ref: '123e4567-e89b-42d3-a456-426614174000',
      count: 3,
      ratio: 0.5,
      verbose: true,
      archived: true,
      color: 'green',
      level: 'hi',
      units: 'metric',
    };
    const msg = await call(wp);
    assert.deepEqual(msg.args, expected);
    assert.equal(await outcome(page), 'ok');
    assert.deepEqual(await echoed(page), expected);
  });

  test('optional fields left empty are omitted; defaults are pre-filled', async () => {
    const { wp, page } = await playground(session);
    await selectTool(page, 'make_profile');
    await fill(page, '/name', 'Bo');
    await fill(page, '/count', '1');
    await chooseIn(page, '/color', 'red');
    const msg = await call(wp);
    assert.deepEqual(msg.args, { name: 'Bo', count: 1, color: 'red', verbose: false, units: 'metric' });
  });

  test('a Servers-tree click on the tool already shown keeps what was typed; a new call clears the last result', async () => {
    const { wp, page } = await playground(session);
    await selectTool(page, 'make_profile');
    await fill(page, '/name', 'Bo');
    // The click that opened the panel on this tool can arrive after the first keystrokes.
    await wp.send({ type: 'select', tool: 'make_profile' });
    assert.equal(await control(page, '/name').locator('vscode-textfield input').inputValue(), 'Bo');
    await fill(page, '/count', '1');
    await chooseIn(page, '/color', 'red');
    await call(wp);
    assert.equal(await outcome(page), 'ok');
    // The next call's answer is never confused with this one: the old result goes when the call is sent.
    await fill(page, '/count', '2.5');
    const since = wp.posted.length;
    await page.locator('vscode-button[data-action="call"]').click();
    await page.locator('.notice').filter({ hasText: 'do not match the inputSchema' }).waitFor();
    assert.equal(wp.posted.slice(since).filter((m) => m.type === 'call').length, 1);
    assert.equal(await page.locator('.result-host .result').count(), 0, 'the previous result is gone');
  });

  test('validation: messages at each field, integers refuse decimals, "Send anyway" reaches the server', async () => {
    const { wp, page } = await playground(session);
    await selectTool(page, 'make_profile');
    await fill(page, '/name', 'A');
    await fill(page, '/count', '2.5');
    assert.equal(await control(page, '/count').locator('.inline-note').textContent(), 'must be an integer (no decimals)');
    await fill(page, '/email', 'not-an-email');
    const since = wp.posted.length;
    await page.locator('vscode-button[data-action="call"]').click();
    await page.locator('.notice').filter({ hasText: 'do not match the inputSchema' }).waitFor();
    assert.match((await field(page, '/name').locator('.error').textContent()) ?? '', /must NOT have fewer than 2 characters/);
    assert.match((await field(page, '/count').locator('.error').textContent()) ?? '', /must be integer/);
    assert.match((await field(page, '/color').locator('.error').textContent()) ?? '', /is required/);
    assert.match((await field(page, '/email').locator('.error').textContent()) ?? '', /email/);
    assert.equal(await page.locator('.result-host .result').count(), 0, 'nothing was sent');
    assert.equal(wp.posted.slice(since).filter((m) => m.type === 'call').length, 1);
    const forced = await call(wp, 'send-anyway');
    assert.equal(forced.force, true);
    assert.deepEqual(forced.args, { name: 'A', email: 'not-an-email', count: 2.5, verbose: false, units: 'metric' });
    // The server's own validation answers.
    assert.match(await outcome(page), /tool-error|protocol-error/);
    assert.match((await page.locator('.result-host').textContent()) ?? '', /[Vv]alidation|[Ii]nvalid/);
  });

  test('structures: arrays (add, reorder, remove), enum multiselect, nested object, null, union, record, JSON fallback', async () => {
    const { wp, page } = await playground(session);
    await selectTool(page, 'plan_trip');
    const add = (p: string, what = 'add-item') => control(page, p).locator(`vscode-button[data-action="${what}"]`).first().click();
    for (const t of ['a', 'b', 'c']) {
      await add('/tags');
      const i = ['a', 'b', 'c'].indexOf(t);
      await fill(page, `/tags/${i}`, t);
    }
    await field(page, '/tags/2').locator('vscode-button[data-action="move-up"]').click();
    await field(page, '/tags/0').locator('vscode-button[data-action="remove-item"]').click();
    await tick(page, '/perms', 'read');
    await tick(page, '/perms', 'admin');
    await fill(page, '/address/street', '1 Main St');
    await fill(page, '/address/city', 'Paris');
    await add('/stops');
    await fill(page, '/stops/0/city', 'Lyon');
    await fill(page, '/stops/0/nights', '2');
    await tick(page, '/note', 'null');
    await chooseIn(page, '/notify', 'object {kind, to}');
    await fill(page, '/notify/to', 'a@b.co');
    await add('/budget', 'add-entry');
    await control(page, '/budget').locator('vscode-textfield.key input').fill('food');
    await fill(page, '/budget/food', '12.5');
    await control(page, '/extra').locator('vscode-textarea textarea').fill('{"any": [1, 2]}');
    const expected = {
      tags: ['c', 'b'],
      perms: ['read', 'admin'],
      address: { street: '1 Main St', city: 'Paris' },
      stops: [{ city: 'Lyon', nights: 2 }],
      note: null,
      notify: { kind: 'email', to: 'a@b.co' },
      budget: { food: 12.5 },
      extra: { any: [1, 2] },
    };
    const msg = await call(wp);
    assert.deepEqual(msg.args, expected);
    assert.deepEqual(await echoed(page), expected);
  });

  test('JSON fallback per field and the whole-form Raw JSON mode round-trip', async () => {
    const { wp, page } = await playground(session);
    await selectTool(page, 'plan_trip');
    await fill(page, '/address/street', 'Old');
    await field(page, '/address').locator('> .head vscode-button[data-action="json-toggle"]').click();
    const json = control(page, '/address').locator('vscode-textarea textarea');
    assert.deepEqual(JSON.parse(await json.inputValue()), { street: 'Old' });
    await json.fill('{"street": "New", "city": "Rome", "zip": "00100"}');
    await field(page, '/address').locator('> .head vscode-button[data-action="json-toggle"]').click();
    assert.equal(await control(page, '/address/zip').locator('vscode-textfield input').inputValue(), '00100');
    await page.locator('.raw-toggle').click();
    const raw = page.locator('vscode-textarea.raw-json textarea');
    assert.deepEqual(JSON.parse(await raw.inputValue()), { address: { street: 'New', city: 'Rome', zip: '00100' } });
    await raw.fill('{"tags": ["x"], "note": "hi"}');
    const msg = await call(wp);
    assert.deepEqual(msg.args, { tags: ['x'], note: 'hi' });
    await page.locator('.raw-toggle').click();
    assert.equal(await control(page, '/tags/0').locator('vscode-textfield input').inputValue(), 'x');
  });

  test('"Paste arguments" fills the form from the clipboard', async () => {
    let clip = '{"name": "Bob", "count": 2, "color": "blue"}';
    const { wp, page } = await playground(session, { clipboard: () => clip });
    await selectTool(page, 'make_profile');
    await page.locator('vscode-button[data-action="paste"]').click();
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('.field[data-path="/name"] vscode-textfield')?.value === 'Bob');
    assert.deepEqual((await call(wp)).args, { name: 'Bob', count: 2, color: 'blue', verbose: false });
    clip = 'not json';
    await page.locator('vscode-button[data-action="paste"]').click();
    await page.locator('.notice').filter({ hasText: 'does not hold a JSON object' }).waitFor();
  });

  test('destructive tools ask first; "Dry run first" sends dry_run, then the real call is one click away', async () => {
    const { wp, page } = await playground(session);
    await selectTool(page, 'delete_trip');
    await fill(page, '/trip_id', 't-1');
    const since = wp.posted.length;
    await page.locator('vscode-button[data-action="call"]').click();
    await page.locator('.notice .confirm').filter({ hasText: 'delete_trip is marked destructive' }).waitFor();
    assert.equal(
      wp.posted.slice(since).some((m) => m.type === 'call'),
      false,
      'no call before confirmation',
    );
    const dry = await call(wp, 'confirm-dry-run');
    assert.deepEqual(dry.args, { trip_id: 't-1', dry_run: true });
    assert.equal(dry.dryRun, true);
    await page.locator('.after-dry-run').waitFor();
    const real = await call(wp, 'run-for-real');
    assert.deepEqual(real.args, { trip_id: 't-1' });
    assert.deepEqual(await echoed(page), { trip_id: 't-1' });
  });

  test('history: the last arguments come back on reopen, and the history list re-runs a call', async () => {
    const memento = new MapMemento();
    const first = await playground(session, { memento });
    await selectTool(first.page, 'make_profile');
    await fill(first.page, '/name', 'Hist');
    await fill(first.page, '/count', '4');
    await chooseIn(first.page, '/color', 'blue');
    const sent = await call(first.wp);
    await outcome(first.page);
    await first.wp.close();
    const again = await playground(session, { memento });
    await selectTool(again.page, 'make_profile');
    assert.equal(await control(again.page, '/name').locator('vscode-textfield input').inputValue(), 'Hist');
    assert.equal(await control(again.page, '/count').locator('vscode-textfield input').inputValue(), '4');
    await again.page.locator('details.history summary').click();
    assert.match((await again.page.locator('.history-list li').first().textContent()) ?? '', /make_profile/);
    const rerun = await call(again.wp, 'rerun');
    assert.deepEqual(rerun.args, sent.args);
  });
});

describe('forms over real pydantic output (Python SDK)', () => {
  test('$ref/$defs models, Optional, Literal, union of models, dict, datetime and uuid', async () => {
    venvPython();
    const session = await started(pyServer('forms.py'));
    const { wp, page } = await playground(session);
    await selectTool(page, 'register_person');
    await fill(page, '/person/name', 'Ann');
    await fill(page, '/person/address/street', '2 Rue');
    await fill(page, '/person/address/city', 'Lille');
    assert.equal(await field(page, '/person/address/city').locator('vscode-form-helper').textContent(), 'City name');
    await control(page, '/person/nicknames').locator('vscode-button[data-action="add-item"]').click();
    await fill(page, '/person/nicknames/0', 'Annie');
    await fill(page, '/when', '2025-01-02T03:04:05');
    await fill(page, '/ident', '0b0e8f7e-5a4c-4d3b-9a2f-1c2d3e4f5a6b');
    await chooseIn(page, '/mode', 'fast');
    assert.equal(await control(page, '/limit').locator('vscode-textfield input').inputValue(), '10', 'default pre-filled');
    await fill(page, '/limit', '5');
    await fill(page, '/day', '2025-02-03');
    await chooseIn(page, '/pet', 'Dog');
    await control(page, '/scores').locator('vscode-button[data-action="add-entry"]').click();
    await control(page, '/scores').locator('vscode-textfield.key input').fill('math');
    await fill(page, '/scores/math', '3');
    const expected = {
      person: { name: 'Ann', address: { street: '2 Rue', city: 'Lille' }, nicknames: ['Annie'] },
      when: '2025-01-02T03:04:05Z',
      ident: '0b0e8f7e-5a4c-4d3b-9a2f-1c2d3e4f5a6b',
      mode: 'fast',
      limit: 5,
      day: '2025-02-03',
      pet: { kind: 'dog', good: true },
      scores: { math: 3 },
    };
    const msg = await call(wp);
    assert.deepEqual(msg.args, expected);
    assert.equal(await outcome(page), 'ok');
    const got = (await echoed(page)) as Record<string, unknown>;
    assert.deepEqual(got.person, expected.person);
    assert.deepEqual(got.pet, expected.pet);
    assert.equal(got.when, '2025-01-02T03:04:05+00:00');
    assert.equal(got.maybe, null, 'the empty Optional was omitted, so the server used its default');
  });
});

describe('results', () => {
  let session: McpSession;
  before(async () => {
    session = await started(tsServer('well-behaved.ts'));
  });

  test('HTML and script in a tool result are shown as text and never run; image, audio, links, embedded resources', async () => {
    const { wp, page, copied } = await playground(session);
    await selectTool(page, 'rich_result');
    await call(wp);
    assert.equal(await outcome(page), 'ok');
    const text = await page.locator('.result .content.text pre').first().textContent();
    assert.equal(text, '<script>window.__pwned = true</script><img src=x onerror="window.__pwned=true"><b>bold?</b>');
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned), undefined);
    assert.equal(await page.locator('.result script, .result b').count(), 0);
    assert.match((await page.locator('.result .content.image img').getAttribute('src')) ?? '', /^data:image\/png;base64,/);
    assert.equal(await page.locator('.result .content.audio audio').count(), 1);
    assert.match((await page.locator('.result .content.resource pre').textContent()) ?? '', /embedded text/);
    await page.locator('.result .content.resource-link vscode-button[data-action="read-resource"]').click();
    await page.locator('.resource-read').filter({ hasText: 'hello from the readme resource' }).waitFor();
    await page.locator('.result .content.text vscode-button[data-action="copy"]').first().click();
    await page.waitForFunction(() => true);
    for (let i = 0; i < 50 && copied.length === 0; i++) await page.waitForTimeout(20);
    assert.equal(copied[0], text);
    assert.deepEqual(wp.cspViolations, []);
    // Raw request and response are there.
    await page.locator('.result details.raw summary').click();
    assert.match((await page.locator('.result details.raw').textContent()) ?? '', /"method": "tools\/call"/);
  });

  test('each result row puts its label on the left and its Copy button on the right, raw request/response included', async () => {
    const { wp, page } = await playground(session);
    await selectTool(page, 'rich_result');
    await call(wp);
    assert.equal(await outcome(page), 'ok');
    await page.locator('.result details.raw summary').click();
    const rows = [
      { name: 'text', bar: page.locator('.result .content.text > .bar').first() },
      { name: 'request', bar: page.locator('.result details.raw > .bar').nth(0) },
      { name: 'response', bar: page.locator('.result details.raw > .bar').nth(1) },
    ];
    for (const { name, bar } of rows) {
      const label = bar.locator('.kind');
      const copy = bar.locator('vscode-button[data-action="copy"]');
      assert.equal(await label.textContent(), name);
      // The block the row belongs to: the <pre> right after the bar.
      const pre = bar.locator('xpath=following-sibling::pre[1]');
      const [b, l, c, p] = await Promise.all([bar.boundingBox(), label.boundingBox(), copy.boundingBox(), pre.boundingBox()]);
      assert.ok(b && l && c && p, `${name}: row, label, Copy and block are laid out`);
      // One row: label and button share a line (their vertical centres inside the bar, not stacked).
      assert.ok(Math.abs(l.y + l.height / 2 - (c.y + c.height / 2)) < 4, `${name}: label and Copy on one line`);
      // Label at the left edge of the block, Copy at its right edge, and space between them ("requestCopy" before).
      assert.ok(Math.abs(l.x - p.x) < 2, `${name}: label starts at the block's left edge (${l.x} vs ${p.x})`);
      assert.ok(Math.abs(c.x + c.width - (p.x + p.width)) < 2, `${name}: Copy ends at the block's right edge (${c.x + c.width} vs ${p.x + p.width})`);
      assert.ok(c.x - (l.x + l.width) > 100, `${name}: a clear gap between the label and Copy (${c.x - (l.x + l.width)} px)`);
    }
  });

  test('isError is a tool error, shown apart from protocol errors; structuredContent checked against outputSchema', async () => {
    const { wp, page } = await playground(session);
    await selectTool(page, 'fail_politely');
    await call(wp);
    assert.equal(await outcome(page), 'tool-error');
    assert.equal(await page.locator('.result .badge').first().textContent(), 'Tool error (isError: true)');
    await selectTool(page, 'add_numbers');
    await fill(page, '/a', '2');
    await fill(page, '/b', '3');
    await call(wp);
    await page.locator('.content.structured .note.ok').filter({ hasText: 'Matches the outputSchema' }).waitFor();
  });

  test('progress is shown, cancel stops the call, server log messages are listed', async () => {
    const { wp, page } = await playground(session);
    await selectTool(page, 'count_slowly');
    await fill(page, '/n', '50');
    // 50 steps of 400 ms: still running when Cancel is clicked on a loaded machine (3 s was not: the call had ended).
    await fill(page, '/delayMs', '400');
    await call(wp);
    await page
      .locator('.progress')
      .filter({ hasText: /Progress \d+\/50/ })
      .waitFor();
    await page.locator('vscode-button[data-action="cancel"]').click();
    assert.equal(await outcome(page), 'cancelled');
    assert.ok((await page.locator('.log-list li').filter({ hasText: 'counted 1' }).count()) >= 1);
  });

  test('resources are read and prompts are got from the catalog', async () => {
    const { page } = await playground(session);
    await page.locator('details.catalog-box summary').click();
    await page.locator('.resource-row[data-uri="fixture://notes/readme"] vscode-button').click();
    await page.locator('.resource-row .resource-read').filter({ hasText: 'hello from the readme resource' }).waitFor();
    await page.locator('.prompt-row[data-prompt="review_code"] vscode-textfield input').fill('Rust');
    await page.locator('.prompt-row[data-prompt="review_code"] vscode-button').click();
    await page.locator('.prompt-row .prompt-body').filter({ hasText: 'Please review this Rust code.' }).waitFor();
  });

  test('opened from the Servers tree on a resource: the section opens and the resource is read; on a prompt: it is marked', async () => {
    const { wp, page } = await playground(session);
    assert.equal(await page.locator('details.catalog-box').evaluate((d) => (d as HTMLDetailsElement).open), false);
    await wp.send({ type: 'showCatalog', resource: 'fixture://notes/readme' });
    await page.locator('.resource-row.focused[data-uri="fixture://notes/readme"] .resource-read').filter({ hasText: 'hello from the readme resource' }).waitFor();
    assert.equal(await page.locator('details.catalog-box').evaluate((d) => (d as HTMLDetailsElement).open), true);
    assert.equal(wp.posted.filter((m) => m.type === 'listCatalog').length, 1, 'listed once, not once per trigger');
    await wp.send({ type: 'showCatalog', prompt: 'review_code' });
    await page.locator('.prompt-row.focused[data-prompt="review_code"]').waitFor();
    assert.equal(await page.locator('.focused').count(), 1, 'only the prompt is marked now');
    await wp.send({ type: 'showCatalog', resource: 'fixture://gone' });
    await page.locator('.catalog .error', { hasText: 'fixture://gone is no longer listed by the server.' }).waitFor();
  });
});

describe('misbehaving servers in the playground', () => {
  test('structuredContent that breaks the outputSchema is shown with its violations highlighted', async () => {
    const session = await started(nodeServer('misbehaving.mjs', 'bad-structured'));
    const { wp, page } = await playground(session);
    await selectTool(page, 'get_user');
    await call(wp);
    await page.locator('.content.structured .violations').waitFor();
    const list = (await page.locator('.content.structured .violations').textContent()) ?? '';
    assert.match(list, /2 violations/);
    assert.match(list, /\/id must be integer/);
    assert.match(list, /\/email must match format "email"/);
    assert.equal(await page.locator('.violation[data-path="/id"]').textContent(), '"seven"');
  });

  test('a crash mid-call gives a clear message; Restart brings the playground back', async () => {
    const session = await started(nodeServer('misbehaving.mjs', 'crash-mid-call'));
    const { wp, page } = await playground(session);
    await selectTool(page, 'crash');
    await call(wp);
    assert.equal(await outcome(page), 'crashed');
    assert.match((await page.locator('.result .message').textContent()) ?? '', /stopped during the call[\s\S]*panic: index out of range/);
    await page.locator('.status[data-status="crashed"]').waitFor();
    await page.locator('vscode-button[data-action="start"]').click();
    await page.locator('.status[data-status="running"]').waitFor();
    await selectTool(page, 'ok');
    await call(wp);
    assert.equal(await outcome(page), 'ok');
  });
});
