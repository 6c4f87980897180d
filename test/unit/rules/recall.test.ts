/**
 * The recall rules of issue 14, on the code shapes of the published servers they were found on (excel-mcp-server
 * 0.1.5's get_excel_path helper, fetch tools, a mistyped context) and on the shapes that must stay silent (the helper
 * with a containment check, a URL checked with urlparse / new URL, `context: str`).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { analyse } from './harness';
import { applyEdits } from '../../../server/src/rules';
import type { Finding } from '../../../server/src/rules/types';

function findings(file: string, text: string, rule: string): Finding[] {
  return analyse(file, text).findings.filter((f) => f.ruleId === rule);
}

const EXCEL_HELPER = `import os
from mcp.server.fastmcp import FastMCP

EXCEL_FILES_PATH = None
mcp = FastMCP("excel-mcp")

def get_excel_path(filename: str) -> str:
    """Get full path to Excel file."""
    if os.path.isabs(filename):
        return filename
    if EXCEL_FILES_PATH is None:
        raise ValueError(f"Invalid filename: {filename}, must be an absolute path when not in SSE mode")
    return os.path.join(EXCEL_FILES_PATH, filename)

@mcp.tool()
def read_data_from_excel(filepath: str, sheet_name: str) -> str:
    """Read data from Excel worksheet."""
    try:
        full_path = get_excel_path(filepath)
        result = read_excel_range(full_path, sheet_name)
        return result
    except Exception as e:
        return f"Error: {str(e)}"
`;

test('path-traversal-via-helper: excel-mcp-server 0.1.5 get_excel_path is reported at the helper call', () => {
  const f = findings('/w/server.py', EXCEL_HELPER, 'path-traversal-via-helper');
  assert.equal(f.length, 1);
  assert.equal(EXCEL_HELPER.slice(f[0].span.start, f[0].span.end), 'get_excel_path(filepath)');
  assert.match(f[0].message, /`filepath`.*get_excel_path\(\)/);
});

test('path-traversal-via-helper: Path / name through a local is reported; a helper that resolves and checks is not', () => {
  const joined = EXCEL_HELPER.replace('    return os.path.join(EXCEL_FILES_PATH, filename)', '    target = Path(EXCEL_FILES_PATH) / filename\n    return str(target)').replace(
    'import os',
    'import os\nfrom pathlib import Path',
  );
  assert.equal(findings('/w/server.py', joined, 'path-traversal-via-helper').length, 1);
  const checked = EXCEL_HELPER.replace(
    '    return os.path.join(EXCEL_FILES_PATH, filename)',
    '    base = os.path.realpath(EXCEL_FILES_PATH)\n    candidate = os.path.realpath(os.path.join(base, filename))\n    if os.path.commonpath([base, candidate]) != base:\n        raise ValueError("outside")\n    return candidate',
  );
  assert.equal(findings('/w/server.py', checked, 'path-traversal-via-helper').length, 0);
  // A helper that joins nothing from its argument (a constant path) is no traversal.
  const constant = EXCEL_HELPER.replace('    return os.path.join(EXCEL_FILES_PATH, filename)', '    return os.path.join(EXCEL_FILES_PATH, "book.xlsx")');
  assert.equal(findings('/w/server.py', constant, 'path-traversal-via-helper').length, 0);
});

test('path-traversal-via-helper: a handler check after the helper call silences it; so does the direct rule on a file-system call', () => {
  const handlerChecked = EXCEL_HELPER.replace(
    '        full_path = get_excel_path(filepath)\n',
    '        full_path = os.path.realpath(get_excel_path(filepath))\n        if not full_path.startswith(os.path.realpath(EXCEL_FILES_PATH)):\n            raise ValueError("outside")\n',
  );
  assert.equal(findings('/w/server.py', handlerChecked, 'path-traversal-via-helper').length, 0);
  const opened = EXCEL_HELPER.replace('        result = read_excel_range(full_path, sheet_name)', '        result = open(full_path).read()');
  const a = analyse('/w/server.py', opened).findings;
  assert.equal(a.filter((f) => f.ruleId === 'path-traversal-via-helper').length, 0);
  assert.equal(a.filter((f) => f.ruleId === 'path-param-unchecked').length, 1);
});

test('url-param-unrestricted: urlopen of a url parameter (file: reads local files), httpx and fetch (any host)', () => {
  const py = `import urllib.request
import httpx
from mcp.server import MCPServer

mcp = MCPServer("web")

@mcp.tool()
def read_page(url: str) -> str:
    """Read a web page."""
    return urllib.request.urlopen(url).read().decode()

@mcp.tool()
async def fetch_json(url: str) -> str:
    """Fetch a JSON document."""
    async with httpx.AsyncClient() as client:
        r = await client.get(url)
    return r.text

@mcp.tool()
def search(query: str) -> str:
    """Search the web."""
    return httpx.get("https://api.example.com/search", params={"q": query}).text
`;
  const f = findings('/w/web.py', py, 'url-param-unrestricted');
  assert.deepEqual(
    f.map((x) => x.tool),
    ['read_page', 'fetch_json'],
  );
  assert.match(f[0].message, /file: URLs/);
  assert.match(f[1].message, /any URL is fetched/);
  const checked = py.replace(
    '    return urllib.request.urlopen(url)',
    '    if urlparse(url).scheme not in ("http", "https"):\n        raise ValueError("http only")\n    return urllib.request.urlopen(url)',
  );
  assert.deepEqual(
    findings('/w/web.py', checked, 'url-param-unrestricted').map((x) => x.tool),
    ['fetch_json'],
  );
  const ts = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import axios from "axios";
const KEY = process.env.TAVILY_API_KEY;
const server = new McpServer({ name: "web", version: "1.0.0" });
server.registerTool("fetch_page", { description: "Fetch a page.", inputSchema: { url: z.string().url() } }, async ({ url }) => {
  const res = await fetch(url);
  return { content: [{ type: "text", text: await res.text() }] };
});
server.registerTool("extract_pages", { description: "Extract pages through the API.", inputSchema: { urls: z.array(z.string()) } }, async ({ urls }) => {
  const res = await axios.post("https://api.tavily.com/extract", { urls, api_key: KEY });
  return { content: [{ type: "text", text: JSON.stringify(res.data) }] };
});
server.registerTool("fetch_checked", { description: "Fetch a page.", inputSchema: { url: z.string().url() } }, async ({ url }) => {
  const u = new URL(url);
  if (u.protocol !== "https:") throw new Error("https only");
  const res = await fetch(u);
  return { content: [{ type: "text", text: await res.text() }] };
});
`;
  assert.deepEqual(
    findings('/w/web.ts', ts, 'url-param-unrestricted').map((x) => x.tool),
    ['fetch_page'],
  );
});

test('context-param-mistyped: ctx: CallToolResult is published and reported, with a fix to Context; Context and context: str are not', () => {
  const src = `from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.types import CallToolResult

mcp = MCPServer("s")

@mcp.tool()
async def summarize(text: str, ctx: CallToolResult) -> str:
    """Summarize a text."""
    return text

@mcp.tool()
async def summarize_ok(text: str, ctx: Context) -> str:
    """Summarize a text."""
    return text

@mcp.tool()
def answer(question: str, context: str = "") -> str:
    """Answer a question with some context."""
    return question
`;
  const a = analyse('/w/s.py', src);
  const tool = a.result.tools.find((t) => t.name.value === 'summarize')!;
  assert.ok(JSON.stringify(tool.contract.inputSchema).includes('"ctx"'), 'the SDK publishes ctx as an input');
  const f = a.findings.filter((x) => x.ruleId === 'context-param-mistyped');
  assert.deepEqual(
    f.map((x) => x.tool),
    ['summarize'],
  );
  const fixed = applyEdits(src, f[0].fixes[0].edits);
  assert.match(fixed, /ctx: Context\)/);
  const again = analyse('/w/s.py', fixed);
  assert.ok(!JSON.stringify(again.result.tools.find((t) => t.name.value === 'summarize')!.contract.inputSchema).includes('"ctx"'), 'after the fix ctx is the context');
  assert.equal(again.findings.filter((x) => x.ruleId === 'context-param-mistyped').length, 0);
  // A file whose own class is called Context (the IAM server's `from .context import Context`): the SDK's is aliased,
  // so Context.is_readonly() keeps its meaning; mcp 2.x exports Context from mcp.server.mcpserver, not mcp.server.
  const own = src.replace('from mcp.server.mcpserver import Context\n', 'from .context import Context\n').replace(/@mcp\.tool\(\)\nasync def summarize_ok[\s\S]*?return text\n/, '');
  const h = findings('/w/s.py', own, 'context-param-mistyped');
  assert.equal(h.length, 1);
  const ownFixed = applyEdits(own, h[0].fixes[0].edits);
  assert.match(ownFixed, /^from mcp\.server\.mcpserver import Context as McpContext$/m);
  assert.match(ownFixed, /ctx: McpContext\)/);
  assert.match(ownFixed, /^from \.context import Context$/m);
  assert.equal(findings('/w/s.py', ownFixed, 'context-param-mistyped').length, 0);
  // An untyped ctx on FastMCP 1.x: the import comes from mcp.server.fastmcp.
  const v1 = `from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("s")\n\n@mcp.tool()\ndef ping(host: str, ctx) -> str:\n    """Ping a host."""\n    return host\n`;
  const g = findings('/w/v1.py', v1, 'context-param-mistyped');
  assert.equal(g.length, 1);
  assert.match(applyEdits(v1, g[0].fixes[0].edits), /from mcp\.server\.fastmcp import (FastMCP, )?Context[\s\S]*ctx: Context\)/);
});

test('param-range-not-in-schema: the stated bound is added exactly; a bounded or unstated number is silent', () => {
  const py = `from typing import Annotated
from pydantic import Field
from mcp.server import MCPServer

mcp = MCPServer("s")

@mcp.tool()
def wait_for(seconds: Annotated[int, Field(description="How long to wait, up to 3600 seconds")] = 60, retries: Annotated[int, Field(description="Retries, between 1 and 5", ge=1, le=5)] = 1, page: Annotated[int, Field(description="Page number")] = 1) -> str:
    """Wait for the job."""
    return "ok"
`;
  const f = findings('/w/s.py', py, 'param-range-not-in-schema');
  assert.equal(f.length, 1);
  assert.match(f[0].message, /"seconds".*at most 3600/);
  assert.equal(f[0].fixes[0].title, 'Add Field(le=3600)');
  const fixed = applyEdits(py, f[0].fixes[0].edits);
  const after = analyse('/w/s.py', fixed);
  const seconds = after.result.tools[0].parameters.find((p) => p.name === 'seconds')!;
  assert.equal((seconds.schema as { maximum?: number }).maximum, 3600);
  assert.equal(after.findings.filter((x) => x.ruleId === 'param-range-not-in-schema').length, 0);
  const ts = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "s", version: "1.0.0" });
server.registerTool("list_items", { description: "List items.", inputSchema: { limit: z.number().int().describe("Max results, between 1 and 100") } }, async ({ limit }) => ({ content: [{ type: "text", text: String(limit) }] }));
`;
  const g = findings('/w/s.ts', ts, 'param-range-not-in-schema');
  assert.equal(g.length, 1);
  assert.equal(g[0].fixes[0].title, 'Add .min(1).max(100)');
  const tsFixed = analyse('/w/s.ts', applyEdits(ts, g[0].fixes[0].edits));
  const limit = tsFixed.result.tools[0].parameters[0].schema as { minimum?: number; maximum?: number };
  assert.deepEqual([limit.minimum, limit.maximum], [1, 100]);
  assert.equal(tsFixed.findings.filter((x) => x.ruleId === 'param-range-not-in-schema').length, 0);
});

test('param-list-as-string: a comma-separated string is reported; CSV data and arrays are not', () => {
  const ts = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "s", version: "1.0.0" });
server.registerTool("get_issues", { description: "Get issues by id.", inputSchema: { ids: z.string().describe("Comma-separated list of issue ids"), csv: z.string().describe("CSV text (comma-separated values)"), tags: z.array(z.string()).describe("Tags, comma-separated in the UI") } }, async () => ({ content: [{ type: "text", text: "" }] }));
`;
  assert.deepEqual(
    findings('/w/s.ts', ts, 'param-list-as-string').map((f) => ts.slice(f.span.start, f.span.end)),
    ['ids'],
  );
});

test('destructive-tool-without-warning: a destructive tool whose description hides it; one that names the deletion, warns, or is read-only is silent', () => {
  const py = `from mcp.server import MCPServer

mcp = MCPServer("s")

@mcp.tool()
def delete_note(note_id: str) -> str:
    """Tidy up the notebook by one note."""
    return "ok"

@mcp.tool()
def delete_project(project_id: str) -> str:
    """Permanently delete a project and its tasks. This cannot be undone."""
    return "ok"

@mcp.tool(annotations={"destructiveHint": True})
def apply_template(board_id: str) -> str:
    """Apply the template to a board."""

@mcp.tool()
def delete_card(card_id: str) -> str:
    """Delete a card."""
    return "ok"

@mcp.tool(annotations={"readOnlyHint": True})
def remove_duplicates_preview(board_id: str) -> str:
    """Show which cards would be merged."""
    return "ok"
`;
  assert.deepEqual(
    findings('/w/s.py', py, 'destructive-tool-without-warning').map((f) => f.tool),
    ['delete_note', 'apply_template'],
  );
});

test('path-traversal-via-helper (TypeScript): a same-file helper returning path.join(ROOT, name); a helper that checks is silent', () => {
  const ts = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import * as path from "node:path";
import { readSheet } from "./sheets.js";
const ROOT = process.env.SHEETS_DIR ?? "./sheets";
function sheetPath(name: string): string {
  return path.join(ROOT, name);
}
const checkedPath = (name: string): string => {
  const target = path.resolve(ROOT, name);
  if (path.relative(ROOT, target).startsWith("..")) throw new Error("outside the sheets folder");
  return target;
};
const server = new McpServer({ name: "s", version: "1.0.0" });
server.registerTool("read_sheet", { description: "Read a sheet.", inputSchema: { name: z.string() } }, async ({ name }) => {
  const text = await readSheet(sheetPath(name));
  return { content: [{ type: "text", text }] };
});
server.registerTool("read_sheet_checked", { description: "Read a sheet.", inputSchema: { name: z.string() } }, async ({ name }) => {
  const text = await readSheet(checkedPath(name));
  return { content: [{ type: "text", text }] };
});
`;
  const f = findings('/w/s.ts', ts, 'path-traversal-via-helper');
  assert.deepEqual(
    f.map((x) => [x.tool, ts.slice(x.span.start, x.span.end)]),
    [['read_sheet', 'sheetPath(name)']],
  );
});

test('path-traversal-via-helper: only the arguments that become the joined path count, and an enum cannot carry "../" (mcp-server-code-runner 0.1.8)', () => {
  const src = (languageType: string) => `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import * as fs from "fs";
import * as path from "path";
import * as os from "os";
const server = new McpServer({ name: "Code Runner", version: "0.1.0" });
server.tool("run-code", "Run code snippet and return the result.", { code: z.string().describe("Code Snippet"), languageId: ${languageType}.describe("Language ID") }, async ({ code, languageId }) => {
  const filePath = await createTmpFile(code, languageId);
  return { content: [{ type: "text", text: filePath }] };
});
async function createTmpFile(content: string, languageId: string) {
  const tmpDir = os.tmpdir();
  const fileName = \`tmp.\${languageId}\`;
  const filePath = path.join(tmpDir, fileName);
  await fs.promises.writeFile(filePath, content);
  return filePath;
}
`;
  assert.deepEqual(findings('/w/s.ts', src('z.enum(["python", "javascript"])'), 'path-traversal-via-helper'), []);
  const f = findings('/w/s.ts', src('z.string()'), 'path-traversal-via-helper');
  assert.equal(f.length, 1);
  assert.match(f[0].message, /`languageId`/);
});
