import type { ToolDefinition } from '../analysis/model';
import type { Rule, RuleContext } from './types';
import { finding } from './util/finding';
import { replace, spanText } from './util/source';

export const inputSchemaNotObject: Rule = {
  id: 'input-schema-not-object',
  defaultSeverity: 'error',
  languages: ['typescript'],
  summary: 'The inputSchema root is not an object / raw shape.',
  checkTool(tool: ToolDefinition, ctx: RuleContext) {
    if (!tool.inputSchemaNotObject || !tool.inputSchemaSpan) return [];
    const expr = spanText(ctx, tool.inputSchemaSpan);
    return [
      finding(
        tool,
        tool.inputSchemaSpan,
        'The inputSchema root is not an object: tools/list then publishes an empty object schema, so the model sees no parameters, ' +
          'while every call is still validated against this schema and fails. Tool arguments are always an object: wrap the value in a named property, ' +
          'e.g. `z.object({ value: z.string() })`, or give a raw shape `{ value: z.string() }`.',
        expr !== undefined && tool.inputSchemaSpan.file === tool.file
          ? [{ title: 'Wrap in z.object({ value: ... }) (then read args.value in the handler)', edits: [replace(tool.inputSchemaSpan, `z.object({ value: ${expr} })`)], safe: false }]
          : [],
      ),
    ];
  },
};
