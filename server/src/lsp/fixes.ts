import type { Edit, Finding, Fix } from '../rules/types';

/** Edits grouped per file, sorted by start. */
export function editsByFile(edits: Edit[]): Map<string, Edit[]> {
  const out = new Map<string, Edit[]>();
  for (const e of edits) out.set(e.span.file, [...(out.get(e.span.file) ?? []), e]);
  for (const list of out.values()) list.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
  return out;
}

/** Two edits collide when their ranges overlap, or both insert at the same point (the order would be a guess). */
function collides(a: Edit, b: Edit): boolean {
  if (a.span.file !== b.span.file) return false;
  const aInsert = a.span.start === a.span.end;
  const bInsert = b.span.start === b.span.end;
  if (aInsert && bInsert) return a.span.start === b.span.start;
  // Half-open overlap; an insertion strictly inside a replaced range also overlaps by this test.
  return a.span.start < b.span.end && b.span.start < a.span.end;
}

/**
 * The fixes `source.fixAll.toolsmith` and `toolsmith check --fix` apply: for each finding (in source order) its
 * first safe fix, skipped when one of its edits collides with an edit already chosen. What is skipped is picked up
 * by the next pass (the CLI loops; the editor offers the action again).
 */
export function selectSafeFixes(findings: Finding[]): Fix[] {
  const chosen: Fix[] = [];
  const taken: Edit[] = [];
  const ordered = [...findings].sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
  for (const f of ordered) {
    const fix = f.fixes.find((x) => x.safe && x.edits.length > 0);
    if (!fix) continue;
    if (fix.edits.some((e) => taken.some((t) => collides(e, t)))) continue;
    if (fix.edits.some((e, i) => fix.edits.some((o, j) => i < j && collides(e, o)))) continue;
    chosen.push(fix);
    taken.push(...fix.edits);
  }
  return chosen;
}

/** Applies non-overlapping edits of one file to its text. */
export function applyEdits(text: string, edits: Edit[]): string {
  const sorted = [...edits].sort((a, b) => b.span.start - a.span.start || b.span.end - a.span.end);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.span.start) + e.newText + out.slice(e.span.end);
  return out;
}
