/**
 * tools/list of a fixture server over raw JSON-RPC on its stdio, shared by the version matrices
 * (typescript-matrix.test.ts, typescript-v2-matrix.test.ts).
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import type { Tool } from './compare';

/**
 * tools/list as the server writes it on stdout, over raw JSON-RPC: the SDK's Client would validate it first and
 * reject a whole list for one tool (an `enum: []` zod 3 publishes for `z.enum(TsEnum)`, a non-object inputSchema
 * 1.22 publishes), while what is predicted is what the server publishes. Rejects with stderr when it does not answer.
 */
export function wireTools(file: string, protocolVersion: string): Promise<Tool[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], { cwd: path.dirname(file), stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let done = false;
    const finish = (e: Error | undefined, tools?: Tool[]) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.kill();
      if (e) reject(e);
      else resolve(tools!);
    };
    const timer = setTimeout(() => finish(new Error(`no tools/list answer in 30 s\n${err}`)), 30_000);
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        let msg: { id?: number; result?: { tools?: Tool[] }; error?: { message: string } };
        try {
          msg = JSON.parse(line) as typeof msg;
        } catch {
          continue;
        }
        if (msg.id === 1) {
          child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} })}\n`);
        } else if (msg.id === 2) {
          if (msg.result?.tools) finish(undefined, msg.result.tools);
          else finish(new Error(`tools/list failed: ${msg.error?.message ?? line}\n${err}`));
        }
      }
    });
    child.on('exit', (code) => finish(new Error(`the server exited (${code}) before answering tools/list\n${err}`)));
    child.stdin.on('error', () => {});
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'toolsmith-matrix', version: '1.0.0' } } })}\n`,
    );
  });
}
