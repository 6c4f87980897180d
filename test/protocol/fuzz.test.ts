/**
 * LSP fuzz layer: 10,000 seeded steps of what a confused client, a broken extension or a hostile workspace may send —
 * random edits (valid and out-of-range), requests at any position, requests with wrong params, unknown methods,
 * notifications for documents never opened, JSON that is not JSON-RPC, bodies that are not JSON, and headers
 * without Content-Length. At the end the server must be alive and answer a fresh document correctly. A failing seed
 * replays exactly: FUZZ_SEED=<n>.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { LspClient, fileUri, tempDir } from './harness';
import { rng } from '../util/random';
import type { Range } from 'vscode-languageserver-protocol/node';

const STEPS = Number(process.env.FUZZ_STEPS ?? 10_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261201);

const TS = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

const server = new McpServer({ name: "fuzz", version: "1.0.0" });

server.registerTool("get_ticket", {
  description: "Read one ticket by its id. Use when the user names a ticket. Returns its status and title.",
  inputSchema: { ticket_id: z.string().max(64).describe("Ticket identifier") },
  annotations: { readOnlyHint: true, openWorldHint: false },
}, async ({ ticket_id }) => ({ content: [{ type: "text", text: ticket_id }] }));
`;

const PY = `from fastmcp import FastMCP

mcp = FastMCP("fuzz")


@mcp.tool
def get_note(note_id: str) -> str:
    """Read one note by its id. Use when the user names a note. Returns its text."""
    return note_id
`;

/** Pieces an edit inserts: syntax that opens or closes constructs, SDK calls, odd characters. */
const PIECES = [
  'registerTool(',
  'z.string()',
  '"',
  "'",
  '`',
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  ',',
  ':',
  '\n',
  '\r\n',
  '\r',
  '    ',
  '@mcp.tool',
  'def f(x):',
  '"""',
  '#',
  '//',
  '/*',
  '\u0000',
  '\uFEFF',
  'é',
  '😀',
  '\uD800',
  'z.object({',
  '.describe("x")',
  'async () => ({})',
  'lambda: 0',
  '\\',
];

