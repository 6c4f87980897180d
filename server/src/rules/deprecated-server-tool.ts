import type { Span, ToolDefinition } from '../analysis/model';
import type { Fix, Rule, RuleContext } from './types';
import { finding } from './util/finding';
import { insertAt, replace, spanText } from './util/source';
import { FRAMEWORKS } from '../../../common/frameworks';

const inside = (outer: Span, s: Span | undefined) => s === undefined || (s.file === outer.file && s.start >= outer.start && s.end <= outer.end);

/**
 * server.tool(name, [description], [schema], [annotations], cb) -> server.registerTool(name, { ... }, cb). The
 * arguments stay where they are written and become properties in place: a key is inserted before each, `{` before the
 * first and `}` after the last, so the commas between them, their comments and their layout are kept.
 */
function rewrite(tool: ToolDefinition, ctx: RuleContext): Fix | undefined {
  const r = tool.registration;
  const h = tool.handler;
  const desc = tool.description?.origin === 'argument' ? tool.description.span : undefined;
  if (!h || ![tool.name.span, desc, tool.inputSchemaSpan, tool.annotations?.span, h.span].every((s) => inside(r.span, s))) return undefined;
  const callee = spanText(ctx, r.calleeSpan);
  if (callee === undefined || !/\.tool$/.test(callee)) return undefined;
  const written: [string, Span | undefined][] = [
    ['description', desc],
    ['inputSchema', tool.inputSchemaSpan],
    ['annotations', tool.annotations?.span],
  ];
  const config = written.filter((p): p is [string, Span] => p[1] !== undefined);
  // In source order, between the name and the handler; anything else is not a plain positional call.
  const ordered = [tool.name.span, ...config.map((p) => p[1]), h.span];
  if (ordered.some((s, i) => i > 0 && s.start < ordered[i - 1].end)) return undefined;
  const edits = [replace(r.calleeSpan, callee.replace(/\.tool$/, '.registerTool'))];
  if (config.length === 0) edits.push(insertAt(r.span.file, h.span.start, '{}, '));
  config.forEach(([key, span], i) => edits.push(insertAt(span.file, span.start, `${i === 0 ? '{ ' : ''}${key}: `)));
  if (config.length) edits.push(insertAt(r.span.file, config[config.length - 1][1].end, ' }'));
  return { title: 'Rewrite as registerTool(name, { description, inputSchema, annotations }, handler)', edits, safe: true };
}

export const deprecatedServerTool: Rule = {
  id: 'deprecated-server-tool',
  defaultSeverity: 'warning',
  languages: ['typescript'],
  summary: '`server.tool(...)` overloads are deprecated in SDK 1.x and removed in v2; use registerTool.',
  checkTool(tool: ToolDefinition, ctx: RuleContext) {
    if (tool.registration.kind !== 'tool') return [];
    const fix = rewrite(tool, ctx);
    // SDK v2's McpServer has no `tool` method at all (removed, not deprecated).
    const message = FRAMEWORKS[tool.framework].hasToolMethod
      ? '`server.tool(...)` is deprecated: its positional overloads guess whether an object is a schema or annotations, and it cannot declare a title or an outputSchema. ' +
        'Use `server.registerTool(name, { title, description, inputSchema, outputSchema, annotations }, handler)`.'
      : `\`server.tool(...)\` does not exist in ${FRAMEWORKS[tool.framework].name} (${FRAMEWORKS[tool.framework].versionPackage}): the call throws "server.tool is not a function" ` +
        'when the server starts, so it never lists a tool. Use `server.registerTool(name, { title, description, inputSchema, outputSchema, annotations }, handler)`.';
    return [finding(tool, tool.registration.calleeSpan, message, fix ? [fix] : [])];
  },
};
