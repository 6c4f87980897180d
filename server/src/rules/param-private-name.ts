import type { Edit, Rule, RuleFinding } from './types';
import { finding, toolLabel } from './util/finding';
import { FRAMEWORKS } from '../../../common/frameworks';

export const paramPrivateName: Rule = {
  id: 'param-private-name',
  defaultSeverity: 'error',
  languages: ['python'],
  summary: 'A parameter starting with "_" (the official SDK refuses to register the tool).',
  checkTool(tool, ctx) {
    // Only the official SDK rejects them (func_metadata raises InvalidSignature); FastMCP publishes them as they are.
    if (!FRAMEWORKS[tool.framework].rejectsUnderscoreParams) return [];
    const out: RuleFinding[] = [];
    const text = ctx.textOf(tool.file);
    for (const p of tool.parameters) {
      if (!p.name.startsWith('_')) continue;
      const renamed = p.name.replace(/^_+/, '');
      const clash = !renamed || tool.parameters.some((o) => o.name === renamed);
      const edits: Edit[] = [];
      if (!clash && text !== undefined && text.slice(p.nameSpan.start, p.nameSpan.end) === p.name) {
        edits.push({ span: p.nameSpan, newText: renamed });
        // Uses inside the body, by whole identifier (not attributes `x._name`).
        const body = tool.handler?.bodySpan;
        if (body && body.file === tool.file) {
          const re = new RegExp(`(?<![\\w.])${p.name.replace(/[$]/g, '\\$')}(?!\\w)`, 'g');
          for (const m of text.slice(body.start, body.end).matchAll(re)) {
            const start = body.start + m.index;
            if (start !== p.nameSpan.start) edits.push({ span: { file: tool.file, start, end: start + p.name.length }, newText: renamed });
          }
        }
      }
      out.push(
        finding(
          tool,
          p.nameSpan,
          `Parameter "${p.name}" of ${toolLabel(tool)} starts with "_": the official MCP SDK raises InvalidSignature ` +
            `("cannot start with '_'") and the tool is never registered, so the model never sees it. Rename it${clash ? '' : ` to "${renamed}"`}.`,
          edits.length ? [{ title: `Rename to "${renamed}"`, edits, safe: false }] : [],
        ),
      );
    }
    return out;
  },
};
