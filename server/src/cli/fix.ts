import type { FileAnalysis } from '../service';
import type { Fix } from '../rules/types';
import { applyEdits, fixAll } from '../rules';
import { editsByFile } from '../lsp/fixes';

const MAX_FIX_PASSES = 10;

export interface FixOutcome {
  /** Fixes applied, over all passes. */
  applied: number;
  /** Files whose text changed. */
  files: Set<string>;
  /** Safe fixes left alone because they edit a file outside the checked paths (never half-applied). */
  outside: { title: string; files: string[] }[];
}

/**
 * Applies safe fixes until none is left (at most MAX_FIX_PASSES passes, as ESLint does): each pass analyses the
 * current texts, applies every non-colliding safe fix, and goes again on what changed. Texts live in `texts`;
 * the caller writes them.
 */
export function fixUntilStable(files: string[], texts: Map<string, string>, analyze: (file: string, text: string) => FileAnalysis): FixOutcome {
  const outcome: FixOutcome = { applied: 0, files: new Set(), outside: [] };
  let pending = [...files];
  for (let pass = 0; pass < MAX_FIX_PASSES && pending.length; pass++) {
    const touched = new Set<string>();
    for (const file of pending) {
      const text = texts.get(file);
      if (text === undefined) continue;
      const findings = analyze(file, text).findings.map((f) => ({ ...f, fixes: f.fixes.filter((x) => !x.safe || heldOrNoted(x, texts, outcome)) }));
      const { fixes, edits: chosen } = fixAll(findings);
      if (!fixes.length) continue;
      for (const [target, edits] of editsByFile(chosen)) {
        const before = texts.get(target) as string;
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

/** True when every edit of `fix` lands in a file this run holds; else the fix is noted once as left outside. */
function heldOrNoted(fix: Fix, texts: Map<string, string>, outcome: FixOutcome): boolean {
  const outside = [...new Set(fix.edits.map((e) => e.span.file).filter((f) => !texts.has(f)))];
  if (!outside.length) return true;
  if (!outcome.outside.some((o) => o.title === fix.title && o.files.join() === outside.join())) outcome.outside.push({ title: fix.title, files: outside });
  return false;
}
