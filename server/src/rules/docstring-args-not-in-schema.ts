import { isMistypedContext } from './context-param-mistyped';
import type { ToolDefinition } from '../analysis/model';
import type { Edit, Fix, Rule, RuleContext } from './types';
import { finding, toolLabel } from './util/finding';
import { fieldKeywordEdits, pyString } from './util/python-edits';
import { addPythonImports, type PythonImport } from './util/python-imports';
import { deleteLines, trimSpan } from './util/source';
import { FRAMEWORKS } from '../../../common/frameworks';

/** Moves the Args entries of model-visible parameters into their Field(description=...), deleting those entries. */
function moveArgsFix(tool: ToolDefinition, ctx: RuleContext): Fix | undefined {
  const doc = tool.docstring!;
  const text = ctx.textOf(tool.file);
  if (text === undefined || !doc.argsSectionSpan) return undefined;
  const edits: Edit[] = [];
  const imports: PythonImport[] = [];
  const moved = doc.args.filter((a) => tool.parameters.some((p) => p.name === a.name));
  for (const arg of moved) {
    const p = tool.parameters.find((x) => x.name === arg.name)!;
    if (!p.description?.value?.trim()) {
      const description = arg.description.replace(/\s+/g, ' ').trim();
      const r = fieldKeywordEdits(ctx, p, `description=${pyString(description)}`);
      if (!r) return undefined;
      edits.push(...r.edits);
      imports.push(...r.imports.filter(([m, n]) => !imports.some(([m2, n2]) => m2 === m && n2 === n)));
    }
  }
  if (moved.length === doc.args.length) {
    edits.push(deleteLines(tool.file, text, doc.argsSectionSpan.start, doc.argsSectionSpan.end));
  } else {
    // Entries of other names (a Context, a stale name) stay for docstring-args-mismatch to judge.
    for (const arg of moved) {
      const s = trimSpan(ctx, arg.span);
      edits.push(deleteLines(tool.file, text, s.start, s.end));
    }
  }
  edits.push(...addPythonImports(tool.file, text, imports));
  return { title: 'Move the Args: entries into Annotated[T, Field(description=...)]', edits, safe: true };
}

export const docstringArgsNotInSchema: Rule = {
  id: 'docstring-args-not-in-schema',
  defaultSeverity: 'warning',
  languages: ['python'],
  summary: 'Official SDK: the docstring has an Args: section that never reaches inputSchema.',
  checkTool(tool, ctx) {
    // FastMCP parses Args: into parameter descriptions; only the official SDK (mcp 1.x FastMCP class, 2.x MCPServer) ignores it.
    if (FRAMEWORKS[tool.framework].docstring !== 'verbatim' || !tool.docstring) return [];
    const documented = tool.docstring.args.filter((a) => tool.parameters.some((p) => p.name === a.name));
    // Lost only when some documented parameter has no description of its own (Field(description=...) carries it
    // otherwise); a mistyped context is not an input to describe (context-param-mistyped reports it).
    const lost = documented.filter((a) => tool.parameters.some((p) => p.name === a.name && !p.description?.value?.trim() && !isMistypedContext(p)));
    if (lost.length === 0) return [];
    const names = documented.map((a) => a.name).join(', ');
    const fix = moveArgsFix(tool, ctx);
    return [
      finding(
        tool,
        trimSpan(ctx, tool.docstring.argsSectionSpan ?? tool.docstring.span),
        `The docstring of ${toolLabel(tool)} documents ${names} under Args:, but the official MCP SDK never copies that ` +
          'section into inputSchema: the model gets the whole docstring as one blob of description and no description on ' +
          'any parameter. Move each entry into its parameter as Annotated[T, Field(description="...")].',
        fix ? [fix] : [],
      ),
    ];
  },
};
