import type { ParameterDefinition, ToolDefinition } from '../analysis/model';
import type { Edit, Fix, Rule, RuleContext } from './types';
import { finding, toolLabel } from './util/finding';
import { FRAMEWORKS } from '../../../common/frameworks';
import { addPythonImports, hasPythonImport } from './util/python-imports';
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

/**
 * Where the fix imports Context from: for mcp 2.x `mcp.server.mcpserver` (checked on 2.3.0: `mcp.server` exports
 * MCPServer but not Context); otherwise the module of one of the framework's context classes the file already
 * imports from, else the first one.
 */
function contextImport(tool: ToolDefinition, text: string | undefined): [string, string] | undefined {
  const candidates = FRAMEWORKS[tool.framework].contextClasses.map((q): [string, string] => [q.slice(0, q.lastIndexOf('.')), q.slice(q.lastIndexOf('.') + 1)]);
  const imported = text === undefined ? undefined : candidates.find(([m]) => new RegExp(`^\\s*from\\s+${m.replace(/\./g, '\\.')}\\s+import\\b`, 'm').test(text));
  return candidates.find(([m]) => m === 'mcp.server.mcpserver') ?? imported ?? candidates[0];
}

/** `Context` already names something else in the file (the IAM server's own `from .context import Context`). */
function bindsOtherContext(text: string, module: string): boolean {
  if (hasPythonImport(text, module, 'Context')) return false;
  return /^\s*(from\s+\S+\s+import\s+[^\n]*\bContext\b(?!\s+as\b)|import\s+[^\n]*\bas\s+Context\b|class\s+Context\b|Context\s*=)/m.test(text);
}

function retypeFix(tool: ToolDefinition, p: ParameterDefinition, ctx: RuleContext): Fix | undefined {
  const text = ctx.textOf(p.nameSpan.file);
  const imp = contextImport(tool, text);
  if (!imp || text === undefined) return undefined;
  // Importing the SDK's Context over another class of that name would break the code that uses it: alias it then.
  const local = bindsOtherContext(text, imp[0]) ? 'McpContext' : imp[1];
  if (p.typeText?.trim() === local) return undefined;
  const wanted: [string, string] = local === imp[1] ? imp : [imp[0], `${imp[1]} as ${local}`];
  const aliased = local !== imp[1] && new RegExp(`^\\s*from\\s+${imp[0].replace(/\./g, '\\.')}\\s+import\\s+[^\\n]*\\b${imp[1]}\\s+as\\s+${local}\\b`, 'm').test(text);
  const edits: Edit[] = [p.typeSpan ? replace(p.typeSpan, local) : insertAt(p.nameSpan.file, p.nameSpan.end, `: ${local}`), ...(aliased ? [] : addPythonImports(p.nameSpan.file, text, [wanted]))];
  return { title: `Annotate ${p.name} as ${local} (${imp[1]} from ${imp[0]})`, edits, safe: false };
}

export const contextParamMistyped: Rule = {
  id: 'context-param-mistyped',
  defaultSeverity: 'warning',
  languages: ['python'],
  summary: 'A parameter meant as the request context is not annotated with the SDK’s Context, so it is published as an input.',
  checkTool(tool, ctx) {
    const imp = contextImport(tool, ctx.textOf(tool.file));
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
