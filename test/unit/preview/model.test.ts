import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { z } from 'zod';
import { buildPreview, typeLabel, type PreviewTool } from '../../../common/preview-model';
import { getTokenizer } from '../../../client/src/preview/tokens';
import type { JsonSchema } from '../../../server/src/analysis/model';
import type { ToolFinding } from '../../../common/protocol';
import { liveContracts, registerSearchDocs } from './sdk-contracts';

const range = (line: number, character = 0) => ({ start: { line, character }, end: { line, character: character + 5 } });

function toolOf(contract: JsonSchema, extra: Partial<PreviewTool> = {}): PreviewTool {
  return {
    name: contract.name as string,
    language: 'typescript',
    framework: 'ts-sdk',
    frameworkVersion: '1.32.2',
    uri: 'file:///work/server.ts',
    range: range(3),
    contract,
    unresolved: [],
    serverId: 'server',
    ...extra,
  };
}

async function searchAndDelete() {
  return liveContracts((server) => {
    registerSearchDocs(server);
    server.registerTool('delete_page', { description: 'Delete a page.', inputSchema: { page_id: z.string() }, annotations: { destructiveHint: true } }, async () => ({ content: [] }));
  });
}

test('preview JSON is exactly the contract, and the reading lists every parameter as the model receives it', async () => {
  const [search] = await searchAndDelete();
  const view = buildPreview({ tool: toolOf(search), serverContracts: [search], findings: [] });
  assert.deepEqual(JSON.parse(view.json), search);
  assert.equal(view.name, 'search_docs');
  assert.equal(view.title, 'Search docs');
  assert.match(view.description ?? '', /^Search the documentation/);
  const byName = Object.fromEntries(view.parameters.map((p) => [p.name, p]));
  assert.deepEqual(Object.keys(byName), ['query', 'limit', 'kind', 'filters']);
  assert.equal(byName.query.type, 'string');
  assert.equal(byName.query.required, true);
  assert.deepEqual(byName.query.constraints, ['length ≥ 1', 'length ≤ 200']);
  assert.equal(byName.query.description, 'Words to look for');
  assert.equal(byName.limit.type, 'integer');
  assert.equal(byName.limit.defaultValue, '10');
  assert.equal(byName.limit.required, false);
  assert.ok(byName.limit.constraints.includes('≥ 1') && byName.limit.constraints.includes('≤ 50'));
  assert.equal(byName.kind.type, '"guide" | "api"');
  assert.equal(byName.kind.required, false);
  assert.equal(byName.kind.description, undefined);
  // Nested objects are read too: the model fills them field by field.
  assert.deepEqual(
    byName.filters.children.map((c) => [c.name, c.type, c.required]),
    [
      ['tags', 'array of string', true],
      ['since', 'string', false],
    ],
  );
  assert.ok(byName.filters.children[0].constraints.includes('items ≤ 5'));
  assert.ok(byName.filters.children[1].constraints.some((c) => c.startsWith('format: date-time')));
  // Output schema and its nested items.
  assert.equal(view.output.declared, true);
  assert.equal(view.output.fields[0].name, 'hits');
  assert.equal(view.output.fields[0].type, 'array of object');
  assert.deepEqual(
    view.output.fields[0].children.map((c) => c.name),
    ['title', 'url'],
  );
  // execution is published by the SDK but not part of the reading: it is listed, not hidden.
  assert.ok(view.otherFields.some((f) => f.key === 'execution'));
});

test('annotations read with their meaning, missing hints shown with the default a client assumes', async () => {
  const [search, del] = await searchAndDelete();
  const a = buildPreview({ tool: toolOf(search), serverContracts: [search, del], findings: [] }).annotations;
  assert.equal(a.find((x) => x.key === 'readOnlyHint')?.value, 'true');
  assert.match(a.find((x) => x.key === 'readOnlyHint')!.meaning, /does not modify/);
  assert.equal(a.find((x) => x.key === 'idempotentHint')?.declared, false);
  const d = buildPreview({ tool: toolOf(del), serverContracts: [search, del], findings: [] }).annotations;
  assert.match(d.find((x) => x.key === 'openWorldHint')!.meaning, /not declared — clients assume true/);
});

test('risk levels from the published annotations, with spec defaults for undeclared hints', () => {
  const risk = (annotations?: JsonSchema) => {
    const contract: JsonSchema = annotations ? { name: 't', annotations } : { name: 't' };
    return buildPreview({ tool: toolOf(contract), serverContracts: [contract], findings: [] }).risk;
  };
  assert.equal(risk({ readOnlyHint: true }).level, 'Low');
  assert.equal(risk({ readOnlyHint: false, destructiveHint: false, openWorldHint: false }).level, 'Medium');
  assert.equal(risk({ destructiveHint: true, openWorldHint: false }).level, 'High');
  assert.equal(risk({ destructiveHint: false, openWorldHint: true }).level, 'High');
  assert.equal(risk({ destructiveHint: true, openWorldHint: true }).level, 'Critical');
  // No annotations at all: a client must assume destructive + open world.
  const none = risk();
  assert.equal(none.level, 'Critical');
  assert.equal(none.assumed, true);
  assert.match(none.autonomy, /No autonomous execution/);
  assert.match(risk({ readOnlyHint: true }).confirmation, /No confirmation/);
  assert.match(risk({ destructiveHint: true, openWorldHint: false }).confirmation, /confirm/);
});

