/**
 * tools/call round trip through the playground's session (McpSession, and the whole host path with validation
 * and history through PlaygroundController) against a bare SDK Client, each on its own copy of the same fixture
 * server, calls interleaved, medians. Target: session / bare ≤ 1.2.
 */
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpSession } from '../client/src/servers/session';
import { PlaygroundController } from '../client/src/playground/controller';

const root = path.resolve(__dirname, '..');
const server = { command: process.execPath, args: ['--import', 'tsx', path.join(root, 'test', 'fixtures', 'servers', 'ts', 'well-behaved.ts')], cwd: root };

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export async function measurePlayground(calls = 300): Promise<{ ratio: number; controllerRatio: number; bareMedianMs: number; sessionMedianMs: number; controllerMedianMs: number; calls: number }> {
  const bare = new Client({ name: 'bench-bare', version: '1' });
  await bare.connect(new StdioClientTransport({ ...server, stderr: 'ignore' }));
  const session = new McpSession(server);
  await session.start();
  const viaController = new McpSession(server);
  await viaController.start();
  const store = new Map<string, unknown>();
  const controller = new PlaygroundController('bench', 'bench', viaController, {
    post: () => undefined,
    copy: async () => undefined,
    readClipboard: async () => '',
    memento: { get: <T>(k: string) => store.get(k) as T | undefined, update: async (k: string, v: unknown) => void store.set(k, v) },
    timeoutMs: () => 60_000,
    start: async () => undefined,
  });
  const args = { text: 'hello playground' };
  const t = { bare: [] as number[], session: [] as number[], controller: [] as number[] };
  try {
    for (let i = 0; i < calls + 20; i++) {
      // Interleaved so that machine noise hits all three alike; the first 20 rounds warm up.
      let t0 = performance.now();
      await bare.callTool({ name: 'echo_text', arguments: args });
      const b = performance.now() - t0;
      t0 = performance.now();
      const out = await session.callTool('echo_text', args);
      const s = performance.now() - t0;
      if (out.kind !== 'result') throw new Error(out.error.message);
      t0 = performance.now();
      await controller.call(`c${i}`, 'echo_text', args, false, false);
      const c = performance.now() - t0;
      if (i >= 20) {
        t.bare.push(b);
        t.session.push(s);
        t.controller.push(c);
      }
    }
  } finally {
    controller.dispose();
    await Promise.all([bare.close(), session.stop(), viaController.stop()]);
  }
  const bareMedianMs = median(t.bare);
  const sessionMedianMs = median(t.session);
  const controllerMedianMs = median(t.controller);
  return {
    ratio: sessionMedianMs / bareMedianMs,
    controllerRatio: controllerMedianMs / bareMedianMs,
    bareMedianMs: Math.round(bareMedianMs * 1000) / 1000,
    sessionMedianMs: Math.round(sessionMedianMs * 1000) / 1000,
    controllerMedianMs: Math.round(controllerMedianMs * 1000) / 1000,
    calls,
  };
}

if (require.main === module) void measurePlayground().then((r) => console.log(JSON.stringify(r, null, 2)));
