/**
 * The TypeScript SDK's low-level `Server`, its prompts, resources and resource templates: what
 * `setRequestHandler(ListPromptsRequestSchema | ListResourcesRequestSchema | ListResourceTemplatesRequestSchema, h)`
 * returns, printed by `toolsmith contract --json` in `prompts`, `resources`, `resourceTemplates` and their unresolved
 * rows. Checked live on the corpus (everart, playwright-mcp-server, mcp-server-kubernetes); here the forms.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { analyze } from './helpers';
import { analyse } from '../rules/harness';
import { promptsJson, resourcesJson } from '../../../server/src/cli/contract-json';

const HEAD = `import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListPromptsRequestSchema, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
const server = new Server({ name: "low", version: "1.0.0" }, { capabilities: { prompts: {}, resources: {} } });
`;

function json(files: Record<string, string>) {
  const { result, textOf } = analyze(files);
  const text = (f: string) => (f.endsWith('main.ts') ? files['main.ts'] : files[f.split('/').pop()!]);
  return { result, textOf, ...promptsJson(result.prompts ?? [], text), ...resourcesJson(result.resources ?? [], text) };
}

test('low-level Server: prompts, resources and templates written as literals are listed as written, extra keys included', () => {
  const src =
    HEAD +
    `server.setRequestHandler(ListPromptsRequestSchema, async () => {
  return { prompts: [{ name: "diagnose", description: "Diagnose " + "pods.", arguments: [{ name: "keyword", required: true }, { name: "ns", description: "Namespace", required: false, default: "all" }] }] };
});
server.setRequestHandler(ListResourcesRequestSchema, async () => ({
  resources: [{ uri: "k8s://pods", name: "Pods", mimeType: "application/json", description: "The pods" }, { uri: "k8s://nodes", name: "Nodes" }],
}));
server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: [{ uriTemplate: "k8s://{ns}/pods", name: "Pods of a namespace" }] }));
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));
`;
  const out = json({ 'main.ts': src });
  assert.deepEqual(out.prompts, [
    {
      name: 'diagnose',
      description: 'Diagnose pods.',
      arguments: [
        { name: 'keyword', required: true },
        { name: 'ns', description: 'Namespace', required: false, default: 'all' },
      ],
    },
  ]);
  assert.deepEqual(out.resources, [
    { uri: 'k8s://pods', name: 'Pods', mimeType: 'application/json', description: 'The pods' },
    { uri: 'k8s://nodes', name: 'Nodes' },
  ]);
  assert.deepEqual(out.resourceTemplates, [{ uriTemplate: 'k8s://{ns}/pods', name: 'Pods of a namespace' }]);
  assert.deepEqual([...out.promptsUnresolved, ...out.resourcesUnresolved], []);
  const prompt = out.result.prompts![0];
  assert.equal(prompt.registration.kind, 'handler');
  assert.equal(out.textOf(prompt.name.span), '"diagnose"');
  assert.deepEqual(
    prompt.arguments?.map((a) => [a.name, a.required]),
    [
      ['keyword', true],
      ['ns', false],
    ],
  );
  assert.equal(out.result.tools.length, 0, 'prompts and resources are not tools');
});

test('low-level Server: a list behind logging wrappers, a const of another file, and a method of an object a factory returns', () => {
  const defs = `export const NOTES = { uri: "notes://all", name: "All notes", mimeType: "text/plain" };
export const getHandlers = (manager) => ({
  listResources: async () => ({ resources: [NOTES, { uri: "notes://recent", name: "Recent" }] }),
});\n`;
  const src =
    HEAD +
    `import { getHandlers } from "./defs.js";
const wrap = (handler, label) => async (...args) => { const result = await handler(...args); return result; };
class Manager {}
const handlers = getHandlers(new Manager());
server.setRequestHandler(ListResourcesRequestSchema, wrap(handlers.listResources, "ListResources"));
`;
  const out = json({ 'main.ts': src, 'defs.ts': defs });
  assert.deepEqual(out.resources, [
    { uri: 'notes://all', name: 'All notes', mimeType: 'text/plain' },
    { uri: 'notes://recent', name: 'Recent' },
  ]);
  assert.deepEqual(out.resourcesUnresolved, []);
});

test('low-level Server: entries spread from a run-time list are one row with index null (prompts: prompt null), the literal ones kept', () => {
  const src =
    HEAD +
    `const screenshots = new Map();
server.setRequestHandler(ListResourcesRequestSchema, async () => ({
  resources: [
    { uri: "console://logs", mimeType: "text/plain", name: "Browser console logs" },
    ...Array.from(screenshots.keys()).map((name) => ({ uri: \`screenshot://\${name}\`, name })),
  ],
}));
server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: loadPrompts() }));
`;
  const out = json({ 'main.ts': src });
  assert.deepEqual(out.resources, [{ uri: 'console://logs', mimeType: 'text/plain', name: 'Browser console logs' }]);
  assert.deepEqual(
    out.resourcesUnresolved.map((r) => [r.list, r.index, r.part]),
    [['resources', null, 'resources']],
  );
  assert.match(out.resourcesUnresolved[0].reason, /^resources spread from `Array\.from\(screenshots\.keys\(\)\)\.map\(\(name\.\.\.`, a list not static \(known at run time\): /);
  assert.deepEqual(out.prompts, [], 'a prompts list not read is no prompt of its own');
  assert.deepEqual(
    out.promptsUnresolved.map((r) => [r.prompt, r.part]),
    [[null, 'prompts']],
  );
  assert.match(out.promptsUnresolved[0].reason, /the prompts list is not static/);
});

test('low-level Server: a handler returning in two places, and an entry whose name is not static', () => {
  const src =
    HEAD +
    `server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => {
  if (process.env.FULL) return { resourceTemplates: [{ uriTemplate: "a://{x}", name: "a" }] };
  return { resourceTemplates: [] };
});
server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [{ name: process.env.PROMPT, description: "D" }] }));
`;
  const out = json({ 'main.ts': src });
  assert.deepEqual(out.resourceTemplates, []);
  assert.deepEqual(
    out.resourcesUnresolved.map((r) => [r.list, r.index, r.part]),
    [['resourceTemplates', null, 'resourceTemplates']],
  );
  assert.match(out.resourcesUnresolved[0].reason, /returns in 2 places/);
  assert.deepEqual(out.prompts, [{ description: 'D' }]);
  assert.deepEqual(
    out.promptsUnresolved.map((r) => [r.prompt, r.name, r.part]),
    [[0, null, 'name']],
  );
});

test("rules on a low-level Server's resources: no URI check (its own resources/read), a description asked for in the handler, none on a list not read", () => {
  const src =
    HEAD +
    `server.setRequestHandler(ListResourcesRequestSchema, async () => ({
  resources: [{ uri: "Notes://All Notes", name: "Notes" }, ...dynamicResources()],
}));
server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [{ name: "summarize" }, ...more()] }));
`;
  const findings = analyse('/virtual/lowlevel-surfaces.ts', src).findings;
  assert.deepEqual(
    findings.filter((f) => f.ruleId === 'resource-uri-unreadable'),
    [],
  );
  const resource = findings.filter((f) => f.ruleId === 'resource-description-missing');
  assert.equal(resource.length, 1);
  assert.match(resource[0].message, /Resource "Notes" has no description in resources\/list.*Add `description` to its entry in the resources\/list handler/);
  const prompt = findings.filter((f) => f.ruleId === 'prompt-description-missing');
  assert.equal(prompt.length, 1);
  assert.match(prompt[0].message, /Prompt "summarize" has no description.*its entry in the prompts\/list handler/);
});
