/**
 * The official SDK's low-level `Server`, its prompts, resources and resource templates (analysis/python/
 * lowlevel-surfaces.ts): what `@server.list_prompts()` / `list_resources()` / `list_resource_templates()` (1.x) or
 * `on_list_*=` (2.x) handlers return, as `toolsmith contract --json` prints them. Checked live on the corpus
 * (mcp-server-sqlite 2025.4.25 on mcp 1.26.0); here the forms.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { analyzePython } from '../../../server/src/analysis/python';
import type { FileHost } from '../../../server/src/analysis/model';
import { promptsJson, resourcesJson } from '../../../server/src/cli/contract-json';

const SITE = 'venv/lib/python3.11/site-packages';

function workspace(files: Record<string, string>): FileHost {
  const all = new Map(Object.entries(files).map(([f, t]) => [`/ws/${f}`, t]));
  return {
    readFile: (f) => all.get(f),
    fileExists: (f) => all.has(f),
    listDir: (d) => [...new Set([...all.keys()].filter((f) => f.startsWith(`${d}/`)).map((f) => f.slice(d.length + 1).split('/')[0]))],
  };
}

/** `srv.py` of a package installed beside mcp `mcpVersion`, as `toolsmith contract --json` prints its lists. */
function contract(source: string, mcpVersion: string) {
  const entry = `${SITE}/pkg/srv.py`;
  const files = { [entry]: source, [`${SITE}/mcp-${mcpVersion}.dist-info/METADATA`]: `Name: mcp\nVersion: ${mcpVersion}\n` };
  const result = analyzePython(`/ws/${entry}`, source, workspace(files), { pythonVersion: [3, 11] });
  const textOf = () => source;
  return { result, ...promptsJson(result.prompts ?? [], textOf), ...resourcesJson(result.resources ?? [], textOf) };
}

const V1 = [
  'from mcp.server import Server',
  'import mcp.types as types',
  'from pydantic import AnyUrl',
  '',
  'DESCRIPTION = "Seed the database"',
  'TEMPLATES = [types.ResourceTemplate(uriTemplate="memo://{name}", name="A memo", mimeType="text/plain")]',
  '',
  'async def main():',
  '    server = Server("sqlite")',
  '',
  '    @server.list_prompts()',
  '    async def handle_list_prompts() -> list[types.Prompt]:',
  '        return [',
  '            types.Prompt(',
  '                name="mcp-demo",',
  '                description=DESCRIPTION,',
  '                arguments=[types.PromptArgument(name="topic", description="Topic", required=True), types.PromptArgument(name="depth")],',
  '            )',
  '        ]',
  '',
  '    @server.list_resources()',
  '    async def handle_list_resources() -> list[types.Resource]:',
  '        return [types.Resource(uri=AnyUrl("memo://insights"), name="Insights", description=None, mimeType="text/plain"), types.Resource(uri="HTTP://Example.com", name="Site")]',
  '',
  '    @server.list_resource_templates()',
  '    async def handle_list_templates() -> list[types.ResourceTemplate]:',
  '        return TEMPLATES',
  '',
].join('\n');

test('mcp 1.x low-level Server: Prompt, Resource and ResourceTemplate literals listed as pydantic dumps them (None dropped, AnyUrl normalized)', () => {
  const out = contract(V1, '1.26.0');
  assert.deepEqual(out.prompts, [
    {
      name: 'mcp-demo',
      description: 'Seed the database',
      arguments: [{ name: 'topic', description: 'Topic', required: true }, { name: 'depth' }],
    },
  ]);
  assert.deepEqual(out.resources, [
    { uri: 'memo://insights', name: 'Insights', mimeType: 'text/plain' },
    { uri: 'http://example.com/', name: 'Site' },
  ]);
  assert.deepEqual(out.resourceTemplates, [{ uriTemplate: 'memo://{name}', name: 'A memo', mimeType: 'text/plain' }]);
  assert.deepEqual([...out.promptsUnresolved, ...out.resourcesUnresolved], []);
  const prompt = out.result.prompts![0];
  assert.equal(prompt.registration.kind, 'handler');
  assert.deepEqual(
    prompt.arguments?.map((a) => [a.name, a.required]),
    [
      ['topic', true],
      ['depth', false],
    ],
  );
});

