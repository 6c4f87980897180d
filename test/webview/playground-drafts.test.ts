// The playground keeps the form's unsent arguments in the webview state (vscode.setState), which VS Code writes to
// a plain file: a typed API key or password must never be in it (issue 17). The draft of the other fields comes back.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { McpSession } from '../../client/src/servers/session';
import { tsServer } from '../unit/playground/helpers';
import { openPlayground, closeBrowser, fill, control, selectTool, type WebviewPage } from './harness';

const KEY = 'sk-live-4f9a8b7c6d5e';
const PASS = 'correct horse battery';

const pages: WebviewPage[] = [];
let session: McpSession | undefined;
after(async () => {
  await Promise.all(pages.map((p) => p.close().catch(() => undefined)));
  await closeBrowser();
  await session?.stop();
});

test('form drafts in the webview state keep no secret typed into an API key or password field; the rest comes back', { timeout: 120_000 }, async () => {
  session = new McpSession(tsServer('secrets.ts'));
  await session.start();
  const first = await openPlayground(session);
  pages.push(first.wp);
  await selectTool(first.page, 'connect_service');
  await fill(first.page, '/region', 'eu-west');
  await fill(first.page, '/api_key', KEY);
  await fill(first.page, '/passphrase', PASS);
  const stored = JSON.stringify(await first.page.evaluate(() => (window as unknown as { __state?: unknown }).__state));
  assert.match(stored, /eu-west/, `the draft is stored: ${stored}`);
  assert.ok(!stored.includes(KEY), `the API key is in the webview state: ${stored}`);
  assert.ok(!stored.includes(PASS), `the password is in the webview state: ${stored}`);
  // Reopened from that state: the region is back, the secret fields are empty (not the placeholder).
  const again = await openPlayground(session, { state: JSON.parse(stored) as unknown });
  pages.push(again.wp);
  await selectTool(again.page, 'connect_service');
  assert.equal(await control(again.page, '/region').locator('vscode-textfield input').inputValue(), 'eu-west');
  assert.equal(await control(again.page, '/api_key').locator('vscode-textfield input').inputValue(), '');
  assert.equal(await control(again.page, '/passphrase').locator('vscode-textfield input').inputValue(), '');
});
