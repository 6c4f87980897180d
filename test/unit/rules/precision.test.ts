/**
 * Issue 14: the false-positive patterns of the labelled real-world set (test/corpus/labels.json), each as the
 * smallest source that shows it, next to the true positive the rule must keep — and the fixes that broke code.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { analyse, STRICT_SETTINGS } from './harness';
import { applyEdits } from '../../../server/src/rules';
import { DEFAULT_SETTINGS, normalizeSettings } from '../../../common/settings';
import { majorOf, pinsMcp1 } from '../../../common/frameworks';
import { isCountLike, statedBounds } from '../../../server/src/rules/util/param-names';
import { listedValues } from '../../../server/src/rules/param-enum-in-description';
import { placeholderReason } from '../../../server/src/rules/util/text-heuristics';

const ts = (body: string) =>
  `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nimport { z } from "zod";\nimport * as fs from "node:fs/promises";\nconst server = new McpServer({ name: "s", version: "1" });\n${body}\n`;
const ids = (file: string, text: string, settings = STRICT_SETTINGS) => analyse(file, text, settings).findings.map((f) => f.ruleId);

test('presets: recommended (the default) skips the strict-only rules; strict and a named rule run them', () => {
  const src = ts(
    `server.registerTool("list_notes", { description: "Lists every note of the user, newest first. Use when the user asks for their notes. Returns titles.", inputSchema: {}, annotations: { readOnlyHint: true } }, async () => ({ content: [{ type: "text", text: "[]" }] }));`,
  );
  assert.ok(ids('/tmp/p.ts', src, STRICT_SETTINGS).includes('response-unbounded'));
  assert.ok(!ids('/tmp/p.ts', src, DEFAULT_SETTINGS).includes('response-unbounded'));
  assert.ok(ids('/tmp/p.ts', src, normalizeSettings({ rules: { 'response-unbounded': 'warning' } })).includes('response-unbounded'));
  assert.equal(normalizeSettings({}).preset, 'recommended');
  assert.equal(normalizeSettings({ preset: 'strict' }).preset, 'strict');
  assert.equal(normalizeSettings({ preset: 'loud' }).preset, 'recommended');
});

test('annotation-incoherent: destructiveHint: false / idempotentHint next to readOnlyHint agree; destructiveHint: true contradicts', () => {
  const tool = (a: string) =>
    ts(
      `server.registerTool("get_note", { description: "Reads one note by its id. Use when the user names a note. Returns its text.", inputSchema: { id: z.string().describe("Note id") }, annotations: { ${a} } }, async ({ id }) => ({ content: [{ type: "text", text: id }] }));`,
    );
  assert.ok(!ids('/tmp/a.ts', tool('readOnlyHint: true, destructiveHint: false, idempotentHint: true')).includes('annotation-incoherent'));
  assert.ok(ids('/tmp/a.ts', tool('readOnlyHint: true, destructiveHint: true')).includes('annotation-incoherent'));
});

test('structured-content-without-text: a text block in a variable, content passed through, an image: no finding and no JSON copy', () => {
  const tool = (ret: string) =>
    ts(
      `server.registerTool("get_weather", { description: "Reads the weather of a city. Use when asked. Returns it.", inputSchema: { city: z.string().max(80).describe("City name") }, outputSchema: { t: z.number() } }, async ({ city }) => { const block = { type: "text", text: city }; const img = { type: "image", data: "AA==", mimeType: "image/png" }; ${ret} });`,
    );
  for (const ret of [
    'return { content: [block], structuredContent: { t: 1 } };',
    'return { content: [img], structuredContent: { t: 1 } };',
    'return { content: [{ type: "image", data: "AA==", mimeType: "image/png" }], structuredContent: { t: 1 } };',
  ])
    assert.ok(!ids('/tmp/s.ts', tool(ret)).includes('structured-content-without-text'), ret);
  assert.ok(ids('/tmp/s.ts', tool('return { content: [], structuredContent: { t: 1 } };')).includes('structured-content-without-text'));
});

test('path-param-unchecked: a path through validatePath() is checked; a raw one is not', () => {
  const tool = (body: string) =>
    ts(
      `declare function validatePath(p: string): Promise<string>;\nserver.registerTool("read_note_file", { description: "Reads a note file. Use when asked. Returns its text.", inputSchema: { path: z.string().describe("File path") } }, async (args) => { ${body} return { content: [{ type: "text", text: "ok" }] }; });`,
    );
  assert.ok(!ids('/tmp/f.ts', tool('const valid = await validatePath(args.path); await fs.readFile(valid, "utf8");')).includes('path-param-unchecked'));
  assert.ok(ids('/tmp/f.ts', tool('await fs.readFile(args.path, "utf8");')).includes('path-param-unchecked'));
});

test('mcp-v1-import: a workspace pinning mcp<2 (pyproject range) runs the import; one on mcp 2 gets the error', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-pin-'));
  try {
    const file = path.join(dir, 'server.py');
    const src =
      'from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("calc")\n\n\n@mcp.tool()\ndef add_numbers(x: int, y: int) -> int:\n    """Adds two integers. Use for arithmetic. Returns the sum."""\n    return x + y\n';
    fs.writeFileSync(file, src);
    fs.writeFileSync(path.join(dir, 'pyproject.toml'), '[project]\nname = "calc"\ndependencies = ["mcp>=1.4.1,<2"]\n');
    assert.ok(!ids(file, src).includes('mcp-v1-import'), 'pinned below 2: no finding, so no fix that breaks the import');
    fs.writeFileSync(path.join(dir, 'pyproject.toml'), '[project]\nname = "calc"\ndependencies = ["mcp>=2.0"]\n');
    assert.ok(ids(file, src).includes('mcp-v1-import'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  for (const v of ['1.29.0', '<2,>=1.4.1', '>=1.4,<2.0', '~=1.9', '<=1.30', '^1.2']) assert.ok(pinsMcp1(v), v);
  for (const v of ['2.0.0', '>=2', '<3', '>=1.4']) assert.ok(!pinsMcp1(v), v);
  assert.equal(majorOf('<2,>=1.4.1'), 1);
  assert.equal(majorOf('<2'), 1);
  assert.equal(majorOf('>=2.3'), 2);
});

test('param-unbounded-number: dimensions are not counts; a fix never contradicts the range the description states', () => {
  assert.ok(!isCountLike('font_size'));
  assert.ok(!isCountLike('top', ['top', 'bottom', 'left', 'right']));
  assert.ok(isCountLike('top'));
  assert.ok(isCountLike('page_size'));
  assert.deepEqual(statedBounds('Timeout in seconds, up to 3600.'), { max: 3600 });
  assert.deepEqual(statedBounds('Maximum number of results, between 1 and 20 (default: 10).'), { min: 1, max: 20 });
  const file = '/tmp/wait.py';
  const src = `from mcp.server import MCPServer\nfrom pydantic import Field\nfrom typing import Annotated\n\nmcp = MCPServer("w")\n\n@mcp.tool()\ndef list_jobs(max_results: Annotated[int, Field(description="How many jobs to return, up to 3600.")] = 60) -> list[str]:\n    """Lists the recent jobs. Use when the user asks about jobs. Returns their ids."""\n    return []\n`;
  const found = analyse(file, src).findings.find((f) => f.ruleId === 'param-unbounded-number');
  assert.ok(found, 'the finding stays');
  const fixed = applyEdits(src, found.fixes[0]?.edits ?? []);
  assert.match(fixed, /le=3600/, 'the documented maximum, not le=100');
});

test('param-enum-in-description: "(e.g., 000000)" is an example, not the allowed values', () => {
  assert.equal(listedValues('Text color as hex (e.g., 000000)'), undefined);
  assert.equal(listedValues("Handle (e.g., 'user.bsky.social')"), undefined);
  assert.deepEqual(listedValues('Sort order: asc or desc.'), ['asc', 'desc']);
});

test('description-placeholder: <revision> in a worked example is syntax; <what it does> is a template slot', () => {
  assert.equal(placeholderReason('Shows the contents of a commit, or of a file given as <revision>:<path>', 'git_show'), undefined);
  assert.equal(placeholderReason('Expand a shortened ref://<id> link token back into the full URL.', 'expand_link'), undefined);
  assert.ok(placeholderReason('<what it does>. Use when <situation>.', 'x'));
});

test('tool-name-not-verb-object: one-word verbs and verbs the list missed are verb names; a noun is not', () => {
  const named = (n: string) =>
    ts(
      `server.registerTool("${n}", { description: "Echoes the given message back unchanged. Use to test the connection. Returns the message.", inputSchema: { message: z.string().max(200).describe("Message") }, annotations: { readOnlyHint: true } }, async ({ message }) => ({ content: [{ type: "text", text: message }] }));`,
    );
  for (const n of ['echo', 'fetch', 'toggle_logging', 'replace_block', 'auto_fit_columns']) assert.ok(!ids('/tmp/n.ts', named(n)).includes('tool-name-not-verb-object'), n);
  assert.ok(ids('/tmp/n.ts', named('weather_report')).includes('tool-name-not-verb-object'));
});

test('annotation-contradicts-name: setting readOnlyHint: false also says destructiveHint, and is not a fix-all fix; "trigger" alone is no write', () => {
  const src = ts(
    `server.registerTool("update_profile", { description: "Updates the display name. Use when asked. Returns the new name.", inputSchema: { name: z.string().max(80).describe("New name") }, annotations: { readOnlyHint: true } }, async ({ name }) => ({ content: [{ type: "text", text: name }] }));`,
  );
  const f = analyse('/tmp/c.ts', src).findings.find((x) => x.ruleId === 'annotation-contradicts-name');
  assert.ok(f);
  const fix = f.fixes[0];
  assert.equal(fix.safe, false);
  assert.match(applyEdits(src, fix.edits), /annotations: \{ readOnlyHint: false, destructiveHint: false \}/);
  const trigger = ts(
    `server.registerTool("trigger-long-running-operation", { description: "Sleeps and reports progress. Use to test progress. Returns when done.", inputSchema: { steps: z.number().int().min(1).max(10).describe("Steps") }, annotations: { readOnlyHint: true } }, async () => { await new Promise((r) => setTimeout(r, 10)); return { content: [{ type: "text", text: "done" }] }; });`,
  );
  assert.ok(!ids('/tmp/t.ts', trigger).includes('annotation-contradicts-name'));
});

test('risky-tool-without-dry-run: no one-click fix (a dry_run parameter the handler ignores still deletes)', () => {
  const src = ts(
    `server.registerTool("delete_all_notes", { description: "Deletes every note the filter matches. Use only when the user asks. Returns the count.", inputSchema: { filter: z.string() }, annotations: { readOnlyHint: false, destructiveHint: true } }, async () => ({ content: [{ type: "text", text: "0" }] }));`,
  );
  const f = analyse('/tmp/r.ts', src).findings.find((x) => x.ruleId === 'risky-tool-without-dry-run');
  assert.ok(f, 'still reported (strict)');
  assert.deepEqual(f.fixes, []);
});

test('risky-tool-without-dry-run: a boolean gate off by default (confirmed=False) is the preview; a required or true one is not', () => {
  const server = (gate: string) =>
    `from mcp.server import MCPServer\n\nmcp = MCPServer("db")\n\n\n@mcp.tool()\ndef delete_rows(table: str, where: str${gate}) -> str:\n    """Delete the rows of a table matching a filter."""\n    return ""\n`;
  const risky = (gate: string) => ids('/tmp/gate.py', server(gate)).includes('risky-tool-without-dry-run');
  assert.equal(risky(''), true);
  assert.equal(risky(', confirmed: bool = False'), false);
  assert.equal(risky(', dry_run: bool = True'), false);
  assert.equal(risky(', confirmed: bool = True'), true);
  assert.equal(risky(', confirmed: bool'), true);
  assert.equal(risky(', confirmed: str = "no"'), true);
});

test('description-missing: a tool the analysis cannot read is unresolved, not missing a description', () => {
  const src = `from mcp.server.lowlevel import Server\nimport mcp.types as types\n\napp = Server("x")\n\n@app.list_tools()\nasync def list_tools() -> list[types.Tool]:\n    return [handler.get_tool_description()]\n`;
  assert.ok(!ids('/tmp/lowlevel.py', src).includes('description-missing'));
});

const pyServer = (body: string) => `from mcp.server import MCPServer\nfrom mcp.types import ToolAnnotations\n\nmcp = MCPServer("s")\n\n${body}\n`;
const pyTool = (name: string, doc: string, extra = '', params = '') => `@mcp.tool(${extra})\ndef ${name}(${params}) -> str:\n    """${doc}"""\n    return "ok"\n\n`;
const findingsOf = (file: string, src: string, rule: string, settings = STRICT_SETTINGS) =>
  analyse(file, src, settings)
    .findings.filter((f) => f.ruleId === rule)
    .map((f) => f.tool);

test('description-no-usage-guidance: only where a sibling names the same action on the same object', () => {
  const src = pyServer(
    pyTool('add_footnote_to_document', 'Add a footnote to a paragraph.') +
      pyTool('add_footnote_robust', 'Add a footnote with validation.') +
      pyTool('add_heading', 'Add a heading to the document.') +
      pyTool('insert_header_near_text', 'Insert a header near a paragraph.') +
      pyTool('get_pull_request', 'Get details of a pull request.') +
      pyTool('get_pull_request_files', 'Get the files a pull request changes.') +
      pyTool('delete_user', 'Delete an IAM user.') +
      pyTool('remove_user_from_group', 'Remove a user from a group.') +
      pyTool('create_user', 'Create an IAM user.') +
      pyTool('add_user_to_group', 'Add a user to a group.') +
      pyTool('merge_cells', 'Merge cells of a table.') +
      pyTool('merge_cells_vertical', 'Merge cells in one column, unlike merge_cells.'),
  );
  assert.deepEqual(
    findingsOf('/tmp/ug.py', src, 'description-no-usage-guidance').sort(),
    ['add_footnote_robust', 'add_footnote_to_document', 'add_heading', 'insert_header_near_text', 'merge_cells'].sort(),
  );
  // git_ is the server's prefix, not the action: git_diff (no object) and git_diff_staged differ.
  const prefixed = pyServer(pyTool('git_diff', 'Shows changes.') + pyTool('git_diff_staged', 'Shows staged changes.') + pyTool('git_log', 'Shows the commit log.'));
  assert.deepEqual(findingsOf('/tmp/ug2.py', prefixed, 'description-no-usage-guidance'), []);
});

test('description-no-usage-guidance: siblings alike by description (a condition added) or by target (same update/run, same parameters)', () => {
  // wikipedia-mcp 2.0.1: the general summary and two conditioned ones; github's reviews / review comments, IAM's
  // delete_user / delete_access_key and office-word's outline / raw XML insert words into the object: other objects.
  const src = pyServer(
    pyTool('get_summary', 'Get a summary of a Wikipedia article.', '', 'title: str') +
      pyTool('summarize_article_section', 'Get a summary of a specific section of a Wikipedia article.', '', 'title: str, section_title: str') +
      pyTool('summarize_article_for_query', 'Get a summary of a Wikipedia article tailored to a specific query.', '', 'title: str, query: str') +
      pyTool('get_pull_request_reviews', 'Get the reviews on a pull request.', '', 'number: int') +
      pyTool('get_pull_request_comments', 'Get the review comments on a pull request.', '', 'number: int') +
      pyTool('delete_user', 'Delete an IAM user.', '', 'user_name: str') +
      pyTool('delete_access_key', 'Delete an access key for an IAM user.', '', 'user_name: str') +
      pyTool('create_entities', 'Create multiple new entities in the knowledge graph.', '', 'entities: list[str]') +
      pyTool('create_relations', 'Create multiple new relations between entities in the knowledge graph.', '', 'relations: list[str]') +
      // mcp-clickhouse 0.7.0: two ways to run one SQL text; 1password-mcp 4.0.2: two updates of one item.
      pyTool('run_query', 'Run a SELECT query on the ClickHouse server.', '', 'query: str') +
      pyTool('run_chdb_select_query', 'Run SQL in chDB, an in-process ClickHouse engine.', '', 'query: str') +
      pyTool('item_edit', 'Edit an existing 1Password item: title, notes, tags, fields.', '', 'vault_id: str, item_id: str') +
      pyTool('password_update', 'Update (rotate) a password or concealed field on an existing 1Password item.', '', 'vault_id: str, item_id: str, new_password: str') +
      pyTool('item_delete', 'Delete an item.', '', 'vault_id: str, item_id: str') +
      pyTool('item_archive', 'Archive an item.', '', 'vault_id: str, item_id: str') +
      // the same function under two names (wikipedia_get_links next to get_links): nothing to choose
      pyTool('get_links', 'Get the links contained within a Wikipedia article.', '', 'title: str') +
      pyTool('wikipedia_get_links', 'Get the links contained within a Wikipedia article.', '', 'title: str'),
  );
  assert.deepEqual(findingsOf('/tmp/ug3.py', src, 'description-no-usage-guidance').sort(), [
    'get_summary',
    'item_edit',
    'password_update',
    'run_chdb_select_query',
    'run_query',
    'summarize_article_for_query',
    'summarize_article_section',
  ]);
  // Updates of different targets (an item, a vault) are not twins; reads of one record are facets, not twins.
  const facets = pyServer(
    pyTool('item_update', 'Update an item.', '', 'item_id: str') +
      pyTool('vault_update', 'Update a vault.', '', 'vault_id: str') +
      pyTool('get_sections', 'Get the sections of a Wikipedia article.', '', 'title: str') +
      pyTool('get_coordinates', 'Get the coordinates of a Wikipedia article.', '', 'title: str'),
  );
  assert.deepEqual(findingsOf('/tmp/ug4.py', facets, 'description-no-usage-guidance'), []);
});

test('description-no-usage-guidance: one item or a batch of them (mcp-atlassian 0.23.1) is said in the name and description', () => {
  const src = pyServer(
    pyTool('jira_create_issue', 'Create a new Jira issue with optional Epic link.', '', 'project: str, summary: str') +
      pyTool('jira_batch_create_issues', 'Create multiple Jira issues in a batch.', '', 'issues: list[str]') +
      pyTool('jira_get_issue', 'Get one Jira issue.', '', 'key: str') +
      // "batch" in the name only, the description silent on how many: still twins to choose between
      pyTool('jira_batch_get_issue', 'Get a Jira issue through the v3 endpoint.', '', 'key: str'),
  );
  assert.deepEqual(findingsOf('/tmp/ug5.py', src, 'description-no-usage-guidance').sort(), ['jira_batch_get_issue', 'jira_get_issue']);
});

test('description-no-return-info: read tools only (a write returns a status line), behind a server prefix too', () => {
  const ro = 'annotations=ToolAnnotations(readOnlyHint=True)';
  const src = pyServer(
    pyTool('slack_get_channel_history', 'Get recent messages from a channel.') +
      pyTool('slack_post_message', 'Post a message to a channel.') +
      pyTool('slack_format_text', 'Format a text range.') +
      pyTool('slack_log', 'Shows the commit logs.', ro) +
      pyTool('slack_branch', 'Lists the branches.', ro) +
      pyTool('slack_trigger_operation', 'Demonstrates a long running operation.', ro) +
      pyTool('slack_search_and_replace', 'Search for text and replace it.') +
      pyTool('slack_get_users', 'Get users of the workspace.', 'annotations=ToolAnnotations(readOnlyHint=False)'),
  );
  assert.deepEqual(findingsOf('/tmp/ri.py', src, 'description-no-return-info').sort(), ['slack_branch', 'slack_get_channel_history', 'slack_log']);
});

test('opt-in rules: description-too-short and param-unbounded-string run only when toolsmith.rules names them', () => {
  const src = pyServer(pyTool('search_notes', 'Looks notes up.', '', 'query: str'));
  for (const settings of [DEFAULT_SETTINGS, normalizeSettings({ preset: 'strict' })]) {
    assert.deepEqual(findingsOf('/tmp/o.py', src, 'param-unbounded-string', settings), [], settings.preset);
    assert.deepEqual(findingsOf('/tmp/o.py', src, 'description-too-short', settings), [], settings.preset);
  }
  const named = normalizeSettings({ rules: { 'param-unbounded-string': 'info', 'description-too-short': 'warning' } });
  assert.deepEqual(findingsOf('/tmp/o.py', src, 'param-unbounded-string', named), ['search_notes']);
  assert.equal(analyse('/tmp/o.py', src, named).findings.find((f) => f.ruleId === 'description-too-short')?.severity, 'warning');
});

test("error-leaks-internals: not the text of the project's own exceptions nor the error of the model's own query", () => {
  const handler = (name: string, params: string, clause: string, ret: string) =>
    `@mcp.tool()\ndef ${name}(${params}) -> str:\n    """Does it. Use when asked. Returns a status."""\n    try:\n        return run(${params.split(':')[0]})\n    ${clause}:\n        ${ret}\n\n`;
  const src =
    'from mcp.server.fastmcp import FastMCP\nfrom sheetkit.errors import SheetError\nfrom .errors import FormulaError\n\nmcp = FastMCP("s")\n\nclass WorkbookError(Exception):\n    pass\n\n' +
    handler('rename_sheet', 'name: str', 'except (SheetError, WorkbookError) as e', 'return f"Error: {str(e)}"') +
    handler('apply_formula', 'formula: str', 'except FormulaError as e', 'return f"Error: {e}"') +
    handler('open_sheet', 'name: str', 'except (SheetError, OSError) as e', 'return f"Error: {str(e)}"') +
    handler('fetch_sheet', 'url: str', 'except Exception as e', 'return f"Error: {str(e)}"') +
    handler('execute_query', 'query: str', 'except Exception as e', 'return f"Error: {str(e)}"') +
    handler('search_sheets', 'query: str', 'except Exception as e', 'return f"Error: {str(e)}"') +
    handler('run_report', 'query: str', 'except Exception as e', 'import traceback; return traceback.format_exc()') +
    // mcp-clickhouse 0.7.0: the catch-all after the query's own errors, which its author calls unexpected, carries
    // the connection's errors (host, credentials), not the feedback on the SQL; one catching the driver's error class
    // or saying nothing more than "Error" stays the query's feedback.
    handler('run_select_query', 'query: str', 'except Exception as e', 'raise RuntimeError(f"Unexpected error during query execution: {str(e)}")') +
    handler('run_chdb_query', 'query: str', 'except Exception as e', 'return {"status": "error", "message": f"Unexpected error: {e}"}') +
    handler('execute_sql', 'query: str', 'except ValueError as e', 'return f"Unexpected error: {e}"');
  // The file sits in the sheetkit package: sheetkit.errors is its own module.
  assert.deepEqual(findingsOf('/tmp/sheetkit/server.py', src, 'error-leaks-internals').sort(), ['fetch_sheet', 'open_sheet', 'run_chdb_query', 'run_report', 'run_select_query', 'search_sheets']);
  // Outside that package, sheetkit.errors is a library: its messages are not the author's.
  assert.ok(findingsOf('/tmp/other/server.py', src, 'error-leaks-internals').includes('rename_sheet'));
});

test('param-range-not-in-schema: a bare range in parentheses is a stated range', () => {
  assert.deepEqual(statedBounds('Maximum session duration in seconds (3600-43200)'), { min: 3600, max: 43200 });
  assert.deepEqual(statedBounds('Heading level (1-9)'), { min: 1, max: 9 });
  assert.deepEqual(statedBounds('Number of results (1-20, default 10)'), { min: 1, max: 20 });
  assert.deepEqual(statedBounds('Date of the report (e.g. 2024-01-31)'), {});
});

test('strict info kills of the last round: each pattern of the labelled set stays silent, its true positive stays', () => {
  // param-name-ambiguous: a described `a` / `q` (get-sum, github search_code) is not ambiguous; an undescribed `data` is.
  const sum = pyServer(
    pyTool('get_sum', 'Adds two numbers. Use for arithmetic. Returns the sum.', '', 'a: Annotated[float, Field(description="First number")], b: Annotated[float, Field(description="Second number")]') +
      pyTool('add_table', 'Adds a table. Use when asked. Returns a status.', '', 'filename: Annotated[str, Field(description="Document file")], data: list[list[str]]'),
  ).replace('from mcp.types', 'from typing import Annotated\nfrom pydantic import Field\nfrom mcp.types');
  assert.deepEqual(findingsOf('/tmp/k1.py', sum, 'param-name-ambiguous'), ['add_table']);
  // tool-name-not-verb-object: a server naming every tool object first (1password-mcp, one tool per file), and a
  // namespaced noun whose description reads (maps_elevation, git_status); a noun name that reads nothing stays.
  assert.deepEqual(findingsOf('/tmp/k2.py', pyServer(pyTool('item_delete', 'Delete an item.')), 'tool-name-not-verb-object'), []);
  const maps = pyServer(pyTool('maps_elevation', 'Get the elevation of locations.') + pyTool('maps_geocode', 'Geocode an address.') + pyTool('maps_directory_tree', 'A tree of the folders.'));
  assert.deepEqual(findingsOf('/tmp/k3.py', maps, 'tool-name-not-verb-object'), ['maps_directory_tree']);
  // response-unbounded: a write whose name says list/search returns a status; reading the files the caller lists is bounded by that list.
  const lists = pyServer(
    pyTool('insert_numbered_list_near_text', 'Insert a numbered list.', '', 'filename: str') +
      pyTool('search_and_replace', 'Search and replace text.', '', 'filename: str') +
      pyTool('read_multiple_files', 'Read several files.', '', 'paths: list[str]') +
      pyTool('list_directory', 'List a directory.', '', 'path: str'),
  );
  assert.deepEqual(findingsOf('/tmp/k4.py', lists, 'response-unbounded'), ['list_directory']);
  // error-message-not-actionable: `{"title": title, "error": summary}` quotes no message (the error is a variable).
  const err = pyServer(
    '@mcp.tool()\ndef get_summary(title: str) -> dict:\n    """Gets a summary. Use when asked. Returns it."""\n    summary = fetch(title)\n    return {"title": title, "summary": None, "error": summary}\n\n' +
      '@mcp.tool()\ndef get_page(title: str) -> dict:\n    """Gets a page. Use when asked. Returns it."""\n    return {"error": "Invalid"}\n',
  );
  assert.deepEqual(findingsOf('/tmp/k5.py', err, 'error-message-not-actionable'), ['get_page']);
  // param-format-hint-missing: a message about a URL, a field name whose example is a date group.
  const fmt = pyServer(
    pyTool(
      'add_slicer',
      'Adds a slicer. Use when asked. Returns a status.',
      '',
      `field: Annotated[str, Field(description="Column header or field, e.g. 'Months (Date)' for a date group.")], message: Annotated[str, Field(description="Message shown before opening the URL")], since: Annotated[str, Field(description="Start date (YYYY-MM-DD)")]`,
    ),
  ).replace('from mcp.types', 'from typing import Annotated\nfrom pydantic import Field\nfrom mcp.types');
  assert.deepEqual(
    analyse('/tmp/k6.py', fmt, STRICT_SETTINGS)
      .findings.filter((f) => f.ruleId === 'param-format-hint-missing')
      .map((f) => /"(\w+)"/.exec(f.message)?.[1]),
    ['since'],
  );
  // risky-tool-without-dry-run: find_cells(query) lists what replace_cells(query) would change.
  const cells = (withPreview: boolean) =>
    pyServer(
      (withPreview ? pyTool('find_cells', 'Find cells. Use when asked. Returns them.', 'annotations=ToolAnnotations(readOnlyHint=True)', 'query: str') : '') +
        pyTool('replace_cells', 'Replace cells. Use when asked. Returns a count.', 'annotations=ToolAnnotations(destructiveHint=True)', 'query: str, replacement: str'),
    );
  assert.deepEqual(findingsOf('/tmp/k7.py', cells(true), 'risky-tool-without-dry-run'), []);
  assert.deepEqual(findingsOf('/tmp/k8.py', cells(false), 'risky-tool-without-dry-run'), ['replace_cells']);
});

test('description-no-return-info: an outputSchema naming fields (output_schema= of a response model) says what comes back', () => {
  const src = `from fastmcp import FastMCP\n\nserver = FastMCP("w")\nSCHEMA = {"type": "object", "properties": {"title": {"type": "string"}, "summary": {"type": "string"}}}\n\n@server.tool(output_schema=SCHEMA)\ndef get_summary(title: str):\n    """Get a summary of a Wikipedia article."""\n    return {"title": title, "summary": ""}\n\n@server.tool()\ndef get_links(title: str):\n    """Get the links of a Wikipedia article."""\n    return {"title": title}\n`;
  assert.deepEqual(findingsOf('/tmp/k9.py', src, 'description-no-return-info'), ['get_links']);
});

test('tool-name-duplicate: one name registered in each arm of an if/else (elif, ?:) is one tool at run time, not a duplicate; in one arm, or guarded next to an unguarded one, it still is', () => {
  const dupes = (file: string, text: string) =>
    analyse(file, text)
      .findings.filter((f) => f.ruleId === 'tool-name-duplicate')
      .map((f) => text.slice(0, f.span.start).split('\n').length);
  const ts = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
const server = new McpServer({ name: "d", version: "1" });
if (process.env.FAST) {
  server.registerTool("search", { description: "Search the index quickly by keyword." }, async () => ({ content: [] }));
} else if (process.env.FULL) {
  server.registerTool("search", { description: "Search the full index by keyword." }, async () => ({ content: [] }));
} else {
  server.registerTool("search", { description: "Search the cached index by keyword." }, async () => ({ content: [] }));
}
process.env.RO ? server.registerTool("read", { description: "Read one record by id." }, async () => ({ content: [] })) : server.registerTool("read", { description: "Read or lock one record by id." }, async () => ({ content: [] }));
if (process.env.X) {
  server.registerTool("twice", { description: "Registered twice in one arm." }, async () => ({ content: [] }));
  server.registerTool("twice", { description: "Registered twice in one arm." }, async () => ({ content: [] }));
}
server.registerTool("mixed", { description: "Always registered." }, async () => ({ content: [] }));
if (process.env.Y) server.registerTool("mixed", { description: "And again when Y is set." }, async () => ({ content: [] }));
`;
  assert.deepEqual(dupes('/virtual/dup/server.ts', ts), [13, 16], 'only the same-arm and the guarded-next-to-unguarded registrations');
  const py = `import os
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("d")
if os.getenv("FAST"):
    @mcp.tool(name="search")
    def search_fast(q: str) -> str:
        """Search the index quickly by keyword."""
        return q
elif os.getenv("FULL"):
    @mcp.tool(name="search")
    def search_full(q: str) -> str:
        """Search the full index by keyword."""
        return q
else:
    @mcp.tool(name="search")
    def search_cached(q: str) -> str:
        """Search the cached index by keyword."""
        return q
    @mcp.tool(name="search")
    def search_again(q: str) -> str:
        """Search the cached index again by keyword."""
        return q
`;
  assert.deepEqual(dupes('/virtual/dup/server.py', py), [19], 'only the second registration of the else arm');
});

test('annotation-contradicts-name: readOnlyHint: true on a "generate" tool stands unless the handler writes (antv chart renders and returns a URL; mermaid writes a PNG)', () => {
  const contradicts = (body: string) =>
    analyse(
      '/virtual/gen/server.ts',
      `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as fs from "node:fs";
const server = new McpServer({ name: "g", version: "1" });
server.registerTool("generate_pie_chart", { description: "Render a pie chart and return its URL.", annotations: { readOnlyHint: true } }, async () => { ${body} });
`,
    ).findings.filter((f) => f.ruleId === 'annotation-contradicts-name').length;
  assert.equal(contradicts('const url = await render(); return { content: [{ type: "text", text: url }] };'), 0, 'a computation the author declared read-only');
  assert.equal(contradicts('fs.writeFileSync("chart.png", await render()); return { content: [] };'), 1, 'a handler writing a file still contradicts the hint');
});
