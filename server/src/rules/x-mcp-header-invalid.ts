/**
 * `x-mcp-header` (protocol revision 2026-07-28, Streamable HTTP "Schema Extension", SEP-2243): a property of a tool's
 * inputSchema may ask the client to mirror its value into an `Mcp-Param-<name>` HTTP header. The constraints are
 * the ones the SDK v2 checks (`scanXMcpHeaderDeclarations` in @modelcontextprotocol/core-internal): a conforming
 * client drops a tool whose declaration breaks any of them from tools/list, and SDK v2's own client does so on every
 * 2026-07-28 HTTP connection — the model never sees the tool, and the server only prints a console warning.
 */
import type { JsonSchema, ToolDefinition } from '../analysis/model';
import type { Rule, RuleFinding } from './types';
import { finding, toolLabel, toolSpan } from './util/finding';

const KEY = 'x-mcp-header';
/** RFC 9110 §5.1 `token` (1*tchar): no spaces, control characters or delimiters. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PERMITTED_TYPES = new Set(['string', 'integer', 'boolean']);
/** Keywords a declaration may not sit under: only a chain of `properties` is statically reachable. */
// prettier-ignore
const UNREACHABLE = ['items', 'prefixItems', 'contains', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'propertyNames', 'patternProperties', 'dependentSchemas', 'oneOf', 'anyOf', 'allOf', 'not', 'if', 'then', 'else', '$defs', 'definitions'];
const NAMED_SUBSCHEMAS = new Set(['patternProperties', 'dependentSchemas', '$defs', 'definitions']);

interface Fault {
  /** The property path (`region`, `filter.owner`, `tags.<items>`). */
  path: string[];
  problem: string;
}

function faultsOf(root: JsonSchema): Fault[] {
  const faults: Fault[] = [];
  const seen = new Map<string, string>();
  const visit = (node: unknown, path: string[], reachable: boolean): void => {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
    const schema = node as Record<string, unknown>;
    if (KEY in schema) {
      const raw = schema[KEY];
      const type = typeof schema.type === 'string' ? schema.type : undefined;
      if (!reachable || path.length === 0) {
        faults.push({ path, problem: 'is only allowed on a property reached through `properties` alone (not under items, additionalProperties, anyOf/oneOf/allOf/not, if/then/else or $defs)' });
      } else if (typeof raw !== 'string' || raw.length === 0) {
        faults.push({ path, problem: 'must be a non-empty string (the header name after `Mcp-Param-`)' });
      } else if (!TOKEN.test(raw)) {
        faults.push({ path, problem: `names "${raw}", which is not a valid HTTP header token (RFC 9110: no spaces, control characters or delimiters such as ()<>@,;:\\"/[]?={})` });
      } else if (type === undefined || !PERMITTED_TYPES.has(type)) {
        faults.push({
          path,
          problem: `is only allowed on a string, integer or boolean property; this one is ${type ?? 'untyped'}${type === 'number' ? ' (the spec excludes number: make it an integer)' : ''}`,
        });
      } else {
        const prior = seen.get(raw.toLowerCase());
        if (prior !== undefined) faults.push({ path, problem: `names "${raw}", already declared as "${prior}" (header names are case-insensitive: each must be unique)` });
        else seen.set(raw.toLowerCase(), raw);
      }
    }
    const props = schema.properties;
    if (props && typeof props === 'object' && !Array.isArray(props)) for (const [k, child] of Object.entries(props)) visit(child, [...path, k], reachable);
    for (const k of UNREACHABLE) {
      const sub = schema[k];
      if (sub === undefined) continue;
      const branches = Array.isArray(sub) ? sub : sub !== null && typeof sub === 'object' && NAMED_SUBSCHEMAS.has(k) ? Object.values(sub) : [sub];
      for (const b of branches) visit(b, [...path, `<${k}>`], false);
    }
  };
  visit(root, [], true);
  return faults;
}

/** Whether `key` is a key of any object in this JSON value (what faultsOf can find), without serialising it. */
function hasKeyDeep(value: unknown, key: string): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => hasKeyDeep(v, key));
  if (Object.prototype.hasOwnProperty.call(value, key)) return true;
  for (const k in value) if (hasKeyDeep((value as Record<string, unknown>)[k], key)) return true;
  return false;
}

export const xMcpHeaderInvalid: Rule = {
  id: 'x-mcp-header-invalid',
  defaultSeverity: 'error',
  // Python: pydantic's json_schema_extra (where the key would be written) is not modelled yet (shown unresolved).
  languages: ['typescript'],
  summary: 'An `x-mcp-header` declaration in inputSchema that breaks the 2026-07-28 rules: clients drop the whole tool.',
  checkTool(tool: ToolDefinition): RuleFinding[] {
    const input = tool.contract.inputSchema;
    if (!input || typeof input !== 'object' || !hasKeyDeep(input, KEY)) return [];
    return faultsOf(input as JsonSchema).map((f) => {
      const param = tool.parameters.find((p) => p.name === f.path[0]);
      const where = f.path.length ? `on "${f.path.join('.')}"` : 'on the inputSchema root';
      return finding(
        tool,
        param?.nameSpan ?? tool.inputSchemaSpan ?? toolSpan(tool),
        `The x-mcp-header declaration ${where} of ${toolLabel(tool)} ${f.problem}. A tool with an invalid x-mcp-header declaration is invalid as a whole: ` +
          'conforming Streamable HTTP clients (SDK v2’s own on 2026-07-28 connections) remove it from tools/list, so the model never sees this tool. ' +
          'Fix the declaration or remove it.',
      );
    });
  },
};
