import type { Edit } from '../rules/types';

/** Edits grouped per file, sorted by start (rules' `fixAll`/`applyEdits` choose and apply them). */
export function editsByFile(edits: Edit[]): Map<string, Edit[]> {
  const out = new Map<string, Edit[]>();
  for (const e of edits) out.set(e.span.file, [...(out.get(e.span.file) ?? []), e]);
  for (const list of out.values()) list.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
  return out;
}
