import type { FileFacts, ToolDefinition } from '../analysis/model';
import type { Edit, Rule, RuleContext } from './types';
import { finding } from './util/finding';
import { replace, spanText } from './util/source';
import { pinsMcp1 } from '../../../common/frameworks';

/** `from mcp.server.fastmcp import FastMCP` -> `from mcp.server import MCPServer` (and the submodules likewise). */
function rewriteV1Import(text: string): string {
  if (/^from\s+mcp\.server\.fastmcp\s+import\s+\(?\s*FastMCP\s*\)?\s*$/.test(text.trim())) return 'from mcp.server import MCPServer';
  return text.replace(/\bmcp\.server\.fastmcp\b/g, 'mcp.server.mcpserver').replace(/\bFastMCP\b/g, 'MCPServer');
}

export const mcpV1Import: Rule = {
  id: 'mcp-v1-import',
  defaultSeverity: 'error',
  languages: ['python'],
  summary: '`from mcp.server.fastmcp import FastMCP`: removed in mcp 2.x (renamed MCPServer).',
  // Once per file: the import is a fact of the file, whether or not a server or a tool was found in it.
  checkFile(f: FileFacts, tools: ToolDefinition[], ctx: RuleContext) {
    if (f.language !== 'python' || f.v1Imports.length === 0) return [];
    // A workspace that pins mcp 1.x runs this import fine.
    const version = tools.find((t) => t.file === f.file && t.frameworkVersion)?.frameworkVersion;
    if (version && pinsMcp1(version)) return [];
    const edits: Edit[] = [];
    for (const imp of f.v1Imports) {
      const text = spanText(ctx, imp.span) ?? imp.text;
      edits.push(replace(imp.span, rewriteV1Import(text)));
    }
    for (const s of f.servers) {
      const ctor = spanText(ctx, s.constructorSpan);
      if (s.constructorSpan && ctor !== undefined && /^FastMCP\b/.test(ctor)) {
        edits.push(replace({ file: s.constructorSpan.file, start: s.constructorSpan.start, end: s.constructorSpan.start + 'FastMCP'.length }, 'MCPServer'));
      }
    }
    // Safe only when every `FastMCP` of the file is one we rewrite.
    const full = ctx.textOf(f.file) ?? '';
    const rewritten = edits.reduce((n, e) => n + ((spanText(ctx, e.span) ?? '').match(/\bFastMCP\b/g)?.length ?? 0), 0);
    const safe = (full.match(/\bFastMCP\b/g)?.length ?? 0) === rewritten;
    return f.v1Imports.map((imp, i) =>
      finding(
        null,
        imp.span,
        '`mcp.server.fastmcp` does not exist in mcp 2.x: importing it raises ModuleNotFoundError, the server never starts and the model gets no tools. ' +
          'FastMCP was renamed MCPServer: `from mcp.server import MCPServer` and `mcp = MCPServer("name")` (or pin `mcp<2`).',
        i === 0 ? [{ title: 'Rewrite for mcp 2.x (MCPServer)', edits, safe }] : [],
      ),
    );
  },
};