test('unresolved parts are marked, never shown as plain absence', async () => {
  const [search] = await searchAndDelete();
  const { description: _d, ...withoutDescription } = search;
  const view = buildPreview({
    tool: toolOf(withoutDescription, {
      unresolved: [
        { part: 'description', reason: 'built by a function call', uri: 'file:///work/server.ts', range: range(7, 4) },
        { part: 'inputSchema.properties.filters', reason: 'imported from an unreadable module', uri: 'file:///work/schemas.ts', range: range(1) },
      ],
    }),
    serverContracts: [],
    findings: [],
  });
  assert.equal(view.description, undefined);
  assert.equal(view.descriptionUnresolved, 'built by a function call');
  const filters = view.parameters.find((p) => p.name === 'filters')!;
  assert.equal(filters.unresolved, 'imported from an unreadable module');
  assert.equal(filters.children[0].unresolved, 'inputSchema.properties.filters: imported from an unreadable module');
  assert.equal(view.parameters.find((p) => p.name === 'query')!.unresolved, undefined);
  assert.deepEqual(
    view.unresolved.map((u) => u.location),
    ['server.ts:8:5', 'schemas.ts:2:1'],
  );
});

test('token cost counted with o200k_base for the tool and for the whole server list', async () => {
  const [search, del] = await searchAndDelete();
  const tokenizer = await getTokenizer();
  const view = buildPreview({ tool: toolOf(del), serverContracts: [search, del], findings: [], tokenizer });
  assert.equal(view.tokens?.encoding, 'o200k_base');
  assert.equal(view.tokens?.tool, tokenizer.count(JSON.stringify(del)));
  assert.equal(view.tokens?.serverToolCount, 2);
  // A real BPE tokenizer: far fewer tokens than characters, and the two-tool list costs more than one tool.
  assert.ok(view.tokens.tool < JSON.stringify(del).length / 2, `${view.tokens.tool} tokens`);
  assert.ok(view.tokens.server > view.tokens.tool + tokenizer.count(JSON.stringify(search)) - 5);
  // A longer description costs more.
  const longer = { ...del, description: `${String(del.description)} Deleting cannot be undone; the page is gone for every reader.` };
  assert.ok(tokenizer.count(JSON.stringify(longer)) > view.tokens.tool + 10);
});

test('findings are listed errors first with their location and docs link', async () => {
  const [, del] = await searchAndDelete();
  const findings: ToolFinding[] = [
    { ruleId: 'description-too-short', severity: 'warning', message: 'too short', uri: 'file:///work/server.ts', range: range(12, 4), hasFix: false },
    { ruleId: 'param-name-ambiguous', severity: 'info', message: 'ambiguous', uri: 'file:///work/server.ts', range: range(13, 2), hasFix: false },
    { ruleId: 'tool-name-invalid', severity: 'error', message: 'bad name', uri: 'file:///work/server.ts', range: range(11, 2), hasFix: true },
  ];
  const view = buildPreview({ tool: toolOf(del), serverContracts: [del], findings });
  assert.deepEqual(
    view.findings.map((f) => f.ruleId),
    ['tool-name-invalid', 'description-too-short', 'param-name-ambiguous'],
  );
  assert.equal(view.findings[0].location, 'server.ts:12:3');
  assert.equal(view.findings[0].hasFix, true);
  assert.match(view.findings[0].docsUrl, /docs\/rules\/tool-name-invalid\.md$/);
});

test('type labels for pydantic shapes: Optional, $ref enums, arrays of unions', () => {
  const root: JsonSchema = { $defs: { Color: { enum: ['red', 'blue'], type: 'string', title: 'Color' } } };
  assert.equal(typeLabel({ anyOf: [{ type: 'integer' }, { type: 'null' }] }, root), 'integer | null');
  assert.equal(typeLabel({ $ref: '#/$defs/Color' }, root), 'Color ("red" | "blue")');
  assert.equal(typeLabel({ type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } }, root), 'array of (string | number)');
  assert.equal(typeLabel({}, root), 'any');
});

test('a tool registered under a guard: the preview says it is listed only when the guard holds, with where it is written', () => {
  const contract: JsonSchema = { name: 'trigger-sampling-request', description: 'Ask the client to sample.', inputSchema: { type: 'object', properties: {} } };
  const guarded = buildPreview({
    tool: toolOf(contract, { condition: { text: 'clientSupportsSampling', uri: 'file:///work/tools/sampling.js', range: range(41, 8) } }),
    serverContracts: [contract],
    findings: [],
  });
  assert.deepEqual(guarded.condition, { text: 'clientSupportsSampling', uri: 'file:///work/tools/sampling.js', range: range(41, 8), location: 'sampling.js:42:9' });
  assert.deepEqual(JSON.parse(guarded.json), contract, 'the contract itself is unchanged');
  assert.equal(buildPreview({ tool: toolOf(contract), serverContracts: [contract], findings: [] }).condition, undefined);
});
