import type { ParameterDefinition, ToolDefinition } from '../analysis/model';
import type { Edit, Fix, Rule, RuleContext } from './types';
import { finding, toolLabel } from './util/finding';
import { FRAMEWORKS } from '../../../common/frameworks';
import { addPythonImports } from './util/python-imports';
import { insertAt, replace } from './util/source';

const CONTEXT_NAME = /^(ctx|context|request_context|mcp_context)$/;
/** Annotations meant as the request context that the SDK does not recognise as one (it only knows its Context class). */
const CONTEXT_LIKE_TYPES = new Set(['Context', 'RequestContext', 'ToolContext', 'ServerContext', 'CallToolResult', 'ServerSession', 'ClientSession', 'Request', 'Starlette']);

/** The class names of an annotation, without Optional[...] / `| None` (`Optional[mcp.types.CallToolResult]` -> CallToolResult). */
function classNames(type: string): string[] {
  return type
    .replace(/^Optional\[(.*)\]$/, '$1')
    .split('|')
    .map((t) => t.trim().split('.').pop() ?? '')
    .filter((t) => t && t !== 'None');
}

export function isMistypedContext(p: ParameterDefinition): boolean {
  const type = p.typeText?.trim();
  if (type) {
    const names = classNames(type);
    if (names.length > 0 && names.every((n) => CONTEXT_LIKE_TYPES.has(n))) return names[0] !== 'Request' || CONTEXT_NAME.test(p.name) || p.name === 'request';
  }
  return CONTEXT_NAME.test(p.name) && (p.untyped || type === 'Any' || type === 'object');
}

function contextImport(tool: ToolDefinition): [string, string] | undefined {
  const q = FRAMEWORKS[tool.framework].contextClasses[0];
  if (!q) return undefined;
  const dot = q.lastIndexOf('.');
  return [q.slice(0, dot), q.slice(dot + 1)];
}

function retypeFix(tool: ToolDefinition, p: ParameterDefinition, ctx: RuleContext): Fix | undefined {
  const imp = contextImport(tool);
  const text = ctx.textOf(p.nameSpan.file);
  if (!imp || text === undefined || p.typeText?.trim() === imp[1]) return undefined;
  const edits: Edit[] = [p.typeSpan ? replace(p.typeSpan, imp[1]) : insertAt(p.nameSpan.file, p.nameSpan.end, `: ${imp[1]}`), ...addPythonImports(p.nameSpan.file, text, [imp])];
  return { title: `Annotate ${p.name} as ${imp[1]} (from ${imp[0]})`, edits, safe: false };
}

export const contextParamMistyped: Rule = {
  id: 'context-param-mistyped',
  defaultSeverity: 'warning',
  languages: ['python'],
  summary: 'A parameter meant as the request context is not annotated with the SDK’s Context, so it is published as an input.',
  checkTool(tool, ctx) {
    const imp = contextImport(tool);
    const out = [];
    for (const p of tool.parameters) {
      if (!isMistypedContext(p)) continue;
      const fix = retypeFix(tool, p, ctx);
      const want = imp ? `\`${p.name}: ${imp[1]}\` (from ${imp[0]} import ${imp[1]})` : 'the SDK’s Context class';
      out.push(
        finding(
          tool,
          p.typeSpan ?? p.nameSpan,
          `\`${p.name}${p.typeText ? `: ${p.typeText}` : ''}\` of ${toolLabel(tool)} looks like the request context, but the SDK recognises a context parameter only by its ` +
            `annotation (its Context class), so it publishes "${p.name}" as ${p.required ? 'a required' : 'an'} input the model has to fill in — and never injects the context. ` +
            `Annotate it ${want}.`,
          fix ? [fix] : [],
        ),
      );
    }
    return out;
  },
};
