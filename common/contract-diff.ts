/**
 * Predicted (static analysis) vs live (the running server's tools/list) contract of one tool, field by field, and
 * the likely reasons when they differ. Pure logic: the client gathers the facts (server start time, file times,
 * installed SDK version), this module decides what to say.
 */
import type { JsonSchema, JsonValue } from './json';
import type { LspRange } from './protocol';

export interface FieldDifference {
  /** Contract path: `description`, `inputSchema.properties.limit.maximum`, `inputSchema.required`, `annotations`. */
  path: string;
  /** added = only live has it; removed = only the prediction has it; changed = both, different values. */
  kind: 'added' | 'removed' | 'changed';
  /** JSON text of the predicted value (undefined when absent). */
  predicted?: string;
  /** JSON text of the live value (undefined when absent). */
  live?: string;
  /** Set when an unresolved part of the prediction covers this path. */
  unresolved?: string;
}

export type DiffReason =
  | { kind: 'stale'; message: string; action: 'restart' }
  | { kind: 'unsaved'; message: string; action: 'save' }
  | { kind: 'unresolved'; message: string; part: string; uri: string; range: LspRange }
  | { kind: 'sdk-version'; message: string }
  | { kind: 'unexplained'; message: string };

export interface ContractDiff {
  toolName: string | undefined;
  /** same: deep-equal (key order ignored); different: see differences; missing-live / missing-predicted: one side has no such tool. */
  status: 'same' | 'different' | 'missing-live' | 'missing-predicted';
  differences: FieldDifference[];
  /** Why they may differ, most likely first. Empty when status is 'same'. */
  reasons: DiffReason[];
  /** Pretty JSON of the live tools/list entry (for a side-by-side view), when the server publishes the tool. */
  liveJson?: string;
}

