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
 * Shifts every offset at or after `from` by `delta`, in place. In place because the previous state is dropped right
 * after (a failed incremental step is replaced by a full analysis). `seen` spans one step, so an object reachable
 * twice (a tool's span reused by its finding) moves once.
 */
function shift<T>(value: T, file: string, from: number, delta: number, seen: WeakSet<object>): T {
  if (value && typeof value === 'object') {
    forEachOffset(value, file, seen, (o, k, x) => {
      if (x >= from) o[k] = x + delta;
    });
  }
  return value;
}

/**
 * An upper bound of the offsets `shift` could move in a tool or a finding list, kept per object. A tool that ends
 * before the edit has nothing to move: typing in the middle of a file walks only the tools after it.
 */
const offsetBounds = new WeakMap<object, number>();

function offsetBound(value: object, file: string): number {
  let bound = offsetBounds.get(value);
  if (bound === undefined) {
    let max = -1;
    forEachOffset(value, file, new Set<object>(), (_o, _k, x) => {
      if (x > max) max = x;
    });
    offsetBounds.set(value, (bound = max));
  }
  return bound;
}

/** `shift`, skipped when nothing in `value` is at or after `from`; keeps the bound true for the next edit. */
export function shiftBounded<T extends object>(value: T, file: string, from: number, delta: number, seen: WeakSet<object>): T {
  const bound = offsetBound(value, file);
  if (bound < from) return value;
  shift(value, file, from, delta, seen);
  // Moved offsets are at most bound + delta; the others stayed below `from` (and at most bound).
  offsetBounds.set(value, Math.max(bound + delta, Math.min(bound, from - 1)));
  return value;
}

/** Model keys whose value is JSON data (model.ts: contract, schema, Located/ConstraintFact/AnnotationEntry value). */
const JSON_VALUED = new Set(['contract', 'schema', 'value']);
