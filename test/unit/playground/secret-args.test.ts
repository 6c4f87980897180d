// Arguments typed into the playground: the secret ones (password format, credential-like names, a value of the
// server's env) never reach workspaceState; they go to SecretStorage, and the form gets them back on the next open.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { joinSecretArgs, secretName, splitSecretArgs, SECRET_PLACEHOLDER } from '../../../client/src/playground/secretArgs';
import { PlaygroundController } from '../../../client/src/playground/controller';
import type { McpSession } from '../../../client/src/servers/session';
import type { HostToWebview } from '../../../common/playground-messages';
import { Timeline } from '../../../client/src/servers/timeline';

test('secret-looking names', () => {
  for (const n of ['api_key', 'apiKey', 'x-api-key', 'token', 'access_token', 'client_secret', 'password', 'db_password', 'authToken', 'GITHUB_PAT', 'credentials']) assert.ok(secretName(n), n);
  for (const n of ['query', 'ticket_id', 'tokenizer', 'author', 'path', 'compat', 'keyword']) assert.ok(!secretName(n), n);
});

test('splitSecretArgs: password format, secret names (nested too) and env values are split out; join puts them back', () => {
  const schema = {
    type: 'object',
    properties: { login: { type: 'string', format: 'password' }, query: { type: 'string' }, connection: { type: 'object', properties: { token: { type: 'string' }, user: { type: 'string' } } } },
  };
  const args = { login: 'hunter22', query: 'open tickets', api_key: 'sk-live-123456', connection: { token: 'tok-abcdef', user: 'ann' }, note: 'uses postgres://u:pw@db/x' };
  const { clear, secrets } = splitSecretArgs(args, schema, ['postgres://u:pw@db/x']);
  assert.deepEqual(clear, { login: SECRET_PLACEHOLDER, query: 'open tickets', api_key: SECRET_PLACEHOLDER, connection: { token: SECRET_PLACEHOLDER, user: 'ann' }, note: SECRET_PLACEHOLDER });
  assert.deepEqual(secrets, { '/login': 'hunter22', '/api_key': 'sk-live-123456', '/connection/token': 'tok-abcdef', '/note': 'uses postgres://u:pw@db/x' });
  assert.ok(!JSON.stringify(clear).includes('hunter22') && !JSON.stringify(clear).includes('sk-live'));
  assert.deepEqual(joinSecretArgs(clear, secrets), args);
  // Nothing stored for the secrets: those fields are left empty, never filled with the placeholder.
  assert.deepEqual(joinSecretArgs(clear, undefined), { query: 'open tickets', connection: { user: 'ann' } });
  // Everything under a credential-like name is secret.
  assert.deepEqual(splitSecretArgs({ auth: { user: 'ann', pin: 1234 } }, undefined).clear, { auth: { user: SECRET_PLACEHOLDER, pin: SECRET_PLACEHOLDER } });
  // No secret: the arguments as they are.
  assert.deepEqual(splitSecretArgs({ query: 'x', limit: 3 }, schema), { clear: { query: 'x', limit: 3 }, secrets: {} });
});

test("the controller stores a call's secret arguments in SecretStorage, not in workspaceState, and restores them on init", async () => {
  const session = Object.assign(new EventEmitter(), {
    timeline: new Timeline(),
    subscriptions: new Set<string>(),
    canSubscribe: false,
    status: 'running',
    running: true,
    spec: { command: 'node', args: [], env: { SERVICE_TOKEN: 'env-secret-value' } },
    tools: [{ name: 'search', inputSchema: { type: 'object', properties: { query: { type: 'string' }, api_key: { type: 'string' }, service: { type: 'string' } } } }],
    callTool: async () => ({ kind: 'result', result: { content: [{ type: 'text', text: 'ok' }] }, durationMs: 1, request: undefined, response: undefined, responseBytes: 2 }),
  }) as unknown as McpSession;
  const workspaceState = new Map<string, unknown>();
  const secretStorage = new Map<string, string>();
  const host = (posted: HostToWebview[]) => ({
    post: (m: HostToWebview) => posted.push(m),
    copy: async () => undefined,
    readClipboard: async () => '',
    memento: { get: <T>(k: string) => workspaceState.get(k) as T | undefined, update: async (k: string, v: unknown) => void workspaceState.set(k, v) },
    secrets: { get: async (k: string) => secretStorage.get(k), store: async (k: string, v: string) => void secretStorage.set(k, v) },
    timeoutMs: () => 5000,
    start: async () => undefined,
  });
  const first = new PlaygroundController('srv', 'srv', session, host([]));
  await first.call('c1', 'search', { query: 'printers', api_key: 'sk-typed-98765', service: 'env-secret-value' }, false, false);
  const persisted = JSON.stringify([...workspaceState.values()]);
  assert.ok(persisted.includes('printers'), 'the plain argument is remembered');
  assert.ok(!persisted.includes('sk-typed-98765') && !persisted.includes('env-secret-value'), `no secret in workspaceState: ${persisted}`);
  assert.match([...secretStorage.values()].join(), /sk-typed-98765/);
  // A new panel (another window session) gets the whole arguments back from both stores.
  const posted: HostToWebview[] = [];
  const second = new PlaygroundController('srv', 'srv', session, host(posted));
  await second.handle({ type: 'ready' });
  const init = posted.find((m) => m.type === 'init');
  assert.deepEqual(init && init.type === 'init' ? init.lastArgs.search : undefined, { query: 'printers', api_key: 'sk-typed-98765', service: 'env-secret-value' });
  assert.deepEqual(init && init.type === 'init' ? init.history[0].args : undefined, { query: 'printers' }, 'the history keeps no secret');
  first.dispose();
  second.dispose();
});
