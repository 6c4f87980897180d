/**
 * The preview's own live server: the MCP SDK's Client over stdio. Kept out of live.ts so that the comparison code the
 * preview panel needs at activation does not pull the SDK: this file is bundled into dist/playground.js and reached
 * through live.ts#startLiveSession, which loads that bundle on first use.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JsonSchema } from '../../../server/src/analysis/model';
import type { LaunchSpec } from './launch';
import type { LiveSession } from './live';

/** Starts the server described by `spec` and connects the SDK Client to it. Rejects with the server's stderr on failure. */
export async function startLiveSession(spec: LaunchSpec, timeoutMs = 30_000): Promise<LiveSession> {
  const transport = new StdioClientTransport({
    command: spec.command,
    args: spec.args,
    cwd: spec.cwd,
    env: { ...getDefaultEnvironment(), PYTHONUNBUFFERED: '1' },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const client = new Client({ name: 'toolsmith-preview', version: '0.1.0' });
  const startedAt = Date.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.connect(transport),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the server did not answer initialize within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
      }),
    ]);
  } catch (err) {
    await client.close().catch(() => undefined);
    const tail = stderr.trim().split('\n').slice(-8).join('\n');
    throw new Error(`${err instanceof Error ? err.message : String(err)}${tail ? `\n${tail}` : ''}`, { cause: err });
  } finally {
    clearTimeout(timer);
  }
  return {
    startedAt,
    entryFile: spec.entryFile,
    owner: 'preview',
    async listTools() {
      const tools: JsonSchema[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined);
        // The SDK's Tool type is a JSON object; JsonSchema is the same shape, typed as JSON values.
        tools.push(...(page.tools as unknown as JsonSchema[]));
        cursor = page.nextCursor;
      } while (cursor);
      return tools;
    },
    close: () => client.close(),
    stderrTail: () => stderr,
  };
}
