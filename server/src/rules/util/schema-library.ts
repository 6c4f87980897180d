/**
 * How a TypeScript tool's schemas are written, so a message tells the author what to write in their own library:
 * SDK v2 takes any Standard Schema (zod 4, ArkType, Valibot through @valibot/to-json-schema) or raw JSON Schema
 * (`fromJsonSchema`), and `.describe("…")` means nothing to a Valibot schema.
 *
 * Read from the text the front-end located (the schema expression, the file's import lines), never parsed.
 */
import type { ToolDefinition } from '../../analysis/model';
import type { RuleContext } from '../types';
import { memoByText } from './memo';
import { spanText } from './source';

export type SchemaLibrary = 'zod' | 'arktype' | 'valibot' | 'json-schema';

const importsOf = memoByText((text: string) => ({
  zod: /from\s+["']zod(?:\/v[34])?["']|require\(\s*["']zod/.test(text),
  arktype: /from\s+["']arktype["']|require\(\s*["']arktype["']/.test(text),
  valibot: /from\s+["']valibot["']|require\(\s*["']valibot["']/.test(text),
}));

/** The library the tool's input (else output) schema is written with; zod when nothing says otherwise. */
export function schemaLibraryOf(tool: ToolDefinition, ctx: RuleContext): SchemaLibrary {
  if (tool.language !== 'typescript') return 'zod';
  const span = tool.inputSchemaSpan ?? tool.outputSchemaSpan;
  const expr = span ? (spanText(ctx, span) ?? '') : '';
  if (/^\s*fromJsonSchema\s*\(/.test(expr)) return 'json-schema';
  if (/^\s*toStandardJsonSchema\s*\(/.test(expr)) return 'valibot';
  const imports = importsOf(ctx.textOf(span?.file ?? tool.file) ?? '');
  // A zod chain the front-end read as parameter types is zod whatever else the file imports.
  if (tool.parameters.some((p) => p.typeText !== undefined) || imports.zod) return 'zod';
  if (imports.arktype) return 'arktype';
  if (imports.valibot) return 'valibot';
  return 'zod';
}

/** What to write, in the tool's schema library, for one JSON Schema property constraint. */
export type Constraint =
  { kind: 'description' } | { kind: 'maxLength'; value: number } | { kind: 'maximum'; value: number } | { kind: 'integer' } | { kind: 'enum'; values: string[] } | { kind: 'types' };

export function spell(lib: SchemaLibrary, c: Constraint): string {
  switch (c.kind) {
    case 'description':
      return { zod: '.describe("…")', arktype: '.describe("…")', valibot: 'v.description("…") in its v.pipe(...)', 'json-schema': '"description": "…"' }[lib];
    case 'maxLength':
      return { zod: `.max(${c.value})`, arktype: `"string <= ${c.value}"`, valibot: `v.maxLength(${c.value}) in its v.pipe(...)`, 'json-schema': `"maxLength": ${c.value}` }[lib];
    case 'maximum':
      return { zod: `.max(${c.value})`, arktype: `"number <= ${c.value}"`, valibot: `v.maxValue(${c.value}) in its v.pipe(...)`, 'json-schema': `"maximum": ${c.value}` }[lib];
    case 'integer':
      return { zod: '.int()', arktype: '"number.integer"', valibot: 'v.integer() in its v.pipe(...)', 'json-schema': '"type": "integer"' }[lib];
    case 'enum': {
      const list = c.values.map((v) => JSON.stringify(v)).join(', ');
      return {
        zod: `z.enum([${list}])`,
        arktype: `"${c.values.map((v) => `'${v.replace(/'/g, "\\'")}'`).join(' | ')}"`,
        valibot: `v.picklist([${list}])`,
        'json-schema': `"enum": [${list}]`,
      }[lib];
    }
    case 'types':
      return {
        zod: 'z.string(), z.number().int(), z.enum([...]), z.object({...})',
        arktype: '"string", "number.integer", "\'a\' | \'b\'", a nested type({...})',
        valibot: 'v.string(), v.pipe(v.number(), v.integer()), v.picklist([...]), v.object({...})',
        'json-schema': '"type": "string" / "integer" / "object", "enum": [...]',
      }[lib];
  }
}

/** Lower and upper bounds of a number in the tool's schema library (zod is spelled by the caller, as a chain). */
export function spellBounds(lib: Exclude<SchemaLibrary, 'zod'>, min: number | undefined, max: number | undefined, integer: boolean): string {
  if (lib === 'arktype') return `"${min !== undefined ? `${min} <= ` : ''}${integer ? 'number.integer' : 'number'}${max !== undefined ? ` <= ${max}` : ''}"`;
  if (lib === 'valibot') return `${[...(min !== undefined ? [`v.minValue(${min})`] : []), ...(max !== undefined ? [`v.maxValue(${max})`] : [])].join(', ')} in its v.pipe(...)`;
  return [...(min !== undefined ? [`"minimum": ${min}`] : []), ...(max !== undefined ? [`"maximum": ${max}`] : [])].join(', ');
}
