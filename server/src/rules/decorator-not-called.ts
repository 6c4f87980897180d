import type { ToolDefinition } from '../analysis/model';
import type { Rule } from './types';
import { finding } from './util/finding';
import { insertAt } from './util/source';
import { FRAMEWORKS } from '../../../common/frameworks';

export const decoratorNotCalled: Rule = {
  id: 'decorator-not-called',
  defaultSeverity: 'error',
  languages: ['python'],
  summary: 'Official SDK `@mcp.tool` without `()` (FastMCP accepts it; mcp 1.x and 2.x raise TypeError).',
  checkTool(tool: ToolDefinition) {
    const r = tool.registration;
    // Standalone FastMCP accepts a bare `@app.tool`; the official SDK's tool() is a decorator factory.
    if (r.kind !== 'decorator' || r.decoratorCalled !== false || FRAMEWORKS[tool.framework].toolDecorator !== 'factory') return [];
    return [
      finding(
        tool,
        r.calleeSpan,
        "The official SDK's `tool` is a decorator factory: without `()` it receives your function as its `name` and raises " +
          '"TypeError: The @tool decorator was used incorrectly" at import, so the server never starts and the model gets no tools. Write `@mcp.tool()`.',
        [{ title: 'Add ()', edits: [insertAt(r.calleeSpan.file, r.calleeSpan.end, '()')], safe: true }],
      ),
    ];
  },
};
