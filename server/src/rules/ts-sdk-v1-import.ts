/**
 * `@modelcontextprotocol/sdk` (the TypeScript SDK 1.x) -> the v2 packages, after the official guide
 * (typescript-sdk docs/migration/upgrade-to-v2.md) and the codemod's import map (packages/codemod/.../importMap.ts).
 * The fixes do only what is one fixed mapping: a module that moved whole, a symbol renamed (kept under its old
 * local name with `as`), the v2 dependency added to package.json. What needs a decision is named, never guessed.
 */
import * as path from 'node:path';
import type { FileFacts, Span, ToolDefinition } from '../analysis/model';
import type { Edit, Fix, Rule, RuleContext, RuleFinding, WholeAnalysis } from './types';
import { finding } from './util/finding';
import { replace } from './util/source';
import { usesZod3, zodMajorNear } from './util/zod';
import { TS_SDK_V2_MODELLED } from '../../../common/frameworks';

type V2Package = '@modelcontextprotocol/server' | '@modelcontextprotocol/client';

/** v1 module (without `.js`) -> the v2 module that exports the same symbols (codemod `status: 'moved'`, one target). */
const MOVED: Record<string, string> = {
  'server/mcp': '@modelcontextprotocol/server',
  'server/index': '@modelcontextprotocol/server',
  'server/stdio': '@modelcontextprotocol/server/stdio',
  'server/completable': '@modelcontextprotocol/server',
  'server/webStandardStreamableHttp': '@modelcontextprotocol/server',
  'client/index': '@modelcontextprotocol/client',
  'client/stdio': '@modelcontextprotocol/client/stdio',
  'client/streamableHttp': '@modelcontextprotocol/client',
  'client/sse': '@modelcontextprotocol/client',
  'client/auth': '@modelcontextprotocol/client',
  'client/middleware': '@modelcontextprotocol/client',
};

/** Modules whose symbols v2 re-exports from whichever of server / client the file uses (codemod RESOLVE_BY_CONTEXT). */
const BY_CONTEXT = new Set(['types', 'shared/protocol', 'shared/transport', 'shared/uriTemplate', 'shared/stdio', 'inMemory']);

/** Symbols renamed in v2 (codemod symbolMap SIMPLE_RENAMES), written `New as Old`. */
const RENAMED: Record<string, string> = {
  McpError: 'ProtocolError',
  JSONRPCError: 'JSONRPCErrorResponse',
  isJSONRPCError: 'isJSONRPCErrorResponse',
  isJSONRPCResponse: 'isJSONRPCResultResponse',
  JSONRPCResponse: 'JSONRPCResultResponse',
  ResourceReference: 'ResourceTemplateReference',
};
/**
 * Renamed only where one module exports them (codemod importMap `renamedSymbols`): the `ResourceTemplate` *type* of
 * types.js is `ResourceTemplateType` in v2, while the `ResourceTemplate` URI-template class of server/mcp.js keeps its name.
 */
const RENAMED_IN: Record<string, Record<string, string>> = { types: { ResourceTemplate: 'ResourceTemplateType' } };

/** Why a module cannot be rewritten by one mapping (the guide's manual sections). */
const MANUAL: Record<string, string> = {
  'server/streamableHttp':
    'StreamableHTTPServerTransport became NodeStreamableHTTPServerTransport (@modelcontextprotocol/node) or WebStandardStreamableHTTPServerTransport (@modelcontextprotocol/server): which one depends on your runtime',
  'server/sse': 'SSEServerTransport is removed (a frozen copy is in @modelcontextprotocol/server-legacy/sse): move to Streamable HTTP',
  'server/zod-compat': 'zod-compat is removed: v2 takes any Standard Schema',
  'server/zod-json-schema-compat': 'toJsonSchemaCompat is removed: use your schema library’s own JSON Schema conversion',
  'client/websocket': 'WebSocketClientTransport is removed',
  'server/express': 'the Express helpers moved to @modelcontextprotocol/express (add it and express)',
};

const subpathOf = (module: string) => module.replace(/^@modelcontextprotocol\/sdk\/?/, '').replace(/\.(?:js|mjs|cjs)$/, '');

/** `ErrorCode` members v2 moved to SdkErrorCode: an alias `ProtocolErrorCode as ErrorCode` would break them. */
const LOCAL_ERROR_CODES = /\bErrorCode\s*\.\s*(RequestTimeout|ConnectionClosed)\b/;

interface Plan {
  target?: string;
  /** Named imports to write `New as Old`. */
  renames: { span: Span; text: string }[];
  manual?: string;
}

