import * as fs from 'node:fs';
import type { FileHost } from './analysis/model';

/** Reads workspace files from disk, preferring the text of open (possibly unsaved) documents. */
export function createFileHost(openText: (file: string) => string | undefined = () => undefined): FileHost {
  return {
    readFile(file) {
      const open = openText(file);
      if (open !== undefined) return open;
      try {
        return fs.readFileSync(file, 'utf8');
      } catch {
        return undefined;
      }
    },
    fileExists(file) {
      if (openText(file) !== undefined) return true;
      try {
        return fs.statSync(file).isFile();
      } catch {
        return false;
      }
    },
  };
}
