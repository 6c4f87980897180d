import type { Fix, Rule, RuleFinding } from './types';
import { finding, toolLabel } from './util/finding';
import { deleteLines, indentAt, insertAt, lineEnd, trimSpan } from './util/source';
import { FRAMEWORKS } from '../../../common/frameworks';

export const docstringArgsMismatch: Rule = {
  id: 'docstring-args-mismatch',
  defaultSeverity: 'warning',
  languages: ['python'],
  summary: 'Args: names a parameter that does not exist, or (FastMCP) a parameter is missing from Args:.',
  checkTool(tool, ctx) {
    const doc = tool.docstring;
    if (!doc || !doc.argsSectionSpan) return [];
    const text = ctx.textOf(tool.file);
    const out: RuleFinding[] = [];
    const visible = new Set(tool.parameters.map((p) => p.name));
    // Parameters the model does not see (a Context, injected dependencies) are still real: read the signature.
    const signature = text !== undefined && tool.handler ? text.slice(tool.handler.span.start, tool.handler.bodySpan.start) : '';
    for (const arg of doc.args) {
      if (visible.has(arg.name)) continue;
      if (new RegExp(`[(,*\\s]${arg.name}\\s*[:=,)]`).test(signature)) continue;
      const fixes: Fix[] = text !== undefined ? [{ title: `Remove the "${arg.name}" entry`, edits: [deleteLines(tool.file, text, arg.span.start, arg.span.end)], safe: true }] : [];
      out.push(
        finding(
          tool,
          trimSpan(ctx, arg.span),
          `The Args: section of ${toolLabel(tool)} documents "${arg.name}", which is not a parameter of the tool: the model ` +
            'reads about an argument it cannot pass (or a renamed one under its old name). Remove the entry or fix its name.',
          fixes,
        ),
      );
    }
    const profile = FRAMEWORKS[tool.framework];
    if (profile.docstring === 'parsed') {
      const documented = new Set(doc.args.map((a) => a.name));
      const last = doc.args[doc.args.length - 1];
      for (const p of tool.parameters) {
        if (documented.has(p.name) || p.description?.value?.trim()) continue;
        const fixes: Fix[] = [];
        if (last && text !== undefined) {
          const indent = indentAt(text, trimSpan(ctx, last.span).start);
          fixes.push({
            title: `Add an Args: entry for "${p.name}"`,
            edits: [insertAt(tool.file, lineEnd(text, Math.max(last.span.start, last.span.end - 1)), `\n${indent}${p.name}: <what it is, with an example>`)],
            safe: false,
          });
        }
        out.push(
          finding(
            tool,
            p.nameSpan,
            `Parameter "${p.name}" of ${toolLabel(tool)} is missing from the docstring's Args: section: ${profile.name} takes parameter ` +
              'descriptions from there, so this one reaches the model with none. Add an entry for it.',
            fixes,
          ),
        );
      }
    }
    return out;
  },
};
