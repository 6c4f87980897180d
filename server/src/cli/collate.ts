/**
 * `a.localeCompare(b)`, answered without it where the answer is certain. The first `localeCompare` of a process starts
 * ICU's collator (~15 ms of CPU, a quarter of a `toolsmith check` over cached files); file names and rule ids mostly
 * differ first at a lowercase letter, a digit or common punctuation, whose order in the root collation (what
 * `localeCompare` without a locale uses) is the table below. Two strings with the same ASCII prefix that differ next
 * at two characters of the table compare by those two (each has its own primary weight, so nothing after them counts);
 * one string a prefix of the other sorts first when the other adds only table characters; anything else (uppercase, a
 * space, non-ASCII) is left to `localeCompare`.
 * test/unit/collate.test.ts checks the table against `localeCompare` itself.
 */
const ROOT_ORDER = '_-,;:!?.\'"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz';

const RANK = new Int8Array(128).fill(-1);
for (let i = 0; i < ROOT_ORDER.length; i++) RANK[ROOT_ORDER.charCodeAt(i)] = i;

export function compareLikeLocale(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x >= 128 || y >= 128) break;
    if (x !== y) {
      const rx = RANK[x];
      const ry = RANK[y];
      if (rx >= 0 && ry >= 0) return rx < ry ? -1 : 1;
      break;
    }
    i++;
  }
  // One is a prefix of the other: the longer is later when what it adds has primary weights (table characters).
  if (i === n) {
    const longer = a.length > b.length ? a : b;
    let weighted = true;
    for (let j = n; j < longer.length && weighted; j++) {
      const c = longer.charCodeAt(j);
      weighted = c < 128 && RANK[c] >= 0;
    }
    if (weighted) return a.length < b.length ? -1 : 1;
  }
  return a.localeCompare(b);
}
