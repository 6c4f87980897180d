/**
 * Every rule on SDK v2 code (`@modelcontextprotocol/server`): the whole catalogue runs over the v2 fidelity fixtures
 * (zod 4, ArkType, Valibot) and no finding or quick fix speaks v1 API — no `@modelcontextprotocol/sdk` import, no
 * `server.tool(...)` written, no zod spelling told to an ArkType or Valibot author — and every fix leaves a file
 * that parses and is still a v2 server.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { analyse } from './harness';
import type { Finding, Fix } from '../../../server/src/rules/types';

const V2 = path.resolve(__dirname, '../../fixtures/ts-v2');

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

/** The text of `file` after one fix's edits on it (edits apply from the end so offsets stay valid). */
function applied(text: string, file: string, fix: Fix): string {
  const edits = fix.edits.filter((e) => e.span.file === file).sort((a, b) => b.span.start - a.span.start);
  return edits.reduce((t, e) => t.slice(0, e.span.start) + e.newText + t.slice(e.span.end), text);
}

const V1_API = [/@modelcontextprotocol\/sdk/, /\bzod\/v3\b/, /\bMcpError\b/, /\bRequestHandlerExtra\b/];
/** What a fix may not write into a v2 file: a call of the removed `tool` method, a v1 import. */
const V1_WRITE = [...V1_API, /\.tool\s*\(/];
/** zod spelling, wrong for a schema written in another library. */
const ZOD_SPELLING = [/\bz\.\w+\(/, /\.int\(\)/, /\.max\(\d/, /\.min\(\d/];

const all: { file: string; text: string; findings: Finding[] }[] = files(V2).map((file) => {
  const text = fs.readFileSync(file, 'utf8');
  return { file, text, findings: analyse(file, text).findings };
});

test('v2 fixtures: every tool is analysed as SDK v2 and the catalogue finds something to say', () => {
  const count = all.reduce((n, f) => n + f.findings.length, 0);
  assert.ok(count > 100, `only ${count} findings on the v2 fixtures`);
  for (const { file, text } of all) {
    const { result } = analyse(file, text);
    for (const t of result.tools) assert.equal(t.framework, 'ts-sdk-v2', `${path.basename(file)}: ${t.name.value}`);
  }
});

test('v2 fixtures: no finding message names v1 API and no fix writes it', () => {
  for (const { file, findings } of all) {
    for (const f of findings) {
      for (const re of V1_API) assert.doesNotMatch(f.message, re, `${path.basename(file)} ${f.ruleId}: ${f.message}`);
      for (const fix of f.fixes) {
        for (const re of V1_WRITE) {
          assert.doesNotMatch(fix.title, re, `${path.basename(file)} ${f.ruleId}: ${fix.title}`);
          for (const e of fix.edits) assert.doesNotMatch(e.newText, re, `${path.basename(file)} ${f.ruleId}: ${e.newText}`);
        }
      }
    }
  }
});

test('v2 fixtures: ArkType and Valibot tools are told what to write in their own library', () => {
  const seen = new Set<string>();
  for (const { file, findings } of all.filter((f) => /arktype|valibot/.test(f.file))) {
    for (const f of findings) {
      for (const re of ZOD_SPELLING) assert.doesNotMatch(f.message, re, `${path.basename(file)} ${f.ruleId}: ${f.message}`);
      for (const fix of f.fixes) for (const e of fix.edits) for (const re of ZOD_SPELLING) assert.doesNotMatch(e.newText, re, `${path.basename(file)} ${f.ruleId}`);
      if (f.ruleId.startsWith('param-')) seen.add(`${path.basename(file)} ${f.ruleId}`);
    }
  }
  const valibot = all.find((f) => f.file.endsWith('contacts-valibot.ts'))!.findings;
  assert.match(valibot.find((f) => f.ruleId === 'param-description-missing')!.message, /v\.description\("…"\)/);
  assert.match(valibot.find((f) => f.ruleId === 'param-unbounded-string')!.message, /v\.maxLength\(\d+\)/);
  const arktype = all.find((f) => f.file.endsWith('bookmarks-arktype.ts'))!.findings;
  assert.match(arktype.find((f) => f.ruleId === 'param-unbounded-string')!.message, /"string <= \d+"/);
  assert.match(arktype.find((f) => f.ruleId === 'param-number-should-be-integer')!.message, /"number\.integer"/);
  assert.ok(seen.size >= 6, [...seen].join(', '));
});

test('v2 fixtures: every quick fix leaves a file that parses', () => {
  let fixes = 0;
  for (const { file, text, findings } of all) {
    for (const f of findings) {
      for (const fix of f.fixes) {
        if (!fix.edits.some((e) => e.span.file === file)) continue;
        const out = applied(text, file, fix);
        const sf = ts.createSourceFile(file, out, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
        const diags = (sf as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
        assert.equal(diags.length, 0, `${path.basename(file)} ${f.ruleId} "${fix.title}" breaks the syntax`);
        fixes++;
      }
    }
  }
  assert.ok(fixes > 50, `only ${fixes} fixes checked`);
});

test('v2: server.tool(...) on an SDK v2 McpServer is reported as missing, and the fix writes registerTool', () => {
  const file = path.join(V2, 'inline-tool-method.ts');
  const text = [
    'import { McpServer } from "@modelcontextprotocol/server";',
    'import * as z from "zod";',
    'const server = new McpServer({ name: "x", version: "1.0.0" });',
    'server.tool("get_time", "Get the current time in a time zone.", { tz: z.string().describe("IANA zone") }, async ({ tz }) => ({ content: [{ type: "text", text: tz }] }));',
    '',
  ].join('\n');
  const { findings, result } = analyse(file, text);
  assert.equal(result.tools[0]?.framework, 'ts-sdk-v2');
  const f = findings.find((x) => x.ruleId === 'deprecated-server-tool');
  assert.ok(f, 'no deprecated-server-tool finding');
  assert.match(f.message, /does not exist in the TypeScript SDK v2 \(@modelcontextprotocol\/server\)/);
  assert.match(f.message, /not a function/);
  const out = applied(text, file, f.fixes[0]);
  assert.match(out, /server\.registerTool\("get_time", \{ description: "Get the current time in a time zone\.", inputSchema: \{ tz: z\.string\(\)\.describe\("IANA zone"\) \} \}, async/);
  assert.doesNotMatch(out, /server\.tool\(/);
});

test('v2: a non-object inputSchema (tools/list throws on SDK v2) is reported by input-schema-not-object, with the zod fix', () => {
  const file = path.join(V2, 'inline-not-object.ts');
  const text = [
    'import { McpServer } from "@modelcontextprotocol/server";',
    'import * as z from "zod";',
    'const server = new McpServer({ name: "x", version: "1.0.0" });',
    'server.registerTool("echo_text", { description: "Echo the text back.", inputSchema: z.string().max(100) }, async (t) => ({ content: [{ type: "text", text: String(t) }] }));',
    '',
  ].join('\n');
  const f = analyse(file, text).findings.find((x) => x.ruleId === 'input-schema-not-object');
  assert.ok(f, 'no input-schema-not-object finding');
  assert.match(f.message, /SDK v2 throws "MCP tool and prompt schemas must describe objects"/);
  assert.match(applied(text, file, f.fixes[0]), /inputSchema: z\.object\(\{ value: z\.string\(\)\.max\(100\) \}\)/);
});
