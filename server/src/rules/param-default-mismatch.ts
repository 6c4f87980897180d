import type { JsonValue } from '../analysis/model';
import type { Rule, RuleFinding } from './types';
import { finding, toolLabel } from './util/finding';
import { branches, inputSchemaOf, jsonTypeOf, schemaTypes } from './util/json-schema';
import { pythonBaseType } from './util/python-edits';

/** `str` -> `str | None`; `Annotated[str, Field(...)]` -> `Annotated[str | None, Field(...)]`. */
function optionalSpelling(typeText: string): string {
  const base = pythonBaseType(typeText);
  if (base.offset === 0) return `${typeText} | None`;
  return typeText.slice(0, base.offset) + `${base.text} | None` + typeText.slice(base.offset + base.text.length);
}

function fitsType(value: JsonValue, types: Set<string>): boolean {
  const t = jsonTypeOf(value);
  if (types.has(t)) return true;
  return t === 'integer' && types.has('number');
}

export const paramDefaultMismatch: Rule = {
  id: 'param-default-mismatch',
  defaultSeverity: 'warning',
  languages: ['typescript', 'python'],
  summary: 'Default not of the declared type, or not in the enum.',
  checkTool(tool) {
    const out: RuleFinding[] = [];
    const root = inputSchemaOf(tool);
    for (const p of tool.parameters) {
      const def = p.defaultValue;
      if (!def || def.value === undefined || !p.schema || p.untyped) continue; // untyped: param-untyped says it
      const value = def.value;
      const types = schemaTypes(p.schema, root);
      const shown = JSON.stringify(value);
      if (types.size > 0 && !fitsType(value, types)) {
        const declared = [...types].join(' | ');
        const hint =
          value === null && tool.language === 'python'
            ? ` Declare it optional: "${p.name}: ${optionalSpelling(p.typeText ?? 'T')} = None".`
            : ` Use a default of type ${declared}, or change the type.`;
        out.push(
          finding(
            tool,
            def.span,
            `The default of "${p.name}" in ${toolLabel(tool)} is ${shown} (${jsonTypeOf(value)}) but the parameter is ${declared}: the ` +
              `published schema contradicts itself, and a model that copies the default sends a value the schema forbids.${hint}`,
          ),
        );
        continue;
      }
      const enums = branches(p.schema, root).find((b) => Array.isArray(b.enum))?.enum as JsonValue[] | undefined;
      const allowsNull = types.has('null');
      if (enums && !(value === null && allowsNull) && !enums.some((e) => JSON.stringify(e) === shown)) {
        out.push(
          finding(
            tool,
            def.span,
            `The default of "${p.name}" in ${toolLabel(tool)} is ${shown}, which is not one of its allowed values (${enums.map((e) => JSON.stringify(e)).join(', ')}): ` +
              'the model sees a default it is not allowed to send. Pick one of the allowed values.',
          ),
        );
      }
    }
    return out;
  },
};
