import type { JsonSchema } from '../analysis/model';
import type { Rule, RuleFinding } from './types';
import { finding, toolLabel } from './util/finding';
import { deref, inputSchemaOf, isObj } from './util/json-schema';

/** How many object levels a value of this schema nests (a flat object = 1, a scalar = 0). */
export function objectDepth(schema: JsonSchema, root: JsonSchema | undefined, seen: Set<JsonSchema> = new Set()): number {
  const s = deref(schema, root);
  if (seen.has(s)) return 0; // recursive model: counted once
  seen.add(s);
  let depth = 0;
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const list = s[key];
    if (Array.isArray(list)) for (const b of list) if (isObj(b)) depth = Math.max(depth, objectDepth(b, root, seen));
  }
  if (isObj(s.items)) depth = Math.max(depth, objectDepth(s.items, root, seen));
  const isObject = s.type === 'object' || isObj(s.properties);
  if (isObject) {
    let inner = 0;
    if (isObj(s.properties)) for (const v of Object.values(s.properties)) if (isObj(v)) inner = Math.max(inner, objectDepth(v, root, seen));
    if (isObj(s.additionalProperties)) inner = Math.max(inner, objectDepth(s.additionalProperties, root, seen));
    depth = Math.max(depth, 1 + inner);
  }
  seen.delete(s);
  return depth;
}

export const paramNestedTooDeep: Rule = {
  id: 'param-nested-too-deep',
  defaultSeverity: 'info',
  languages: ['typescript', 'python'],
  summary: 'Objects nested more than toolsmith.thresholds.maxNestingDepth (2) levels.',
  checkTool(tool, ctx) {
    const out: RuleFinding[] = [];
    const root = inputSchemaOf(tool);
    const max = ctx.settings.thresholds.maxNestingDepth;
    for (const p of tool.parameters) {
      if (!p.schema) continue;
      const depth = objectDepth(p.schema, root);
      if (depth <= max) continue;
      out.push(
        finding(
          tool,
          p.nameSpan,
          `Parameter "${p.name}" of ${toolLabel(tool)} nests objects ${depth} levels deep (more than ${max}): models fill deep ` +
            'objects badly — misplaced keys, missing required fields, invented levels. Flatten it into top-level parameters ' +
            'or split the tool.',
        ),
      );
    }
    return out;
  },
};
