import type { ToolDefinition } from '../analysis/model';
import type { Rule, RuleFinding } from './types';
import { finding } from './util/finding';

export const outputSchemaWithoutStructuredContent: Rule = {
  id: 'output-schema-without-structured-content',
  defaultSeverity: 'error',
  languages: ['typescript'],
  summary: 'outputSchema is declared but a success return has no structuredContent (the SDK fails the call).',
  checkTool(tool: ToolDefinition) {
    if (!tool.outputSchemaSpan || tool.registration.kind !== 'registerTool') return [];
    const out: RuleFinding[] = [];
    for (const r of tool.handler?.returns ?? []) {
      // Only returns whose object is known: a returned call result may well carry structuredContent.
      if (r.keys === undefined || r.isError === true || r.hasStructuredContent) continue;
      out.push(
        finding(
          tool,
          r.span,
          `${tool.name.value ?? 'This tool'} declares an outputSchema, but this successful return has no structuredContent: ` +
            'the SDK rejects it ("has an output schema but no structured content was provided") and the model gets an error instead of the result. ' +
            'Return `structuredContent` matching the schema (and a text copy in content), or mark a failure with `isError: true`.',
        ),
      );
    }
    return out;
  },
};
