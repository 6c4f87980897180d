/**
 * ts-sdk-v1-import: what each fix writes (module specifiers in their own quotes, renamed symbols kept under their
 * local name, the v2 dependency in package.json with its line endings), what stays manual, and that the rule is an
 * opt-in (strict preset or named in toolsmith.rules).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { analyse } from './harness';
import { DEFAULT_SETTINGS } from '../../../common/settings';
import type { Fix } from '../../../server/src/rules/types';

function project(manifest: string, source: string): { file: string; text: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-v1import-'));
  fs.writeFileSync(path.join(dir, 'package.json'), manifest);
  fs.mkdirSync(path.join(dir, 'src'));
  const file = path.join(dir, 'src', 'server.ts');
  fs.writeFileSync(file, source);
  return { file, text: source };
}

function apply(text: string, file: string, fix: Fix): string {
  return fix.edits
    .filter((e) => e.span.file === file)
    .sort((a, b) => b.span.start - a.span.start)
    .reduce((t, e) => t.slice(0, e.span.start) + e.newText + t.slice(e.span.end), text);
}

const SOURCE = [
  "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'; // the server",
  'import { McpError, ErrorCode as Codes } from "@modelcontextprotocol/sdk/types.js";',
  'import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";',
  'const server = new McpServer({ name: "x", version: "1.0.0" });',
  'throw new McpError(Codes.InvalidParams, "bad");',
  '',
].join('\n');

/** The same file without its manual import: every import has one mapping, so each gets its fix. */
const WHOLE = SOURCE.split('\n')
  .filter((l) => !l.includes('streamableHttp'))
  .join('\n');

test('ts-sdk-v1-import: one finding per v1 import, each fix rewrites only its own import', () => {
  const { file, text } = project('{\n  "dependencies": {\n    "@modelcontextprotocol/sdk": "^1.32.2"\n  }\n}\n', WHOLE);
  const found = analyse(file, text).findings.filter((f) => f.ruleId === 'ts-sdk-v1-import');
  assert.equal(found.length, 2);
  const [mcp, types] = found;
  assert.equal(mcp.fixes[0].title, 'Import from @modelcontextprotocol/server');
  assert.equal(apply(text, file, mcp.fixes[0]).split('\n')[0], "import { McpServer } from '@modelcontextprotocol/server'; // the server");
  assert.equal(types.fixes[0].title, 'Import from @modelcontextprotocol/server (ProtocolError as McpError, ProtocolErrorCode as Codes)');
  assert.equal(apply(text, file, types.fixes[0]).split('\n')[1], 'import { ProtocolError as McpError, ProtocolErrorCode as Codes } from "@modelcontextprotocol/server";');
});

test('ts-sdk-v1-import: a file with a manual import gets no fix on any import (it would not start half-migrated)', () => {
  const { file, text } = project('{\n  "dependencies": {\n    "@modelcontextprotocol/sdk": "^1.32.2"\n  }\n}\n', SOURCE);
  const found = analyse(file, text).findings.filter((f) => f.ruleId === 'ts-sdk-v1-import');
  assert.equal(found.length, 3);
  assert.deepEqual(
    found.flatMap((f) => f.fixes),
    [],
  );
  assert.match(found[2].message, /manual step: StreamableHTTPServerTransport became NodeStreamableHTTPServerTransport/);
  assert.match(found[0].message, /In v2 it is `@modelcontextprotocol\/server`\. No fix is offered while another import of this file needs a manual step/);
});

test('ts-sdk-v1-import: zod 3 next to a file that imports zod leaves the migration manual (v2 rejects zod 3 schemas)', () => {
  const { file, text } = project('{ "dependencies": { "@modelcontextprotocol/sdk": "^1.32.2", "zod": "^3.25.0" } }\n', `import { z } from "zod";\n${WHOLE}`);
  const found = analyse(file, text).findings.filter((f) => f.ruleId === 'ts-sdk-v1-import');
  assert.deepEqual(
    found.flatMap((f) => f.fixes),
    [],
  );
  assert.match(found.map((f) => f.message).join('\n'), /zod 3 is installed and v2 takes zod >= 4.2 schemas only/);
});

test('ts-sdk-v1-import: a server whose tools another module registers with server.tool gets no import fix (v2 has no .tool: it would not start)', () => {
  const { file } = project('{ "dependencies": { "@modelcontextprotocol/sdk": "^1.32.2", "zod": "^4.2.0" } }\n', '');
  const tools = path.join(path.dirname(file), 'tools.ts');
  fs.writeFileSync(
    tools,
    [
      'import { z } from "zod";',
      'export function addTools(server: any) {',
      '  server.tool("echo", "Echo the text back.", { text: z.string() }, async ({ text }: { text: string }) => ({ content: [{ type: "text", text }] }));',
      '}',
      '',
    ].join('\n'),
  );
  const text = [
    "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
    "import { addTools } from './tools';",
    'const server = new McpServer({ name: "x", version: "1.0.0" });',
    'addTools(server);',
    '',
  ].join('\n');
  fs.writeFileSync(file, text);
  const analysed = analyse(file, text);
  assert.deepEqual(
    analysed.result.tools.map((t) => t.name.value),
    ['echo'],
    'the registration in tools.ts is followed from the server file',
  );
  const found = analysed.findings.filter((f) => f.ruleId === 'ts-sdk-v1-import');
  assert.equal(found.length, 1);
  assert.deepEqual(found[0].fixes, []);
  assert.match(found[0].message, /1 registration of this server uses server\.tool\(\.\.\.\), which v2 removed/);
});