function isObject(v: JsonValue | undefined): v is { [key: string]: JsonValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function text(v: JsonValue | undefined): string | undefined {
  return v === undefined ? undefined : JSON.stringify(v);
}

/** Deep equality with object key order ignored; array order matters (as for `required`). */
export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

function join(base: string, key: string): string {
  return base ? `${base}.${key}` : key;
}

/**
 * Field-by-field differences. Objects are walked key by key; arrays of objects (anyOf branches, prefixItems) index by
 * index; arrays of plain values (`required`, `enum`, `type`) are reported whole, which reads better than per index.
 */
export function diffJson(predicted: JsonValue | undefined, live: JsonValue | undefined, path = ''): FieldDifference[] {
  if (jsonEqual(predicted, live)) return [];
  if (predicted === undefined) return [{ path, kind: 'added', live: text(live) }];
  if (live === undefined) return [{ path, kind: 'removed', predicted: text(predicted) }];
  if (isObject(predicted) && isObject(live)) {
    const keys = [...Object.keys(predicted), ...Object.keys(live).filter((k) => !(k in predicted))];
    return keys.flatMap((k) => diffJson(predicted[k], live[k], join(path, k)));
  }
  if (Array.isArray(predicted) && Array.isArray(live) && predicted.length === live.length && predicted.some((x) => isObject(x) || Array.isArray(x))) {
    return predicted.flatMap((x, i) => diffJson(x, live[i], `${path}[${i}]`));
  }
  return [{ path, kind: 'changed', predicted: text(predicted), live: text(live) }];
}

export interface CompareInput {
  toolName: string | undefined;
  /** The static prediction (undefined when the source no longer registers this tool). */
  predicted: JsonSchema | undefined;
  /** The live tools/list entry (undefined when the running server does not publish it). */
  live: JsonSchema | undefined;
  unresolved: { part: string; reason: string; uri: string; range: LspRange }[];
  /** The server was started before the last save of its source or one of its dependencies (message says which). */
  stale?: { message: string };
  /** The editor holds unsaved changes: the prediction follows the buffer, the server runs what is on disk. */
  unsaved?: boolean;
  /** SDK versions: what the analysis assumed (workspace manifest) and what the server actually loads. */
  sdk?: { packageName: string; predicted?: string; installed?: string };
}

function coveredBy(path: string, part: string): boolean {
  return path === part || path.startsWith(part + '.') || path.startsWith(part + '[') || part.startsWith(path + '.');
}

/** Compares one tool and explains the differences. */
export function compareContracts(input: CompareInput): ContractDiff {
  const { predicted, live } = input;
  const base: ContractDiff = { toolName: input.toolName, status: 'same', differences: [], reasons: [] };
  if (live !== undefined) base.liveJson = JSON.stringify(live, null, 2);
  if (predicted === undefined && live === undefined) return base;

  if (live === undefined) base.status = 'missing-live';
  else if (predicted === undefined) base.status = 'missing-predicted';
  else {
    base.differences = diffJson(predicted, live).map((d) => {
      const hit = input.unresolved.find((u) => coveredBy(d.path, u.part));
      return hit ? { ...d, unresolved: `${hit.part}: ${hit.reason}` } : d;
    });
    base.status = base.differences.length ? 'different' : 'same';
  }
  if (base.status === 'same') return base;

  const reasons: DiffReason[] = [];
  if (input.unsaved) {
    reasons.push({
      kind: 'unsaved',
      action: 'save',
      message: 'The editor has unsaved changes: the preview follows the editor, the running server runs the file on disk. Save, then restart the server.',
    });
  }
  if (input.stale) reasons.push({ kind: 'stale', action: 'restart', message: `The server is running stale code: ${input.stale.message} Restart it to load the current source.` });
  const parts = new Set<string>();
  for (const u of input.unresolved) {
    const touches = base.status !== 'different' || base.differences.some((d) => coveredBy(d.path, u.part));
    if (touches && !parts.has(u.part)) {
      parts.add(u.part);
      reasons.push({ kind: 'unresolved', part: u.part, uri: u.uri, range: u.range, message: `Toolsmith could not resolve ${u.part} statically (${u.reason}); the live server shows its real value.` });
    }
  }
  const sdk = input.sdk;
  if (sdk?.predicted && sdk.installed && !versionSatisfies(sdk.predicted, sdk.installed)) {
    reasons.push({
      kind: 'sdk-version',
      message: `The analysis assumed ${sdk.packageName} ${sdk.predicted} (from the workspace manifest) but the server loads ${sdk.installed}: SDK versions publish schemas differently.`,
    });
  }
  if (base.status === 'missing-live' && !reasons.length) {
    reasons.push({ kind: 'unexplained', message: 'The running server does not publish this tool: it may be registered conditionally, or on another server instance.' });
  } else if (base.status === 'missing-predicted' && !reasons.length) {
    reasons.push({ kind: 'unexplained', message: 'The source no longer registers this tool but the running server still publishes it.' });
  } else if (!reasons.length) {
    reasons.push({ kind: 'unexplained', message: 'No known cause: the prediction should equal the live contract. This is a Toolsmith bug — please report it with both JSON texts.' });
  }
  base.reasons = reasons;
  return base;
}

/** `^1.32.2`, `~=2.3.0`, `==2.3.0`, `v1.32.2` -> `1.32.2`; ranges are reduced to their base version. */
function normalizeVersion(v: string): string {
  const m = /(\d+(?:\.\d+){0,2})/.exec(v);
  return m ? m[1] : v.trim();
}

/** Whether a declared range (package.json / requirements) admits the installed version, for the common range forms. */
export function versionSatisfies(declared: string, installed: string): boolean {
  const d = declared.trim();
  const inst = normalizeVersion(installed).split('.').map(Number);
  const base = normalizeVersion(d).split('.').map(Number);
  while (base.length < 3) base.push(0);
  while (inst.length < 3) inst.push(0);
  const cmp = (a: number[], b: number[]) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
  if (/^(\^)/.test(d)) return inst[0] === base[0] && (base[0] !== 0 || inst[1] === base[1]) && cmp(inst, base) >= 0;
  if (/^(~=|~)/.test(d)) return inst[0] === base[0] && inst[1] === base[1] && cmp(inst, base) >= 0;
  if (/^>=/.test(d)) return cmp(inst, base) >= 0;
  if (/^(==|=)?\s*\d/.test(d)) return cmp(inst, base) === 0;
  return true;
}
