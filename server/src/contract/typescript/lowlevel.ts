/**
 * What the TypeScript SDK's low-level `Server` publishes: exactly the objects its tools/list handler returns
 * (`server.setRequestHandler(ListToolsRequestSchema, ...)`), serialised as JSON — the SDK adds nothing. Servers
 * written this way build their input schemas as JSON Schema literals or with zod-to-json-schema, which is run here
 * as the server runs it (the same package, the caller's options).
 */
import { zodToJsonSchema } from 'zod-to-json-schema';
import type { JsonSchema, JsonValue } from '../../analysis/model';

/** `zodToJsonSchema(schema, options?)` as the server calls it in its handler. */
export function zodToJsonSchemaAsPublished(...args: unknown[]): unknown {
  const [schema, options] = args as Parameters<typeof zodToJsonSchema>;
  return zodToJsonSchema(schema, options);
}

/** The tools/list entry of one tool object the handler returns: its JSON (undefined dropped), or why it has none. */
export function lowLevelToolContract(value: unknown): { contract: JsonSchema } | { error: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: 'the entry is not an object' };
  let json: JsonValue;
  try {
    json = JSON.parse(JSON.stringify(value) ?? 'null') as JsonValue;
  } catch (err) {
    return { error: `the entry is not JSON data (${err instanceof Error ? err.message : String(err)})` };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { error: 'the entry is not a JSON object' };
  return { contract: json };
}
