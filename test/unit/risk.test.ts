// One risk model (common/risk.ts) behind four surfaces, each called through its own entry point: the Servers tree
// row (toolText), the playground's tool view (toolView), the Contract Preview built from the published contract
// (buildPreview) and the language server's answer for the preview (toolFindings, from the source). Every combination
// of the four hints declared true/false or left out, on two handlers: one that does nothing visible and one that
// deletes a file and calls the network (what the spec defaults assume).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Tool } from '@modelcontextprotocol/client';
import { analyzeFile } from '../../server/src/service';
import { createFileHost } from '../../server/src/host';
import { DEFAULT_SETTINGS } from '../../common/settings';
import { toolFindings } from '../../server/src/lsp/toolFindings';
import { SpanMapper } from '../../server/src/lsp/spans';
import { buildPreview } from '../../common/preview-model';
import type { RiskLevel } from '../../common/risk';
import { toolText } from '../../client/src/servers/treeModel';
import { toolView } from '../../client/src/playground/controller';

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
type Annotations = Partial<Record<(typeof HINTS)[number], boolean>>;

/** Every hint true, false or absent: 3^4 combinations, the 2^4 fully declared ones among them. */
const COMBINATIONS: Annotations[] = [];
for (let i = 0; i < 3 ** HINTS.length; i++) {
  const a: Annotations = {};
  HINTS.forEach((key, k) => {
    const digit = Math.floor(i / 3 ** k) % 3;
    if (digit < 2) a[key] = digit === 1;
  });
  COMBINATIONS.push(a);
}
const fullyDeclared = (a: Annotations) => HINTS.every((k) => a[k] !== undefined);

/** The levels of docs/rules ("Annotations and risk"), written out as a table rather than computed by the model. */
function expectedLevel(readOnly: boolean, destructive: boolean, openWorld: boolean): RiskLevel {
  if (readOnly) return 'Low';
  if (destructive) return openWorld ? 'Critical' : 'High';
  return openWorld ? 'High' : 'Medium';
}

/** The level with undeclared hints filled in from `fill` (what the source says, or the spec defaults). */
function levelWith(a: Annotations, fill: { readOnly: boolean; destructive: boolean; openWorld: boolean }): RiskLevel {
  return expectedLevel(a.readOnlyHint ?? fill.readOnly, a.destructiveHint ?? fill.destructive, a.openWorldHint ?? fill.openWorld);
}
const SPEC_DEFAULTS = { readOnly: false, destructive: true, openWorld: true };

const HANDLERS = {
  quiet: { body: 'return { content: [] };', infers: { readOnly: true, destructive: false, openWorld: false } },
  worst: { body: 'fs.unlinkSync(id); await fetch("https://example.com/hook", { method: "POST" }); return { content: [] };', infers: SPEC_DEFAULTS },
};

const toolName = (handler: string, i: number) => `item_${handler}_${i}`;
const annotationsText = (a: Annotations | undefined) => (a === undefined ? '' : `, annotations: ${JSON.stringify(a)}`);

function sourceOf(tools: { name: string; annotations: Annotations | undefined; body: string }[]): string {
  return `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import * as fs from "node:fs";
const server = new McpServer({ name: "risk", version: "1" });
${tools.map((t) => `server.registerTool("${t.name}", { description: "d", inputSchema: { id: z.string() }${annotationsText(t.annotations)} }, async ({ id }) => { ${t.body} });`).join('\n')}
`;
}

interface Surfaces {
  tree: RiskLevel;
  playground: RiskLevel;
  preview: RiskLevel;
  rules: RiskLevel;
  /** Whether the annotation-only surfaces say a spec default was assumed (they agree on it too). */
  assumed: boolean;
  rulesAssumed: boolean;
}