test(`LSP fuzz: ${STEPS} random and malformed messages and edits (seed ${SEED}); the server is alive and answering at the end`, { timeout: 600_000 }, async () => {
  const random = rng(SEED);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const int = (n: number) => Math.floor(random() * n);
  const dir = tempDir('toolsmith-fuzz-');
  const client = await LspClient.start({ initializationOptions: { diagnosticsDelayMs: 0, workspaceScan: false } });
  const stdin = client.process.stdin!;
  const raw = (bytes: string) => new Promise<void>((resolve) => stdin.write(bytes, () => resolve()));
  const frame = (body: string) => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  const open = new Map<string, string>();
  const uriOf = (i: number, lang: 'ts' | 'py') => fileUri(`${dir}/doc${i}.${lang}`);
  const counts: Record<string, number> = {};
  // The last steps in detail, for the message of a failure (a seed replays them exactly).
  const recent: string[] = [];
  const count = (kind: string, detail = '') => {
    counts[kind] = (counts[kind] ?? 0) + 1;
    recent.push(detail ? `${kind} ${detail}` : kind);
    if (recent.length > 8) recent.shift();
  };
  const anyRange = (uri: string): Range => {
    const lines = (client.documents.get(uri)?.getText() ?? '').split('\n').length;
    const pos = () => ({ line: random() < 0.1 ? int(10_000) : int(lines + 1), character: random() < 0.1 ? int(100_000) : int(120) });
    const a = pos();
    const b = random() < 0.5 ? a : pos();
    return a.line < b.line || (a.line === b.line && a.character <= b.character) ? { start: a, end: b } : { start: b, end: a };
  };
  /** Resolves when the server answered (a result or an error); fails the test when it does not within 15 s. */
  const within = async (p: Promise<unknown>, what: string) => {
    let timer: NodeJS.Timeout | undefined;
    const silence = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer to ${what} within 15 s (seed ${SEED}; the steps before: ${recent.join(', ')})\n${client.stderr.slice(-2000)}`)), 15_000);
    });
    try {
      await Promise.race([
        p.then(
          () => undefined,
          () => undefined,
        ),
        silence,
      ]);
    } finally {
      clearTimeout(timer);
    }
  };
  try {
    for (let step = 0; step < STEPS; step++) {
      assert.ok(client.alive, `the server died at step ${step} (seed ${SEED})\n${client.stderr.slice(-2000)}`);
      const r = random();
      const uris = [...open.keys()];
      if (uris.length === 0 || (r < 0.03 && uris.length < 6)) {
        const lang = random() < 0.5 ? 'ts' : 'py';
        const uri = uriOf(int(6), lang);
        if (open.has(uri)) continue;
        await client.open(uri, lang === 'ts' ? TS : PY);
        open.set(uri, lang);
        count('open');
      } else if (r < 0.05) {
        const uri = pick(uris);
        await client.close(uri);
        open.delete(uri);
        count('close');
      } else if (r < 0.55) {
        // An edit: usually valid, sometimes a range past the end (clients get this wrong).
        const uri = pick(uris);
        const range = anyRange(uri);
        const text = random() < 0.3 ? '' : Array.from({ length: 1 + int(4) }, () => pick(PIECES)).join('');
        await client.change(uri, [{ range, text }]);
        count('edit');
      } else if (r < 0.58) {
        const uri = pick(uris);
        await client.change(uri, open.get(uri) === 'ts' ? TS : PY);
        count('reset');
      } else if (r < 0.75) {
        const uri = random() < 0.9 ? pick(uris) : uriOf(99, 'ts');
        const range = anyRange(uri);
        const kind = pick(['hover', 'codeAction', 'codeLens', 'tools'] as const);
        const p: Promise<unknown> =
          kind === 'hover' ? client.hover(uri, range.start) : kind === 'codeAction' ? client.codeActions(uri, range) : kind === 'codeLens' ? client.codeLens(uri) : client.tools(uri);
        await within(p, `${kind} at step ${step} on ${uri.split('/').pop()} ${JSON.stringify(range)}`);
        count(`request:${kind}`, `${uri.split('/').pop()} ${JSON.stringify(range)}`);
      } else if (r < 0.85) {
        // Requests and notifications with params of the wrong shape, or methods nobody defined.
        const garbage = pick([null, 42, 'x', [], {}, { textDocument: null }, { textDocument: { uri: 7 } }, { textDocument: { uri: pick(uris) }, position: { line: -1, character: 'a' } }]);
        const method = pick(['textDocument/hover', 'textDocument/codeAction', 'textDocument/codeLens', 'toolsmith/tools', 'toolsmith/workspaceTools', 'nobody/knows', 'workspace/executeCommand']);
        if (random() < 0.5) {
          await within(client.connection.sendRequest(method, garbage), `${method} with bad params at step ${step}`);
          count('bad-request', `${method} ${JSON.stringify(garbage)}`);
        } else {
          const note = pick(['textDocument/didChange', 'textDocument/didClose', 'textDocument/didSave', 'workspace/didChangeWatchedFiles', 'workspace/didChangeConfiguration', 'nobody/notifies']);
          await client.connection.sendNotification(note, garbage);
          count('bad-notification', `${note} ${JSON.stringify(garbage)}`);
        }
      } else if (r < 0.95) {
        // Framed, but not a JSON-RPC message.
        const body = pick([
          '{',
          'null',
          '[]',
          '42',
          '"x"',
          '{"jsonrpc":"2.0"}',
          '{"jsonrpc":"2.0","id":999999,"result":{}}',
          '{"jsonrpc":"2.0","method":7}',
          '\u0000\u0001',
          '{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":'.padEnd(200, '['),
        ]);
        await raw(frame(body));
        count('bad-body', JSON.stringify(body.slice(0, 16)));
      } else if (r < 0.999) {
        await client.connection.sendNotification('$/cancelRequest', { id: int(1000) });
        count('cancel');
      } else {
        // A header without Content-Length, then the client goes on with ordinary messages.
        await raw(`Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{"jsonrpc":"2.0","method":"initialized","params":{}}`);
        count('no-content-length');
      }
    }
    // Alive and answering: a fresh document gets its tools and its diagnostics.
    const fresh = uriOf(77, 'ts');
    const flawed = TS.replace('description: "Read one ticket by its id. Use when the user names a ticket. Returns its status and title.",', '');
    await client.open(fresh, flawed);
    const tools = await client.tools(fresh);
    assert.deepEqual(
      tools.tools.map((t) => t.name),
      ['get_ticket'],
      `the server answers toolsmith/tools after ${STEPS} steps: ${JSON.stringify(counts)}`,
    );
    const published = await client.diagnosticsFor(fresh, 1, 30_000);
    assert.ok(
      published.diagnostics.some((d) => d.code === 'description-missing'),
      'and publishes the diagnostics of a fresh document',
    );
    assert.ok(client.alive);
    console.log(`fuzz steps by kind: ${JSON.stringify(counts)}`);
  } finally {
    await client.stop();
  }
});

test('a message header without Content-Length is dropped with a warning, and the next request is answered (the server went deaf for good)', async () => {
  const client = await LspClient.start({ initializationOptions: { diagnosticsDelayMs: 0, workspaceScan: false } });
  try {
    const uri = fileUri(`${tempDir('toolsmith-frame-')}/t.ts`);
    await client.open(uri, TS);
    await new Promise<void>((resolve) => client.process.stdin!.write('Content-Type: application/vscode-jsonrpc\r\n\r\n{"jsonrpc":"2.0","method":"initialized","params":{}}', () => resolve()));
    const tools = await Promise.race([client.tools(uri), new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer after the broken header')), 10_000))]);
    assert.deepEqual(
      tools.tools.map((t) => t.name),
      ['get_ticket'],
    );
    await client.waitFor(() => client.logs().some((l) => /dropped \d+ bytes from the client: a message header without Content-Length/.test(l)), 'the warning in the log');
  } finally {
    await client.stop();
  }
});
