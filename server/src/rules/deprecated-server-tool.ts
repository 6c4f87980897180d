import type { Span, ToolDefinition } from '../analysis/model';
import type { Fix, Rule, RuleContext } from './types';
import { finding } from './util/finding';
import { replace, spanText } from './util/source';

const inside = (outer: Span, s: Span | undefined) => s === undefined || (s.file === outer.file && s.start >= outer.start && s.end <= outer.end);

/** server.tool(name, [description], [schema], [annotations], cb) -> server.registerTool(name, { ... }, cb). */
function rewrite(tool: ToolDefinition, ctx: RuleContext): Fix | undefined {
  const r = tool.registration;
  const h = tool.handler;
  const desc = tool.description?.origin === 'argument' ? tool.description.span : undefined;
  const pieces = [tool.name.span, desc, tool.inputSchemaSpan, tool.annotations?.span, h?.span];
  if (!h || !pieces.every((s) => inside(r.span, s))) return undefined;
  const callee = spanText(ctx, r.calleeSpan);
  if (callee === undefined || !/\.tool$/.test(callee)) return undefined;
  const props: string[] = [];
  const d = spanText(ctx, desc);
  if (d !== undefined) props.push(`description: ${d}`);
  const s = spanText(ctx, tool.inputSchemaSpan);
  if (s !== undefined) props.push(`inputSchema: ${s}`);
  const a = spanText(ctx, tool.annotations?.span);
  if (a !== undefined) props.push(`annotations: ${a}`);
  if (tool.name.span.end > h.span.start) return undefined;
  return {
    title: 'Rewrite as registerTool(name, { description, inputSchema, annotations }, handler)',
    edits: [
      replace(r.calleeSpan, callee.replace(/\.tool$/, '.registerTool')),
      replace({ file: r.span.file, start: tool.name.span.end, end: h.span.start }, `, { ${props.join(', ')} }, `),
    ],
    safe: true,
  };
}

export const deprecatedServerTool: Rule = {
  id: 'deprecated-server-tool',
  defaultSeverity: 'warning',
  languages: ['typescript'],
  summary: '`server.tool(...)` overloads are deprecated; use registerTool.',
  checkTool(tool: ToolDefinition, ctx: RuleContext) {
    if (tool.registration.kind !== 'tool') return [];
    const fix = rewrite(tool, ctx);
    return [
      finding(
        tool,
        tool.registration.calleeSpan,
        '`server.tool(...)` is deprecated: its positional overloads guess whether an object is a schema or annotations, and it cannot declare a title or an outputSchema. ' +
          'Use `server.registerTool(name, { title, description, inputSchema, outputSchema, annotations }, handler)`.',
        fix ? [fix] : [],
      ),
    ];
  },
};
