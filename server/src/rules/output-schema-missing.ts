import type { ReturnFact, ToolDefinition } from '../analysis/model';
import type { Fix, Rule, RuleContext } from './types';
import { schemaLibraryOf, type SchemaLibrary } from './util/schema-library';
import { finding, toolSpan } from './util/finding';
import { insertFirstProperty } from './util/object-edits';

const ZOD: Record<string, string> = {
  string: 'z.string()',
  number: 'z.number()',
  integer: 'z.number().int()',
  boolean: 'z.boolean()',
  array: 'z.array(z.unknown())',
  object: 'z.record(z.string(), z.unknown())',
  null: 'z.null()',
  unknown: 'z.unknown()',
};

/** `{ total: z.number(), items: z.array(z.unknown()) }` from the shape the type checker saw. */
function shapeFromReturns(returns: ReturnFact[]): string | undefined {
  const shape = returns.find((r) => r.hasStructuredContent && r.structuredShape && r.structuredShape.length > 0)?.structuredShape;
  if (!shape) return undefined;
  const props = shape.map((p) => `${/^[A-Za-z_$][\w$]*$/.test(p.name) ? p.name : JSON.stringify(p.name)}: ${ZOD[p.kind] ?? 'z.unknown()'}${p.optional ? '.optional()' : ''}`);
  return `{ ${props.join(', ')} }`;
}

const OUTPUT_EXAMPLE: Record<SchemaLibrary | 'zod-v2', string> = {
  zod: '{ total: z.number(), items: z.array(Item) }',
  'zod-v2': 'z.object({ total: z.number(), items: z.array(Item) })',
  arktype: 'type({ total: "number", items: Item.array() })',
  valibot: 'toStandardJsonSchema(v.object({ total: v.number(), items: v.array(Item) }))',
  'json-schema': 'fromJsonSchema({ type: "object", properties: { total: { type: "number" } } })',
};

/** Python return annotations that say nothing about the shape (the SDK publishes no useful outputSchema). */
const VAGUE_PY_RETURN = /^(Any|typing\.Any|object)$/;

export const outputSchemaMissing: Rule = {
  id: 'output-schema-missing',
  defaultSeverity: 'info',
  preset: 'strict',
  languages: ['typescript', 'python'],
  summary: 'The handler returns structured data but the tool declares no outputSchema (TS) / return type (Py).',
  checkTool(tool: ToolDefinition, ctx: RuleContext) {
    const h = tool.handler;
    if (!h || tool.outputSchemaSpan || tool.contract.outputSchema !== undefined) return [];
    if (tool.unresolved.some((u) => u.part.startsWith('outputSchema'))) return [];
    const span = toolSpan(tool);
    const name = tool.name.value ?? 'this tool';
    if (tool.language === 'typescript') {
      const structured = h.returns.filter((r) => r.hasStructuredContent && r.isError !== true);
      if (structured.length === 0) return [];
      const fixes: Fix[] = [];
      const lib = schemaLibraryOf(tool, ctx);
      // The shape is written in zod: only for a file whose schemas are zod. SDK v2 deprecates raw shapes: z.object(...).
      const shape = lib === 'zod' ? shapeFromReturns(structured) : undefined;
      const cfg = tool.registration.configSpan;
      if (shape && cfg && tool.registration.kind === 'registerTool') {
        const edit = insertFirstProperty(ctx, tool.file, cfg.start + 1, `outputSchema: ${tool.framework === 'ts-sdk-v2' ? `z.object(${shape})` : shape}`);
        // Not safe: once declared, the SDK validates every structuredContent against it.
        if (edit) fixes.push({ title: 'Add outputSchema from the returned shape', edits: [edit], safe: false });
      }
      return [
        finding(
          tool,
          span,
          `${name} returns structuredContent but declares no outputSchema. Without it the model and the client cannot know ` +
            `the shape of the result before calling, and the SDK does not check what you return. ` +
            `Declare it in the config, e.g. \`outputSchema: ${OUTPUT_EXAMPLE[tool.framework === 'ts-sdk-v2' && lib === 'zod' ? 'zod-v2' : lib]}\`.`,
          fixes,
        ),
      ];
    }
    // Python: the SDKs derive outputSchema from the return annotation.
    const dictReturn = h.returns.find((r) => r.valueKind === 'object' && !r.looksLikeError);
    if (!dictReturn) return [];
    if (h.returnAnnotation !== undefined && !VAGUE_PY_RETURN.test(h.returnAnnotation.trim())) return [];
    return [
      finding(
        tool,
        span,
        `${name} returns a dict but has ${h.returnAnnotation ? `the return type \`${h.returnAnnotation}\`` : 'no return type'}, ` +
          `so no outputSchema is published: the model only gets the dict as text and cannot know its fields in advance. ` +
          `Annotate the return with a TypedDict or a pydantic model (\`-> SearchResult\`) and the SDK publishes the schema and returns structured content.`,
      ),
    ];
  },
};
