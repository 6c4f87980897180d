/**
 * The resources/list and resources/templates/list entries each TypeScript SDK line publishes for one registration,
 * built from the values the front-end rebuilt.
 *
 * 1.x (@modelcontextprotocol/sdk 1.10 to 1.32, dist/cjs/server/mcp.js): `resource(name, uriOrTemplate, [metadata], cb)`
 * and `registerResource(name, uriOrTemplate, config, cb)` (1.13.0+; `config` is stored as the metadata, title
 * included) keep a static URI in `_registeredResources[uri]` and a `ResourceTemplate` in
 * `_registeredResourceTemplates[name]`. resources/list publishes `{ uri, name, ...metadata }` for each enabled
 * resource, then what each template's `list` callback returns (run-time values); resources/templates/list
 * publishes `{ name, uriTemplate: template.uriTemplate.toString(), ...metadata }`. The same URI (or template name)
 * registered twice throws "... is already registered"; `new ResourceTemplate(t)` parses `t` with the SDK's
 * UriTemplate, which throws on an unclosed `{`.
 * 2.x (@modelcontextprotocol/server 2.4): the same, except that registerResource takes `cacheHint` (validated by
 * `assertValidCacheHint`, a RangeError at registration) and `scopeChallenge` out of the config before it becomes
 * the metadata, and that there is no `resource()` method. The 2026-07-28 codec passes both lists through unchanged
 * (it adds `ttlMs`/`cacheScope` to the result, not to the entries).
 */
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import type { JsonValue } from '../../analysis/model';
import type { TsContractBuilder } from './index';

export interface TsResourceValues {
  kind: 'resource' | 'template';
  name: string | undefined;
  /** The URI of a resource, the URI template of a template. */
  uri: string | undefined;
  /** The statically known keys of the config (registerResource) or metadata (resource()) object. */
  metadata: Record<string, unknown>;
  /** v2: the config's `cacheHint` (validated at registration, never published). */
  cacheHint?: unknown;
}

export interface TsResourceContractResult {
  contract: { [key: string]: JsonValue };
  /** What the SDK itself would refuse: it throws at registration, so the server does not start. */
  errors: { part: 'uriTemplate' | 'cacheHint'; reason: string }[];
}

/** The wire form of a value (what JSON.stringify keeps). */
function wire(v: unknown): JsonValue {
  return JSON.parse(JSON.stringify(v) ?? 'null') as JsonValue;
}

/** Keys registerResource of 2.x takes out of the config before it stores the rest as the published metadata. */
export const V2_RESOURCE_CONFIG_ONLY: readonly string[] = ['cacheHint', 'scopeChallenge'];

/**
 * 2.x `assertValidCacheHint` (core-internal, not exported by the package): `ttlMs` a non-negative safe integer,
 * `cacheScope` "public" or "private"; anything else is a RangeError at registration.
 */
export function cacheHintError(hint: unknown, name: string | undefined): string | undefined {
  if (hint === undefined || hint === null || typeof hint !== 'object') return undefined;
  const { ttlMs, cacheScope } = hint as { ttlMs?: unknown; cacheScope?: unknown };
  const context = `resource ${String(name)}`;
  if (ttlMs !== undefined && !(typeof ttlMs === 'number' && Number.isSafeInteger(ttlMs) && ttlMs >= 0))
    return `Invalid cache hint for ${context}: ttlMs must be a non-negative safe integer (got ${String(ttlMs)})`;
  if (cacheScope !== undefined && cacheScope !== 'public' && cacheScope !== 'private') return `Invalid cache hint for ${context}: cacheScope must be 'public' or 'private' (got ${String(cacheScope)})`;
  return undefined;
}

/** What `new ResourceTemplate(template, ...)` throws on (the SDK's own UriTemplate parser; 2.x ships the same code). */
export function uriTemplateError(template: string): string | undefined {
  try {
    new UriTemplate(template);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** The resources/list (a resource) or resources/templates/list (a template) entry of one registration. */
export function buildTsResourceContract(values: TsResourceValues, opts: { builder: TsContractBuilder }): TsResourceContractResult {
  const errors: TsResourceContractResult['errors'] = [];
  const metadata: Record<string, unknown> = { ...values.metadata };
  if (opts.builder === 'sdk-standard-schema') {
    const hint = cacheHintError(values.cacheHint, values.name);
    if (hint) errors.push({ part: 'cacheHint', reason: hint });
    for (const k of V2_RESOURCE_CONFIG_ONLY) delete metadata[k];
  }
  if (values.kind === 'template' && values.uri !== undefined) {
    const err = uriTemplateError(values.uri);
    if (err) errors.push({ part: 'uriTemplate', reason: err });
  }
  // The metadata is spread last: a `name` or `uri` key in it wins, as in the SDK.
  const entry = values.kind === 'resource' ? { uri: values.uri, name: values.name, ...metadata } : { name: values.name, uriTemplate: values.uri, ...metadata };
  return { contract: wire(entry) as { [key: string]: JsonValue }, errors };
}

/**
 * The order the SDK lists its registry in: `Object.entries` of an object keyed by URI (resources) or name
 * (templates), so integer-like keys come first, ascending; the others keep their registration order. Items whose key
 * is unknown, and a key registered again (the SDK throws there), keep their place relative to each other, after.
 */
export function registryOrder<T>(items: { key: string | undefined; item: T }[]): T[] {
  const registry: Record<string, T> = {};
  const rest: T[] = [];
  for (const { key, item } of items) {
    if (key === undefined || Object.prototype.hasOwnProperty.call(registry, key)) rest.push(item);
    else registry[key] = item;
  }
  return [...Object.values(registry), ...rest];
}
