// Remote servers from mcp.json ("type": "http" / "sse"): the published server-everything run in its Streamable HTTP
// and SSE modes, reached through discovery + resolveLaunch + McpSession as the playground does; a server answering
// 401 is reported as needing OAuth, which the view does not support.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { readServerMap, resolveLaunch, describeLaunch } from '../../client/src/servers/discovery';
import { maskText } from '../../client/src/servers/secrets';
import { McpSession } from '../../client/src/servers/session';

const root = path.resolve(__dirname, '..', '..');
const entry = path.join(root, '.cache', 'server-everything', 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

async function freePort(): Promise<number> {
  const srv = http.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

async function runEverything(mode: 'streamableHttp' | 'sse'): Promise<{ url: string; child: ChildProcess }> {
  assert.ok(fs.existsSync(entry), `server-everything is not installed at ${entry}: run node scripts/prepare-protocol.mjs`);
  const port = await freePort();
  const child = spawn(process.execPath, [entry, mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`server-everything ${mode} did not listen`)), 20_000);
    child.stderr.on('data', (d: Buffer) => /listening|running on port/i.test(d.toString()) && (clearTimeout(t), resolve()));
    child.once('exit', (c) => reject(new Error(`server-everything ${mode} exited ${c}`)));
  });
  return { url: `http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`, child };
}

const children: ChildProcess[] = [];
after(() => children.forEach((c) => c.kill()));

describe('remote servers from mcp.json', () => {
  test('"type": "http" with headers: ${input:} resolved and masked, tools listed and called over Streamable HTTP', async () => {
    const { url, child } = await runEverything('streamableHttp');
    children.push(child);
    const { servers, skipped } = readServerMap(
      { everything: { type: 'http', url: '${input:base}', headers: { Authorization: 'Bearer ${input:token}', 'X-Trace': '${env:TOOLSMITH_TRACE}' } } },
      '.vscode/mcp.json',
      '/w/.vscode/mcp.json',
      '/w',
      [
        { id: 'base', type: 'promptString' },
        { id: 'token', type: 'promptString', password: true },
      ],
    );
    assert.deepEqual(skipped, []);
    assert.equal(servers[0].url, '${input:base}');
    const answers: Record<string, string> = { base: url, token: 's3cret-token-value' };
    const spec = await resolveLaunch(servers[0], {
      workspaceFolder: '/w',
      env: { TOOLSMITH_TRACE: 'trace-42' },
      inputCache: new Map(),
      readText: async () => undefined,
      promptInput: async (i) => answers[i.id],
    });
    assert.equal(spec.url, url);
    assert.deepEqual(spec.headers, { Authorization: 'Bearer s3cret-token-value', 'X-Trace': 'trace-42' });
    assert.equal(describeLaunch(spec), `Streamable HTTP ${url} (headers: Authorization, X-Trace)`);
    assert.doesNotMatch(maskText(`sent Authorization: Bearer s3cret-token-value`, spec), /s3cret/);
    const s = new McpSession(spec);
    try {
      await s.start();
      assert.equal(s.status, 'running');
      assert.equal(s.protocolVersion, '2025-11-25');
      assert.ok(
        s.tools.some((t) => t.name === 'echo'),
        s.tools.map((t) => t.name).join(', '),
      );
      const r = await s.callTool('echo', { message: 'over http' });
      assert.equal(r.kind, 'result');
      assert.match(JSON.stringify(r.kind === 'result' && r.result.content), /over http/);
    } finally {
      await s.stop();
    }
  });

  test('"type": "sse": the legacy transport', async () => {
    const { url, child } = await runEverything('sse');
    children.push(child);
    const s = new McpSession({ command: '', args: [], url, transport: 'sse' });
    try {
      await s.start();
      const r = await s.callTool('echo', { message: 'over sse' });
      assert.match(JSON.stringify(r.kind === 'result' && r.result.content), /over sse/);
    } finally {
      await s.stop();
    }
  });

  test('a 401 says OAuth is not supported in the view', async () => {
    const srv = http.createServer((_req, res) => {
      res.writeHead(401, { 'WWW-Authenticate': 'Bearer realm="mcp"' });
      res.end();
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const { port } = srv.address() as AddressInfo;
    try {
      const s = new McpSession({ command: '', args: [], url: `http://127.0.0.1:${port}/mcp`, transport: 'http' });
      await assert.rejects(s.start(), (e: Error & { kind?: string }) => e.kind === 'auth-required' && /401 Unauthorized/.test(e.message) && /OAuth/.test(e.message));
      assert.equal(s.status, 'failed');
    } finally {
      srv.close();
    }
  });
});
