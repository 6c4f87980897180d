/** Real files on disk for the tests that need a workspace: written from a {relativePath: text} map. */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Writes files under `root`, creating their folders; `mode` for files that must be executable. */
export function writeTree(root: string, files: Record<string, string>, options: { mode?: number } = {}): void {
  for (const [rel, text] of Object.entries(files)) {
    const full = path.join(root, rel);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, text, options.mode === undefined ? undefined : { mode: options.mode });
  }
}
