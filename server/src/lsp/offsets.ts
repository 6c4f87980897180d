/**
 * Source offsets in analysis results, moved by an edit: the incremental path (incremental.ts) moves the tools and
 * findings it carries over, and the language server's main thread (analysisPool.ts) moves its own copy of them by the
 * same edit, so that a keystroke's result crosses the thread boundary as the one re-analysed tool (AnalysisDelta).
 */

/**
 * Calls `visit` with each source offset in `value`: the start and end of this file's spans and every `*Offset`
 * number. JSON values (the published contract, parameter schemas, literal values) hold no source offsets: not walked,
 * so a schema property that happens to be named `...Offset` is never taken for one. Each object is visited once per
 * `seen` (findings share span objects with their tool).
 */
function forEachOffset(value: object, file: string, seen: { has(o: object): boolean; add(o: object): unknown }, visit: (owner: Record<string, unknown>, key: string, offset: number) => void): void {
  // Runs on every tool and finding of the file at each keystroke: plain loops, no per-object allocation.
  const walk = (v: object): void => {
    if (seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) {
      for (const x of v as unknown[]) if (x && typeof x === 'object') walk(x);
      return;
    }
    const o = v as Record<string, unknown>;
    const isSpan = o.file === file && typeof o.start === 'number' && typeof o.end === 'number';
    for (const k in o) {
      if (!Object.prototype.hasOwnProperty.call(o, k)) continue;
      const x = o[k];
      if (typeof x === 'number') {
        if ((isSpan && (k === 'start' || k === 'end')) || k.endsWith('Offset')) visit(o, k, x);
      } else if (x && typeof x === 'object' && !JSON_VALUED.has(k)) walk(x);
    }
  };
  walk(value);
}

/**
 * Where the offsets of a tool or a finding list are: the objects holding them, each once, and their offset keys
 * (owners[i] holds keys[i]). Found by one walk per object and kept: only the numbers change from one keystroke to the
 * next, so each later keystroke moves them without walking the tool again. With the highest offset (see shiftBounded).
 */
interface OffsetSlots {
  owners: Record<string, unknown>[];
  keys: string[][];
  bound: number;
}
const slotsCache = new WeakMap<object, OffsetSlots>();

function slotsOf(value: object, file: string): OffsetSlots {
  let slots = slotsCache.get(value);
  if (slots === undefined) {
    // An object's offsets may be met between walks of its children (`span`, then `objectEndOffset`): keys by owner.
    const byOwner = new Map<Record<string, unknown>, string[]>();
    let bound = -1;
    forEachOffset(value, file, new Set<object>(), (o, k, x) => {
      const keys = byOwner.get(o);
      if (keys) keys.push(k);
      else byOwner.set(o, [k]);
      if (x > bound) bound = x;
    });
    slotsCache.set(value, (slots = { owners: [...byOwner.keys()], keys: [...byOwner.values()], bound }));
  }
  return slots;
}

/**
 * Shifts every offset at or after `from` by `delta`, in place, unless nothing in `value` is at or after `from` (a tool
 * that ends before the edit: typing in the middle of a file moves only the tools after it). In place because the
 * previous state is dropped right after (a failed incremental step is replaced by a full analysis). `seen` spans one
 * step, so an object reachable twice (a tool's span reused by its finding) moves once.
 */
export function shiftBounded<T extends object>(value: T, file: string, from: number, delta: number, seen: WeakSet<object>): T {
  const slots = slotsOf(value, file);
  if (slots.bound < from) return value;
  const { owners, keys } = slots;
  for (let i = 0; i < owners.length; i++) {
    const o = owners[i];
    if (seen.has(o)) continue;
    seen.add(o);
    for (const k of keys[i]) {
      const x = o[k] as number;
      if (x >= from) o[k] = x + delta;
    }
  }
  // Moved offsets are at most bound + delta; the others stayed below `from` (and at most bound).
  slots.bound = Math.max(slots.bound + delta, Math.min(slots.bound, from - 1));
  return value;
}

/** Model keys whose value is JSON data (model.ts: contract, schema, Located/ConstraintFact/AnnotationEntry value). */
const JSON_VALUED = new Set(['contract', 'schema', 'value']);