function plan(imp: FileFacts['v1Imports'][number], side: V2Package, fileText: string): Plan {
  const sub = subpathOf(imp.module ?? '');
  if (MANUAL[sub]) return { renames: [], manual: MANUAL[sub] };
  if (sub.startsWith('server/auth'))
    return { renames: [], manual: 'the auth helpers were split between @modelcontextprotocol/express, @modelcontextprotocol/server and @modelcontextprotocol/server-legacy/auth' };
  const target = MOVED[sub] ?? (BY_CONTEXT.has(sub) ? side : undefined);
  if (!target) return { renames: [], manual: `v2 has no one-to-one home for ${imp.module}` };
  const renames: Plan['renames'] = [];
  for (const n of imp.names ?? []) {
    // Zod `*Schema` constants (CallToolRequestSchema...) moved to @modelcontextprotocol/core, and
    // setRequestHandler takes a method string instead: not one mapping.
    if (sub === 'types' && /Schema$/.test(n.imported))
      return { renames: [], manual: `${n.imported} moved to @modelcontextprotocol/core, and setRequestHandler/setNotificationHandler now take the method string ('tools/call') instead of a schema` };
    if (n.imported === 'ErrorCode') {
      if (LOCAL_ERROR_CODES.test(fileText)) return { renames: [], manual: 'ErrorCode became ProtocolErrorCode, but RequestTimeout and ConnectionClosed moved to SdkErrorCode' };
      renames.push({ span: n.span, text: `ProtocolErrorCode as ${n.local}` });
    } else {
      const renamed = RENAMED_IN[sub]?.[n.imported] ?? RENAMED[n.imported];
      if (renamed) renames.push({ span: n.span, text: `${renamed} as ${n.local}` });
    }
  }
  return { target, renames };
}