test('mcp 2.x low-level Server: on_list_* handlers, ListPromptsResult(prompts=[...]), snake_case keywords, URIs kept as written', () => {
  const src = [
    'from mcp.server.lowlevel import Server',
    'from mcp import types',
    '',
    'async def list_prompts(ctx, params):',
    '    return types.ListPromptsResult(prompts=[types.Prompt(name="p", title="P")])',
    '',
    'async def list_templates(ctx, params):',
    '    return types.ListResourceTemplatesResult(resource_templates=[types.ResourceTemplate(uri_template="a://{x}", name="a", mime_type="text/plain")])',
    '',
    'async def list_resources(ctx, params):',
    '    return types.ListResourcesResult(resources=[types.Resource(uri="HTTP://Example.com", name="site")])',
    '',
    'server = Server("x", on_list_prompts=list_prompts, on_list_resource_templates=list_templates, on_list_resources=list_resources)',
    '',
  ].join('\n');
  const out = contract(src, '2.3.0');
  assert.deepEqual(out.prompts, [{ name: 'p', title: 'P' }]);
  assert.deepEqual(out.resourceTemplates, [{ uriTemplate: 'a://{x}', name: 'a', mimeType: 'text/plain' }]);
  assert.deepEqual(out.resources, [{ uri: 'HTTP://Example.com', name: 'site' }]);
  assert.deepEqual([...out.promptsUnresolved, ...out.resourcesUnresolved], []);
});

test('a list built at run time is one row for the whole list; an entry not read, or a keyword not modelled, its own row', () => {
  const src = [
    'from mcp.server import Server',
    'import mcp.types as types',
    'server = Server("x")',
    '',
    '@server.list_prompts()',
    'async def handle_list_prompts() -> list[types.Prompt]:',
    '    return [types.Prompt(name=n) for n in names()]',
    '',
    '@server.list_resources()',
    'async def handle_list_resources() -> list[types.Resource]:',
    '    return [types.Resource(uri="a://b", name="b", tags=["x"]), make_resource(), *more_resources()]',
    '',
  ].join('\n');
  const out = contract(src, '1.26.0');
  assert.deepEqual(out.prompts, []);
  assert.deepEqual(
    out.promptsUnresolved.map((r) => [r.prompt, r.part]),
    [[null, 'prompts']],
  );
  assert.deepEqual(out.resources, [{ uri: 'a://b', name: 'b' }, {}]);
  assert.deepEqual(
    out.resourcesUnresolved.map((r) => [r.list, r.index, r.part, r.reason]),
    [
      ['resources', 0, 'resource', 'Resource(tags) is not modelled'],
      ['resources', 1, 'resource', "the resources/list handler's entry `make_resource()` is not a Resource(...) literal"],
      ['resources', null, 'resources', 'resources unpacked from `more_resources()`, a list built at run time'],
    ],
  );
});

test('a prompts list returned in two places, and a local list named like a module constant, are not read as the constant', () => {
  const src = [
    'from mcp.server import Server',
    'import mcp.types as types',
    'server = Server("x")',
    'PROMPTS = [types.Prompt(name="fixed")]',
    '',
    '@server.list_prompts()',
    'async def handle_list_prompts() -> list[types.Prompt]:',
    '    PROMPTS = load()',
    '    return PROMPTS',
    '',
    '@server.list_resources()',
    'async def handle_list_resources() -> list[types.Resource]:',
    '    if flag:',
    '        return []',
    '    return [types.Resource(uri="a://b", name="b")]',
    '',
  ].join('\n');
  const out = contract(src, '1.26.0');
  assert.deepEqual(out.prompts, []);
  assert.match(out.promptsUnresolved[0].reason, /`PROMPTS` is not a list literal/);
  assert.deepEqual(out.resources, []);
  assert.deepEqual(
    out.resourcesUnresolved.map((r) => [r.index, r.part]),
    [[null, 'resources']],
  );
  assert.match(out.resourcesUnresolved[0].reason, /returns in 2 places/);
});