test('ts-sdk-v1-import: a module the server file imports that hands v1 schema constants to setRequestHandler keeps the file manual', () => {
  const { file } = project('{ "dependencies": { "@modelcontextprotocol/sdk": "^1.32.2", "zod": "^4.2.0" } }\n', '');
  fs.writeFileSync(
    path.join(path.dirname(file), 'dialect.ts'),
    [
      'import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";',
      'export default function dialect(server: any) {',
      '  server.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));',
      '}',
      '',
    ].join('\n'),
  );
  const text = [
    "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
    "import dialect from './dialect.js';",
    'const server = new McpServer({ name: "x", version: "1.0.0" });',
    'dialect(server);',
    '',
  ].join('\n');
  fs.writeFileSync(file, text);
  const found = analyse(file, text).findings.filter((f) => f.ruleId === 'ts-sdk-v1-import');
  assert.equal(found.length, 1);
  assert.deepEqual(found[0].fixes, []);
  assert.match(found[0].message, /dialect\.ts, a module of this server, needs a manual step first: ListToolsRequestSchema moved to @modelcontextprotocol\/core/);
});

test('ts-sdk-v1-import: zod 3 installed for the package leaves the migration manual even where this file imports no zod', () => {
  const { file, text } = project('{ "dependencies": { "@modelcontextprotocol/sdk": "^1.32.2", "zod": "^3.25.0" } }\n', WHOLE);
  const found = analyse(file, text).findings.filter((f) => f.ruleId === 'ts-sdk-v1-import');
  assert.deepEqual(
    found.flatMap((f) => f.fixes),
    [],
  );
  assert.match(found.map((f) => f.message).join('\n'), /zod 3 is installed/);
});

test('ts-sdk-v1-import: the package.json fix adds @modelcontextprotocol/server after the v1 entry, in the file’s line endings', () => {
  const manifest = '{\r\n  "dependencies": {\r\n    "@modelcontextprotocol/sdk": "^1.32.2",\r\n    "zod": "^4.2.0"\r\n  }\r\n}\r\n';
  const { file, text } = project(manifest, WHOLE);
  const fix = analyse(file, text).findings.find((f) => f.ruleId === 'ts-sdk-v1-import')!.fixes[1];
  assert.equal(fix.title, 'Add @modelcontextprotocol/server ^2.4.0 to package.json (keeping @modelcontextprotocol/sdk until nothing imports it)');
  const pkg = path.join(path.dirname(path.dirname(file)), 'package.json');
  const out = apply(manifest, pkg, fix);
  assert.equal(out, '{\r\n  "dependencies": {\r\n    "@modelcontextprotocol/sdk": "^1.32.2",\r\n    "@modelcontextprotocol/server": "^2.4.0",\r\n    "zod": "^4.2.0"\r\n  }\r\n}\r\n');
  // The last entry of its object: no trailing comma added.
  const last = '{\n  "dependencies": {\n    "@modelcontextprotocol/sdk": "^1.32.2"\n  }\n}\n';
  const p2 = project(last, WHOLE);
  const fix2 = analyse(p2.file, p2.text).findings.find((f) => f.ruleId === 'ts-sdk-v1-import')!.fixes[1];
  const out2 = apply(last, path.join(path.dirname(path.dirname(p2.file)), 'package.json'), fix2);
  assert.deepEqual(JSON.parse(out2), { dependencies: { '@modelcontextprotocol/sdk': '^1.32.2', '@modelcontextprotocol/server': '^2.4.0' } });
});

test('ts-sdk-v1-import: ErrorCode is left manual when the file uses a member v2 moved to SdkErrorCode', () => {
  const source = 'import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";\nif (e.code === ErrorCode.RequestTimeout) retry();\n';
  const { file, text } = project('{ "dependencies": { "@modelcontextprotocol/sdk": "^1.32.2" } }\n', source);
  const f = analyse(file, text).findings.find((x) => x.ruleId === 'ts-sdk-v1-import')!;
  assert.ok(!f.fixes.some((x) => x.title.startsWith('Import from')));
  assert.match(f.message, /RequestTimeout and ConnectionClosed moved to SdkErrorCode/);
});

test('ts-sdk-v1-import: an opt-in — not reported under the recommended preset, reported when toolsmith.rules names it', () => {
  const { file, text } = project('{ "dependencies": { "@modelcontextprotocol/sdk": "^1.32.2" } }\n', SOURCE);
  assert.equal(analyse(file, text, DEFAULT_SETTINGS).findings.filter((f) => f.ruleId === 'ts-sdk-v1-import').length, 0);
  const on = analyse(file, text, { ...DEFAULT_SETTINGS, rules: { 'ts-sdk-v1-import': 'warning' } }).findings.filter((f) => f.ruleId === 'ts-sdk-v1-import');
  assert.equal(on.length, 3);
  assert.equal(on[0].severity, 'warning');
});
