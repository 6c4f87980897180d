import type { FileAnalysis } from '../service';
import { applyEdits, fixAll } from '../rules';
import { editsByFile } from '../lsp/fixes';

const MAX_FIX_PASSES = 10;

export interface FixOutcome {
  /** Fixes applied, over all passes. */
  applied: number;
  /** Files whose text changed. */
  files: Set<string>;
}

/**
 * Applies safe fixes until none is left (at most MAX_FIX_PASSES passes, as ESLint does): each pass analyses the
 * current texts, applies every non-colliding safe fix, and goes again on what changed. Texts live in `texts`;
 * the caller writes them.
 */
export function fixUntilStable(
  files: string[],
  texts: Map<string, string>,
  analyze: (file: string, text: string) => FileAnalysis,
): FixOutcome {
  const outcome: FixOutcome = { applied: 0, files: new Set() };
  let pending = [...files];
  for (let pass = 0; pass < MAX_FIX_PASSES && pending.length; pass++) {
    const touched = new Set<string>();
    for (const file of pending) {
      const text = texts.get(file);
      if (text === undefined) continue;
      const { fixes, edits: chosen } = fixAll(analyze(file, text).findings);
      if (!fixes.length) continue;
      for (const [target, edits] of editsByFile(chosen)) {
        const before = texts.get(target);
        if (before === undefined) continue;
        const after = applyEdits(before, edits, target);
        if (after === before) continue;
        texts.set(target, after);
        touched.add(target);
        outcome.files.add(target);
      }
      outcome.applied += fixes.length;
    }
    pending = files.filter((f) => touched.has(f));
  }
  return outcome;
}
