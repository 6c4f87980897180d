import * as fs from 'node:fs';
import type { FileHost } from './analysis/model';
import { MAX_SOURCE_BYTES, readSourceFileSync } from './sourceFile';

/**
 * Reads workspace files from disk, preferring the text of open (possibly unsaved) documents. Disk reads go through
 * readSourceFileSync: a FIFO, a device or an oversized file reads as absent instead of hanging or exhausting memory.
 */
export function createFileHost(openText: (file: string) => string | undefined = () => undefined, maxBytes = MAX_SOURCE_BYTES): FileHost {
  return {
    readFile(file) {
      const open = openText(file);
      if (open !== undefined) return open;
      const read = readSourceFileSync(file, maxBytes);
      return read.ok ? read.text : undefined;
    },
    fileExists(file) {
      if (openText(file) !== undefined) return true;
      try {
        return fs.statSync(file).isFile();
      } catch {
        return false;
      }
    },
    listDir(dir) {
      try {
        return fs.readdirSync(dir);
      } catch {
        return undefined;
      }
    },
  };
}
