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

/**
 * The keywords `MCPServer.__init__` takes in mcp 2.3 (read with inspect.signature): mcp 1.x's FastMCP also took any
 * setting (**settings: host, port, env_vars...), which MCPServer rejects with a TypeError at start.
 */
const MCPSERVER_KEYWORDS = new Set([
  'name',
  'title',
  'description',
  'instructions',
  'website_url',
  'icons',
  'version',
  'auth_server_provider',
  'token_verifier',
  'tools',
  'resources',
  'extensions',
  'debug',
  'log_level',
  'warn_on_duplicate_resources',
  'warn_on_duplicate_tools',
  'warn_on_duplicate_prompts',
  'dependencies',
  'lifespan',
  'auth',
  'resource_security',
  'request_state_security',
  'cache_hints',
  'subscriptions',
  'middleware',
]);

/** Keyword names written in a constructor call (nested calls' keywords too: that only withholds more fixes). */
function keywordsOf(call: string): string[] {
  return [...call.matchAll(/[(,]\s*([A-Za-z_]\w*)\s*=(?!=)/g)].map((m) => m[1]);
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
    const rejected = new Set<string>();
    for (const imp of f.v1Imports) {
      const text = spanText(ctx, imp.span) ?? imp.text;
      edits.push(replace(imp.span, rewriteV1Import(text)));
    }
    for (const s of f.servers) {
      const ctor = spanText(ctx, s.constructorSpan);
      if (s.constructorSpan && ctor !== undefined && /^FastMCP\b/.test(ctor)) {
        for (const k of keywordsOf(ctor)) if (!MCPSERVER_KEYWORDS.has(k)) rejected.add(k);
        edits.push(replace({ file: s.constructorSpan.file, start: s.constructorSpan.start, end: s.constructorSpan.start + 'FastMCP'.length }, 'MCPServer'));
      }
    }
    // Safe only when every `FastMCP` of the file is one we rewrite.
    const full = ctx.textOf(f.file) ?? '';
    const rewritten = edits.reduce((n, e) => n + ((spanText(ctx, e.span) ?? '').match(/\bFastMCP\b/g)?.length ?? 0), 0);
    const safe = (full.match(/\bFastMCP\b/g)?.length ?? 0) === rewritten;
    // A rename alone would not start: MCPServer rejects the settings FastMCP took as keywords.
    const blocked = [...rejected].map((k) => `${k}=`).join(', ');
    return f.v1Imports.map((imp, i) =>
      finding(
        null,
        imp.span,
        '`mcp.server.fastmcp` does not exist in mcp 2.x: importing it raises ModuleNotFoundError, the server never starts and the model gets no tools. ' +
          'FastMCP was renamed MCPServer: `from mcp.server import MCPServer` and `mcp = MCPServer("name")` (or pin `mcp<2`).' +
          (blocked
            ? ` MCPServer takes no ${blocked} (FastMCP 1.x accepted any setting as a keyword): move ${rejected.size > 1 ? 'them' : 'it'} (transport settings go to run()) before renaming.`
            : ''),
        i === 0 && !blocked ? [{ title: 'Rewrite for mcp 2.x (MCPServer)', edits, safe }] : [],
      ),
    );
  },
};