/** The nearest package.json above `file` that lists `@modelcontextprotocol/sdk`, with its text. */
function manifestOf(file: string, ctx: RuleContext): { path: string; text: string } | undefined {
  let dir = path.dirname(file);
  for (let i = 0; i < 30; i++) {
    const p = path.join(dir, 'package.json');
    const text = ctx.textOf(p);
    if (text !== undefined && /"@modelcontextprotocol\/sdk"\s*:/.test(text)) return { path: p, text };
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

/**
 * `"@modelcontextprotocol/sdk": "^1.x",` gets the v2 packages this file needs added after it, on a line of its own
 * with the same indentation (the guide's staged order: add v2, keep v1 until nothing imports it); undefined when
 * they are already there.
 */
function dependencyFix(ctx: RuleContext, file: string, packages: V2Package[]): Fix | undefined {
  const manifest = manifestOf(file, ctx);
  if (!manifest) return undefined;
  const missing = packages.filter((p) => !manifest.text.includes(`"${p}"`));
  if (missing.length === 0) return undefined;
  const m = /^([ \t]*)"@modelcontextprotocol\/sdk"\s*:\s*"[^"]*"(,?)([ \t]*)(\r?\n)/m.exec(manifest.text);
  if (!m) return undefined;
  const [, indent, comma, , eol] = m;
  const at = m.index + m[0].length - m[4].length - m[3].length - m[2].length;
  const added = missing.map((p) => `${indent}"${p}": "^${TS_SDK_V2_MODELLED.to}"`).join(`,${eol}`);
  // After the sdk entry: a comma ends it, then the new entries, then the comma it had (if it was not the last).
  const edit: Edit = { span: { file: manifest.path, start: at, end: at + comma.length }, newText: `,${eol}${added}${comma}` };
  return {
    title: `Add ${missing.map((p) => `${p} ^${TS_SDK_V2_MODELLED.to}`).join(' and ')} to package.json (keeping @modelcontextprotocol/sdk until nothing imports it)`,
    edits: [edit],
    safe: false,
  };
}

/**
 * Why importing v2 in `f` would stop its server from starting, for what lies outside the file's own imports: v2
 * rejects zod 3 schemas at registerTool ("must be Zod v4 schemas": mcp-server-code-runner, @eslint/mcp), removed
 * `server.tool`/`prompt`/`resource` ("server.tool is not a function": circleci, mapbox register through them in a
 * loop or a base class), and the other modules of the analysis that still need a manual step of their own (brave's
 * dialect module hands v1 schema constants to the v2 server's setRequestHandler).
 */
function serverBlocker(f: FileFacts, analysis: WholeAnalysis, ctx: RuleContext): string | undefined {
  const { tools, files } = analysis;
  const zod = zodMajorNear(f.file, ctx);
  if (zod !== undefined && zod < 4) return `zod ${zod} is installed and v2 takes zod >= 4.2 schemas only (registerTool throws "must be Zod v4 schemas"): upgrade zod first`;
  const zod3 = [f.file, ...new Set(tools.map((t) => t.file))].find((file) => usesZod3(ctx, file));
  if (zod3) return `${path.basename(zod3)} builds its schemas with zod 3 (\`zod/v3\`), and v2 takes zod >= 4.2 schemas only (registerTool throws "must be Zod v4 schemas"): move them to zod 4 first`;
  const v1Calls = [
    ...tools.filter((t) => t.registration.kind === 'tool').map(() => 'tool'),
    ...[...analysis.prompts, ...analysis.resources].filter((r) => r.registration.kind === 'prompt' || r.registration.kind === 'resource').map((r) => r.registration.kind),
  ];
  if (v1Calls.length)
    return `${v1Calls.length} registration${v1Calls.length === 1 ? '' : 's'} of this server ${v1Calls.length === 1 ? 'uses' : 'use'} ${[...new Set(v1Calls)].map((k) => `server.${k}(...)`).join(', ')}, which v2 removed ("server.${v1Calls[0]} is not a function" at start): rewrite ${v1Calls.length === 1 ? 'it' : 'them'} with registerTool/registerPrompt/registerResource first (deprecated-server-tool fixes the tools)`;
  const others = [...files.filter((x) => x !== f && x.language === 'typescript').map((x) => ({ file: x.file, imports: x.v1Imports })), ...(f.moduleV1Imports ?? [])];
  for (const other of others) {
    const otherText = ctx.textOf(other.file) ?? '';
    const manual = other.imports.map((imp) => plan(imp, '@modelcontextprotocol/server', otherText).manual).find(Boolean);
    if (manual) return `${path.basename(other.file)}, a module of this server, needs a manual step first: ${manual}`;
  }
  return undefined;
}

export const tsSdkV1Import: Rule = {
  id: 'ts-sdk-v1-import',
  defaultSeverity: 'info',
  // Opt-in: 1.x still works and is still published; moving to v2 is the author's decision (a semver-major for a library).
  preset: 'strict',
  languages: ['typescript'],
  summary: 'An import of @modelcontextprotocol/sdk (TypeScript SDK 1.x): the stable line is v2 (@modelcontextprotocol/server).',
  checkFile(f: FileFacts, _tools: ToolDefinition[], ctx: RuleContext, analysis?: WholeAnalysis): RuleFinding[] {
    if (f.language !== 'typescript' || f.v1Imports.length === 0) return [];
    const fileText = ctx.textOf(f.file) ?? '';
    const clientOnly = f.v1Imports.every((i) => subpathOf(i.module ?? '').startsWith('client/') || BY_CONTEXT.has(subpathOf(i.module ?? '')));
    const side: V2Package = clientOnly && f.v1Imports.some((i) => subpathOf(i.module ?? '').startsWith('client/')) ? '@modelcontextprotocol/client' : '@modelcontextprotocol/server';
    const plans = f.v1Imports.map((imp) => plan(imp, side, fileText));
    const needed = [
      ...new Set(plans.flatMap((p) => (p.target ? [p.target.startsWith('@modelcontextprotocol/client') ? '@modelcontextprotocol/client' : '@modelcontextprotocol/server'] : []))),
    ] as V2Package[];
    // A file with a manual step left does not start half-migrated (server-memory: its v1 schema constants go to a v2
    // setRequestHandler): its imports get no fix, each finding says what to do.
    // v2 rejects zod 3 schemas at registerTool (mcp-server-code-runner: "must be Zod v4 schemas"): zod first.
    // The server this file builds is the one every module of the analysis registers on: what they still do in v1
    // breaks once it is a v2 server, so their blockers are this file's too (the fix is proven by starting the server).
    const blocker = serverBlocker(f, analysis ?? { tools: _tools, files: [f], prompts: [], resources: [] }, ctx);
    if (blocker) {
      const first = plans.find((p) => p.target);
      if (first) first.manual = blocker;
    }
    const whole = plans.every((p) => p.target && !p.manual);
    const deps = whole && needed.length ? dependencyFix(ctx, f.file, needed) : undefined;
    return f.v1Imports.map((imp, i) => {
      const p = plans[i];
      const fixes: Fix[] = [];
      if (whole && p.target && imp.moduleSpan) {
        const quote = fileText[imp.moduleSpan.start] === "'" ? "'" : '"';
        const edits = [replace(imp.moduleSpan, `${quote}${p.target}${quote}`), ...p.renames.map((r) => replace(r.span, r.text))];
        const renamed = p.renames.length ? ` (${p.renames.map((r) => r.text).join(', ')})` : '';
        fixes.push({ title: `Import from ${p.target}${renamed}`, edits, safe: false });
      }
      if (i === 0 && deps) fixes.push(deps);
      const blocker = plans.find((x) => x.manual)?.manual;
      const what =
        p.target && !p.manual
          ? `In v2 it is \`${p.target}\`${p.renames.length ? `, with ${p.renames.map((r) => r.text.replace(/ as .*/, '')).join(', ')} renamed` : ''}.${whole ? '' : ` No fix is offered while another import of this file needs a manual step (${blocker}): the file would not start half-migrated.`}`
          : `This import needs a manual step: ${p.manual}.`;
      return finding(
        null,
        imp.moduleSpan ?? imp.span,
        `\`${imp.module}\` is the TypeScript SDK 1.x. Its stable line is v2 (\`@modelcontextprotocol/server\` ${TS_SDK_V2_MODELLED.to}), the only line that can serve the 2026-07-28 protocol revision (an opt-in there: \`serveStdio\` / \`createMcpHandler\`). ` +
          `${what} The rest is in the official guide (docs/migration/upgrade-to-v2.md of the typescript-sdk repository): \`server.tool(...)\` -> \`registerTool\` (deprecated-server-tool fixes it), ` +
          '`setRequestHandler(Schema, ...)` -> the method string, the handler’s `extra` -> `ctx` (`extra.signal` -> `ctx.mcpReq.signal`), zod >= 4.2.',
        fixes,
      );
    });
  },
};
