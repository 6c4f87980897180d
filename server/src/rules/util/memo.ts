/**
 * Memoisation for the facts several rules derive from the same input (a tool's handler effects, a schema's types,
 * a name's words, a file's import lines). Every rule used to recompute them, per rule and per parameter; on a file
 * with hundreds of tools that was most of the rules' cost.
 *
 * Three kinds, by what the key is:
 *  - strings (names, descriptions): immutable, so a global bounded cache is always right;
 *  - whole file texts: the same, with only the last few texts kept (they are large);
 *  - objects of one analysis (tools, schemas): only inside `withRuleMemo` (one `runRules` pass), so an object
 *    changed between two passes — a test editing a ToolDefinition, the language server shifting offsets — is
 *    never answered from an older pass. Outside a pass the function simply runs.
 * Cached arrays are frozen: a caller that tried to change a shared answer would throw instead of corrupting it.
 */

// The pass in progress: 0 outside a pass. Each memo keeps its own WeakMap and drops it when the pass changes.
let pass = 0;
let passes = 0;

/** Runs `fn` with per-object memos active (nested calls share the outer pass). */
export function withRuleMemo<T>(fn: () => T): T {
  if (pass !== 0) return fn();
  pass = ++passes;
  try {
    return fn();
  } finally {
    pass = 0;
  }
}

/** `compute(key)` cached per key object for the duration of one rules pass. */
export function memoByObject<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  let cache = new WeakMap<K, V>();
  let cachePass = 0;
  return (key: K): V => {
    if (pass === 0) return compute(key);
    if (cachePass !== pass) {
      cache = new WeakMap();
      cachePass = pass;
    }
    const hit = cache.get(key);
    if (hit !== undefined || cache.has(key)) return hit as V;
    const value = compute(key);
    cache.set(key, value);
    return value;
  };
}

/**
 * Like memoByObject with a second, optional object key (a schema and the root its $refs resolve against). One
 * entry per key object: a schema is asked about with one root (its tool's inputSchema), so the last root is kept.
 */
export function memoByObjectPair<K extends object, R extends object, V>(compute: (key: K, root: R | undefined) => V): (key: K, root: R | undefined) => V {
  let cache = new WeakMap<K, { root: R | undefined; value: V }>();
  let cachePass = 0;
  return (key: K, root: R | undefined): V => {
    if (pass === 0) return compute(key, root);
    if (cachePass !== pass) {
      cache = new WeakMap();
      cachePass = pass;
    }
    const hit = cache.get(key);
    if (hit !== undefined && hit.root === root) return hit.value;
    const value = compute(key, root);
    cache.set(key, { root, value });
    return value;
  };
}

/** A pure function of a string, cached (bounded: cleared when it grows past `max` entries). */
export function memoByString<V>(compute: (key: string) => V, max = 5000): (key: string) => V {
  const cache = new Map<string, V>();
  return (key: string): V => {
    const hit = cache.get(key);
    if (hit !== undefined || cache.has(key)) return hit as V;
    const value = compute(key);
    if (cache.size >= max) cache.clear();
    cache.set(key, value);
    return value;
  };
}

/**
 * Per file text: `compute(text)` for the few most recent texts (a string is immutable, so its answer never goes
 * stale; the language server and the CLI work on one file at a time, so a handful is plenty).
 */
export function memoByText<V>(compute: (text: string) => V, keep = 4): (text: string) => V {
  const texts: string[] = [];
  const values: V[] = [];
  return (text: string): V => {
    for (let i = 0; i < texts.length; i++) if (texts[i] === text) return values[i];
    const value = compute(text);
    texts.unshift(text);
    values.unshift(value);
    if (texts.length > keep) {
      texts.pop();
      values.pop();
    }
    return value;
  };
}

/** Freezes an array answer that several callers share (typed as before: callers only read it). */
export function frozen<T>(list: T[]): T[] {
  return Object.freeze(list) as T[];
}
