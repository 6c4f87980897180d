/**
 * The demo workspace's servers run for real: each is started exactly as examples/.vscode/mcp.json declares it,
 * and the MCP SDK's own Client lists its tools and calls them. The deliberate contract flaws the demo exists for
 * are visible in the live contract too.
 */
import { test, before } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ensureExamples } from '../../scripts/ensure-examples.mjs';

const examples = path.resolve(__dirname, '../../examples');

interface StdioServerConfig {
  type: 'stdio';
  command: string;
  args?: string[];
  env?: Record<string, string>;
}

function serverConfig(name: string): StdioServerConfig {
  const config = JSON.parse(fs.readFileSync(path.join(examples, '.vscode', 'mcp.json'), 'utf8')) as { servers: Record<string, StdioServerConfig> };
  const server = config.servers[name];
  assert.ok(server, `mcp.json declares "${name}"`);
  assert.equal(server.type, 'stdio');
  // ${workspaceFolder} as VS Code substitutes it.
  const sub = (s: string) => s.replaceAll('${workspaceFolder}', examples);
  return { ...server, command: sub(server.command), args: (server.args ?? []).map(sub) };
}

async function connect(name: string): Promise<Client> {
  const cfg = serverConfig(name);
  const transport = new StdioClientTransport({ command: cfg.command, args: cfg.args, env: { ...process.env, ...cfg.env } as Record<string, string>, stderr: 'pipe' });
  const client = new Client({ name: 'toolsmith-examples-test', version: '0.0.0' });
  await client.connect(transport);
  return client;
}

function text(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = (result.content ?? []) as { type: string; text?: string }[];
  return content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}

before(() => ensureExamples());

test('helpdesk (TypeScript SDK): lists its three tools and answers calls', { timeout: 120_000 }, async () => {
  const client = await connect('helpdesk');
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['add_note', 'close_ticket', 'query']);

    const query = tools.find((t) => t.name === 'query')!;
    const props = query.inputSchema.properties as Record<string, Record<string, unknown>>;
    // Deliberate flaws, live: no parameter description, a float limit without bounds.
    assert.equal(props.text.description, undefined);
    assert.equal(props.limit.type, 'number');
    assert.equal(props.limit.maximum, undefined);
    assert.equal(tools.find((t) => t.name === 'add_note')!.annotations, undefined);

    const found = await client.callTool({ name: 'query', arguments: { text: 'password' } });
    assert.match(text(found), /T-1001/);
    assert.match(text(found), /T-1004/);

    const note = await client.callTool({ name: 'add_note', arguments: { ticket_id: 'T-1002', note: 'Customer is on the 2024 price list.' } });
    assert.equal(note.isError, undefined);
    assert.match(text(note), /T-1002 now has 1 note/);

    // Deliberate flaw, live: the error comes back as a success.
    const missing = await client.callTool({ name: 'close_ticket', arguments: { ticket_id: 'T-9999', resolution: 'n/a' } });
    assert.notEqual(missing.isError, true);
    assert.match(text(missing), /not found/);
  } finally {
    await client.close();
  }
});

test('docs (official Python SDK): lists its two tools and answers calls', { timeout: 120_000 }, async () => {
  const client = await connect('docs');
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['grep_docs', 'read_doc']);

    const grep = tools.find((t) => t.name === 'grep_docs')!;
    // Deliberate flaw, live: the official SDK keeps the Args: section in the description, not in the schema.
    assert.match(grep.description ?? '', /Args:/);
    const props = grep.inputSchema.properties as Record<string, Record<string, unknown>>;
    assert.equal(props.pattern.description, undefined);
    assert.equal(props.max_results.default, 20);

    const hits = await client.callTool({ name: 'grep_docs', arguments: { pattern: 'sign in' } });
    assert.match(text(hits), /guide\/install\.md:\d+:/);

    const page = await client.callTool({ name: 'read_doc', arguments: { path: 'guide/sharing.md' } });
    assert.match(text(page), /# Sharing notes/);

    // Containment holds, but the error is returned as a success (deliberate flaw).
    const outside = await client.callTool({ name: 'read_doc', arguments: { path: '../server.py' } });
    assert.notEqual(outside.isError, true);
    assert.match(text(outside), /^Error: no document/);
  } finally {
    await client.close();
  }
});