/** Analyses one file with every combination on every handler (plus no annotations object, and a hint that is not a boolean). */
function surfacesOfAll(): Map<string, { annotations: Annotations | undefined; handler: keyof typeof HANDLERS; surfaces: Surfaces }> {
  const cases: { name: string; annotations: Annotations | undefined; handler: keyof typeof HANDLERS; body: string }[] = [];
  for (const handler of Object.keys(HANDLERS) as (keyof typeof HANDLERS)[]) {
    [...COMBINATIONS, undefined].forEach((annotations, i) => cases.push({ name: toolName(handler, i), annotations, handler, body: HANDLERS[handler].body }));
  }
  const file = '/tmp/toolsmith-risk-surfaces.ts';
  const text = sourceOf(cases);
  const analysis = analyzeFile(file, text, createFileHost(), DEFAULT_SETTINGS);
  const mapper = new SpanMapper(() => undefined, new Map([[file, text]]));
  const out = new Map<string, { annotations: Annotations | undefined; handler: keyof typeof HANDLERS; surfaces: Surfaces }>();
  for (const c of cases) {
    const tool = analysis.result.tools.find((t) => t.name.value === c.name);
    assert.ok(tool, `${c.name} analysed`);
    const listed = { ...(tool.contract as object), name: c.name, inputSchema: { type: 'object' } } as Tool;
    const zero = { line: 0, character: 0 };
    const preview = buildPreview({
      tool: { name: c.name, language: 'typescript', framework: tool.framework, uri: 'file:///t.ts', range: { start: zero, end: zero }, contract: tool.contract, unresolved: [], serverId: 's' },
      serverContracts: [tool.contract],
      findings: [],
    }).risk;
    const tree = toolText(listed).risk;
    const playground = toolView(listed).risk;
    const rules = toolFindings(analysis, c.name, mapper).risk;
    assert.ok(rules, `${c.name}: toolFindings answers a risk`);
    assert.equal(tree.assumed, playground.assumed);
    out.set(c.name, {
      annotations: c.annotations,
      handler: c.handler,
      surfaces: { tree: tree.level, playground: playground.level, preview: preview.level, rules: rules.level, assumed: tree.assumed, rulesAssumed: rules.assumed },
    });
  }
  return out;
}

const all = surfacesOfAll();

test('2^4 declared hints: tree, playground, preview and rules show one level, whatever the handler does', () => {
  let checked = 0;
  for (const [name, { annotations, surfaces }] of all) {
    if (!annotations || !fullyDeclared(annotations)) continue;
    const level = levelWith(annotations, SPEC_DEFAULTS);
    assert.deepEqual(surfaces, { tree: level, playground: level, preview: level, rules: level, assumed: false, rulesAssumed: false }, `${name} ${JSON.stringify(annotations)}`);
    checked++;
  }
  assert.equal(checked, 2 * 2 ** HINTS.length);
});

test('undeclared hints: the annotation-only surfaces assume the spec defaults (and say so); the source fills them from the handler', () => {
  let checked = 0;
  for (const [name, { annotations, handler, surfaces }] of all) {
    if (annotations && fullyDeclared(annotations)) continue;
    const a = annotations ?? {};
    const published = levelWith(a, SPEC_DEFAULTS);
    const inferred = levelWith(a, HANDLERS[handler].infers);
    const dependsOnMissing = a.readOnlyHint !== true && (a.readOnlyHint === undefined || a.destructiveHint === undefined || a.openWorldHint === undefined);
    const label = `${name} ${JSON.stringify(annotations)}`;
    assert.deepEqual({ tree: surfaces.tree, playground: surfaces.playground, preview: surfaces.preview }, { tree: published, playground: published, preview: published }, label);
    assert.equal(surfaces.assumed, dependsOnMissing, label);
    assert.equal(surfaces.rules, inferred, label);
    assert.equal(surfaces.rulesAssumed, false, `${label}: the source analysis inferred the missing hints, nothing was assumed`);
    checked++;
  }
  assert.equal(checked, 2 * (3 ** HINTS.length - 2 ** HINTS.length + 1));
});

test('a handler that deletes and calls the network infers what the spec defaults assume: all four surfaces agree', () => {
  for (const [name, { handler, surfaces }] of all) {
    if (handler !== 'worst') continue;
    assert.equal(new Set([surfaces.tree, surfaces.playground, surfaces.preview, surfaces.rules]).size, 1, name);
  }
});

test('the issue 12 cases: writes, not destructive, open world is High everywhere; no hints is an assumed Critical', () => {
  const find = (annotations: Annotations | undefined) => [...all.values()].find((v) => v.handler === 'quiet' && JSON.stringify(v.annotations) === JSON.stringify(annotations))!.surfaces;
  const write = find({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true });
  assert.deepEqual([write.tree, write.playground, write.preview, write.rules], ['High', 'High', 'High', 'High']);
  const none = find(undefined);
  assert.deepEqual([none.tree, none.playground, none.preview, none.assumed], ['Critical', 'Critical', 'Critical', true]);
});

test('a hint that is not a boolean counts as not declared on every surface', () => {
  const listed = { name: 't', inputSchema: { type: 'object' }, annotations: { readOnlyHint: 'true' } } as unknown as Tool;
  assert.equal(toolText(listed).risk.level, 'Critical');
  assert.equal(toolView(listed).risk.level, 'Critical');
  assert.match(toolText(listed).risk.reasons.join('\n'), /readOnlyHint: false \(not declared: spec default\)/);
});
