/**
 * Python prompts, resources and resource templates (analysis/python/surfaces.ts, contract/python/surfaces.ts): the
 * ported UriTemplate checks against the SDK's own answers, the spelling of FastMCP's schema note, and what the
 * front-end leaves unresolved or reports as a registration the SDK refuses. The live proof is the version matrix
 * (test/fidelity/python-matrix.test.ts) and test/fidelity/python.test.ts.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { analyzeSource } from '../../../server/src/analysis/analyze';
import { analyzeFile } from '../../../server/src/service';
import { createFileHost } from '../../../server/src/host';
import { pythonUriTemplateError, pythonUriTemplateVariables } from '../../../server/src/contract/python/uri-template';
import { pydanticSorted, pythonJsonDumps } from '../../../server/src/contract/python/surfaces';
import { SpanMapper } from '../../../server/src/lsp/spans';
import { surfaceSummaries, toolSummaries } from '../../../server/src/lsp/summaries';
import { buildPreview } from '../../../common/preview-model';
import { DEFAULT_SETTINGS } from '../../../common/settings';

// What `UriTemplate.parse()` of mcp 2.3.0 answers for each template (run on the SDK: `str(InvalidUriTemplate)`, or
// `variable_names` and `query_variable_names`).
const SDK_ANSWERS: Record<string, { error: string } | { names: string[]; query: string[] }> = {
  'users://{user_id}/profile': { names: ['user_id'], query: [] },
  'users://{id': { error: 'Unclosed expression at position 8' },
  'a://{}': { error: 'Empty expression at position 4' },
  'a://{+}': { error: 'Expression has operator but no variables at position 4' },
  'a://{x:3}': { error: "Prefix modifier {var:N} is not supported (in 'x:3' at position 4)" },
  'a://{x*}': { error: 'Explode modifier on {x*} is not supported for matching' },
  'a://{/x*}': { names: ['x'], query: [] },
  'a://{a}{b}': {
    error: "Variables 'a' and 'b' are adjacent with no literal separator; matching cannot determine where one ends and the other begins. Add a literal between them or use a single variable.",
  },
  'a://{+a}/{#b}': { error: 'Template contains more than one multi-segment variable ({+var}, {#var}, or explode modifier); matching would be ambiguous' },
  'a://{?a}{?b}': { error: 'Template contains more than one {?...} expression; use {?a,b} or {?a}{&b} for multiple query parameters' },
  'a://{x}{x}': { error: "Variable 'x' appears more than once; repeated variables are not supported" },
  'a://{x.}': { error: "Invalid variable name 'x.' at position 4" },
  'a://{q}{?limit,page}': { names: ['q', 'limit', 'page'], query: ['limit', 'page'] },
  'a://x?fixed=1{&page}': { names: ['page'], query: [] },
  'a://{a}/{b}{?c}{&d}': { names: ['a', 'b', 'c', 'd'], query: ['c', 'd'] },
  'files://{+path}': { names: ['path'], query: [] },
  'a://{-x}': { error: "Invalid variable name '-x' at position 4" },
};

test('the ported UriTemplate.parse refuses what mcp 2.x refuses, with its message, and finds the same variables', () => {
  for (const [template, answer] of Object.entries(SDK_ANSWERS)) {
    const error = pythonUriTemplateError(template);
    if ('error' in answer) assert.equal(error, answer.error, template);
    else {
      assert.equal(error, undefined, template);
      const v = pythonUriTemplateVariables(template);
      assert.deepEqual({ names: v.names, query: [...v.query].sort() }, answer, template);
    }
  }
});

test("FastMCP's schema note is spelled as Python's json.dumps of pydantic's sorted schema", () => {
  // TypeAdapter(Annotated[str, Field(description="Café «x»", min_length=2)]).json_schema(), dumped with separators=(",", ":").
  const schema = { type: 'string', minLength: 2, description: 'Café «x»' };
  assert.equal(pythonJsonDumps(pydanticSorted(schema)), '{"description":"Caf\\u00e9 \\u00abx\\u00bb","minLength":2,"type":"string"}');
  // Keys under `properties` keep their order; everything else is sorted.
  assert.equal(
    pythonJsonDumps(pydanticSorted({ type: 'object', properties: { b: { type: 'integer' }, a: { type: 'string' } } })),
    '{"properties":{"b":{"type":"integer"},"a":{"type":"string"}},"type":"object"}',
  );
});

function workspace(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-py-surfaces-'));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

test('a registration the SDK refuses takes the module down: every tool, prompt and resource of the file says why', () => {
  const dir = workspace({
    'requirements.txt': 'mcp==2.3.0\n',
    'server.py': [
      'from mcp.server import MCPServer',
      'mcp = MCPServer("s")',
      '@mcp.tool()',
      'def ping() -> str:',
      '    """Answers pong."""',
      '    return "pong"',
      '@mcp.resource("users://{user_id}")',
      'def user(user: str) -> str:',
      '    """One user."""',
      '    return user',
      '@mcp.prompt(tags={"a"})',
      'def review(code: str) -> str:',
      '    """Review code."""',
      '    return code',
      '',
    ].join('\n'),
  });
  const file = path.join(dir, 'server.py');
  const r = analyzeSource(file, fs.readFileSync(file, 'utf8'), createFileHost());
  const [template] = r.resources!;
  assert.equal(template.kind, 'template');
  assert.match(template.throws![0].message, /^ValueError: Mismatch between URI parameters \{'user_id'\} and function parameters \{'user'\}/);
  // mcp 2.x's prompt() has no tags= keyword: a TypeError at import too.
  assert.ok(r.prompts![0].unresolved.some((u) => u.part === 'contract' && /has no tags= keyword/.test(u.reason)));
  assert.ok(r.tools[0].unresolved.some((u) => u.part === 'contract' && /Mismatch between URI parameters/.test(u.reason)));
  const findings = analyzeFile(file, fs.readFileSync(file, 'utf8'), createFileHost(), DEFAULT_SETTINGS).findings.filter((f) => f.ruleId === 'resource-uri-template-invalid');
  assert.equal(findings.length, 1);
  assert.match(findings[0].message, /refuses this resource when the module is imported/);
});

test('what is not a literal is unresolved, never guessed: a computed name, an f-string docstring, icons=', () => {
  const dir = workspace({
    'server.py': [
      'from fastmcp import FastMCP',
      'mcp = FastMCP("s")',
      'PREFIX = make_prefix()',
      '@mcp.prompt(name=PREFIX + "_review")',
      'def review(code: str) -> str:',
      '    f"""Review {PREFIX} code."""',
      '    return code',
      '@mcp.resource("docs://readme", icons=[ICON])',
      'def readme() -> str:',
      '    return ""',
      '',
    ].join('\n'),
  });
  const file = path.join(dir, 'server.py');
  const a = analyzeFile(file, fs.readFileSync(file, 'utf8'), createFileHost(), DEFAULT_SETTINGS);
  const [prompt] = a.result.prompts!;
  assert.equal(prompt.contract.name, undefined, 'no made-up name');
  assert.deepEqual(prompt.unresolved.map((u) => u.part).sort(), ['description', 'name']);
  // The unreadable docstring may well be a description: no prompt-description-missing.
  assert.deepEqual(
    a.findings.filter((f) => f.ruleId === 'prompt-description-missing'),
    [],
  );
  const [resource] = a.result.resources!;
  assert.deepEqual(
    resource.unresolved.map((u) => u.part),
    ['icons'],
  );
  assert.equal(resource.contract.uri, 'docs://readme');
});

test('a FastMCP server mounted on another: its prompts and resources are listed through the parent, renamed, so each is unresolved', () => {
  const dir = workspace({
    'requirements.txt': 'fastmcp==3.4.11\n',
    'server.py': [
      'from fastmcp import FastMCP',
      'main = FastMCP("main")',
      'sub = FastMCP("sub")',
      '@sub.prompt()',
      'def review(code: str) -> str:',
      '    """Review code."""',
      '    return code',
      '@sub.resource("docs://readme")',
      'def readme() -> str:',
      '    """The readme."""',
      '    return ""',
      '@main.prompt()',
      'def plan(goal: str) -> str:',
      '    """Plan a goal."""',
      '    return goal',
      'main.mount(sub, namespace="sub")',
      '',
    ].join('\n'),
  });
  const file = path.join(dir, 'server.py');
  const r = analyzeSource(file, fs.readFileSync(file, 'utf8'), createFileHost());
  const byName = new Map(r.prompts!.map((p) => [p.name.value, p]));
  assert.deepEqual(byName.get('plan')!.unresolved, [], "the parent's own prompt is exact");
  assert.ok(byName.get('review')!.unresolved.some((u) => u.part === 'name' && /mounted on or imported into another FastMCP server/.test(u.reason)));
  assert.ok(r.resources![0].unresolved.some((u) => u.part === 'uri' && /renaming of prompts and resources is not modelled/.test(u.reason)));
});

test('the Preview Contract lists the Python prompts and resources of the tool’s server, with their arguments and unresolved parts', () => {
  const dir = workspace({
    'requirements.txt': 'fastmcp==4.2.3\n',
    'server.py': [
      'from fastmcp import FastMCP',
      'mcp = FastMCP("s")',
      'other = FastMCP("other")',
      '@mcp.tool',
      'def ping() -> str:',
      '    """Answers pong."""',
      '    return "pong"',
      '@mcp.prompt(title="Code review")',
      'def review(code: str, focus: int = 1) -> str:',
      '    """Review a snippet.',
      '',
      '    Args:',
      '        code: The code to review.',
      '    """',
      '    return code',
      '@other.prompt',
      'def elsewhere() -> str:',
      '    """Of the other server."""',
      '    return ""',
      '@mcp.resource("HTTP://Example.com/readme", mime_type="text/markdown")',
      'def readme() -> str:',
      '    """The README."""',
      '    return ""',
      '@mcp.resource("users://{user_id}", icons=[ICON])',
      'def user(user_id: str) -> str:',
      '    """One user."""',
      '    return user_id',
      '',
    ].join('\n'),
  });
  const file = path.join(dir, 'server.py');
  const text = fs.readFileSync(file, 'utf8');
  const analysis = analyzeFile(file, text, createFileHost(), DEFAULT_SETTINGS);
  const mapper = new SpanMapper((f) => (f === file ? text : undefined));
  const [tool] = toolSummaries(analysis, `file://${file}`, mapper);
  const surfaces = surfaceSummaries(analysis, `file://${file}`, mapper);
  const view = buildPreview({ tool, serverContracts: [tool.contract], findings: [], ...surfaces });
  assert.deepEqual(
    view.prompts?.map((p) => ({ name: p.name, title: p.title, description: p.description, arguments: p.arguments })),
    [
      {
        name: 'review',
        title: 'Code review',
        description: 'Review a snippet.',
        arguments: [
          { name: 'code', required: true, description: 'The code to review.' },
          { name: 'focus', required: false, description: 'Provide a value matching the following JSON schema: {"type":"integer"}. Encode non-string values as JSON.' },
        ],
      },
    ],
    "only the tool's server's prompts, as FastMCP 4.2.3 publishes them",
  );
  assert.deepEqual(
    view.resources?.map((r) => [r.kind, r.address, r.name, r.mimeType, r.description, r.unresolved.map((u) => u.part)]),
    [
      ['resource', 'http://example.com/readme', 'readme', 'text/markdown', 'The README.', []],
      ['template', 'users://{user_id}', 'user', 'text/plain', 'One user.', ['icons']],
    ],
  );
});
