/**
 * The one place Python text is parsed (@lezer/python), with the last tree of each file kept: the same text again
 * (a module imported by many files of one `toolsmith check`, read once per analysing file) reuses it, and a new
 * text of the same file (a keystroke in the editor) is parsed incrementally — lezer reuses the subtrees of the old
 * tree that the change did not touch and yields the same tree as a full parse.
 */
import { TreeFragment, type Tree } from '@lezer/common';
import { parser } from '@lezer/python';

/** Files whose last tree is kept, least recently used first out (a tree costs about its text's size). */
const MAX_FILES = 64;
const lastTree = new Map<string, { text: string; tree: Tree }>();

/** The range of `next` that differs from `prev` (common prefix and suffix taken away), as a lezer change. */
function changedRange(prev: string, next: string): { fromA: number; toA: number; fromB: number; toB: number } {
  const max = Math.min(prev.length, next.length);
  let start = 0;
  while (start < max && prev.charCodeAt(start) === next.charCodeAt(start)) start++;
  let end = 0;
  while (end < max - start && prev.charCodeAt(prev.length - 1 - end) === next.charCodeAt(next.length - 1 - end)) end++;
  return { fromA: start, toA: prev.length - end, fromB: start, toB: next.length - end };
}

export function parsePython(file: string, text: string): Tree {
  const last = lastTree.get(file);
  let tree: Tree;
  if (last && last.text === text) tree = last.tree;
  else if (last) tree = parser.parse(text, TreeFragment.applyChanges(TreeFragment.addTree(last.tree), [changedRange(last.text, text)]));
  else tree = parser.parse(text);
  lastTree.delete(file);
  lastTree.set(file, { text, tree });
  if (lastTree.size > MAX_FILES) lastTree.delete(lastTree.keys().next().value as string);
  return tree;
}

/** For benchmarks measuring a parse from scratch. */
export function clearPythonParseCache(): void {
  lastTree.clear();
}
