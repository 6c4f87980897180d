import type { ToolDefinition } from '../analysis/model';
import type { Rule, RuleContext } from './types';
import { finding } from './util/finding';
import { replace, spanText } from './util/source';
import { schemaLibraryOf } from './util/schema-library';

/** SDK v2 refuses a non-object input schema when it lists tools (`standardSchemaToJsonSchema`): the builder says so. */
const V2_NOT_OBJECT = /must describe objects/;

export const inputSchemaNotObject: Rule = {
  id: 'input-schema-not-object',
  defaultSeverity: 'error',
  languages: ['typescript'],
  summary: 'The inputSchema root is not an object / raw shape.',
  checkTool(tool: ToolDefinition, ctx: RuleContext) {
    if (!tool.inputSchemaSpan) return [];
    const v2 = tool.unresolved.some((u) => u.part === 'inputSchema' && V2_NOT_OBJECT.test(u.reason));
    if (!tool.inputSchemaNotObject && !v2) return [];
    const expr = spanText(ctx, tool.inputSchemaSpan);
    const lib = schemaLibraryOf(tool, ctx);
    // Only a zod value can be wrapped in z.object; the other libraries' object types are spelled differently.
    const fixes =
      expr !== undefined && tool.inputSchemaSpan.file === tool.file && lib === 'zod'
        ? [{ title: 'Wrap in z.object({ value: ... }) (then read args.value in the handler)', edits: [replace(tool.inputSchemaSpan, `z.object({ value: ${expr} })`)], safe: false }]
        : [];
    const wrap = {
      zod: '`z.object({ value: z.string() })`',
      arktype: '`type({ value: "string" })`',
      valibot: '`toStandardJsonSchema(v.object({ value: v.string() }))`',
      'json-schema': '`{ "type": "object", "properties": { "value": ... } }`',
    }[lib];
    const message = v2
      ? 'The inputSchema root is not an object: SDK v2 throws "MCP tool and prompt schemas must describe objects" when it lists tools, so tools/list fails ' +
        `and the model gets no tool of this server at all. Tool arguments are always an object: wrap the value in a named property, e.g. ${wrap}.`
      : 'The inputSchema root is not an object: tools/list then publishes an empty object schema, so the model sees no parameters, ' +
        'while every call is still validated against this schema and fails. Tool arguments are always an object: wrap the value in a named property, ' +
        'e.g. `z.object({ value: z.string() })`, or give a raw shape `{ value: z.string() }`.';
    return [finding(tool, tool.inputSchemaSpan, message, fixes)];
  },
};
