import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileAnalysis } from '../service';
import { sourceKindOf } from '../analysis/analyze';
import { readSourceFile } from '../sourceFile';
import { mayDefineTools } from '../../../common/frameworks';

export interface IndexEntry {
  file: string;
  uri: string;
  /** The text that was analysed (open document version or disk content). */
  text: string;
  analysis: FileAnalysis;
  /** Analysed from an open document (its diagnostics are owned by the document, not by the scan). */
  open: boolean;
}

/**
 * What the server knows about the workspace: every file that defines tools or has findings, open or not,
 * and which files each one imports (FileFacts.dependencies) so a change to a schema file re-analyses its users.
 */
export class WorkspaceIndex {
  private readonly entries = new Map<string, IndexEntry>();

  set(entry: IndexEntry): void {
    const interesting = entry.analysis.result.tools.length > 0 || entry.analysis.findings.length > 0 || entry.analysis.result.files.some((f) => f.dependencies.length > 0);
    if (interesting || entry.open) this.entries.set(entry.file, entry);
    else this.entries.delete(entry.file);
  }

  get(file: string): IndexEntry | undefined {
    return this.entries.get(file);
  }

  delete(file: string): void {
    this.entries.delete(file);
  }

  all(): IndexEntry[] {
    return [...this.entries.values()];
  }

  /** Files whose analysis read `file` through an import. */
  dependentsOf(file: string): string[] {
    const out: string[] = [];
    for (const e of this.entries.values()) {
      if (e.file === file) continue;
      if (e.analysis.result.files.some((f) => f.dependencies.includes(file))) out.push(e.file);
    }
    return out;
  }
}

/** Directories never worth walking: dependencies, environments, build output. */
export const SKIPPED_DIRS = new Set(['node_modules', '.venv', 'venv', 'dist', 'out', 'build', '__pycache__', '.git', '.tox', '.mypy_cache', '.pytest_cache', 'site-packages']);

export interface ScanOptions {
  maxFiles?: number;
  cancelled(): boolean;
  /** Called for every candidate file with its text; returns after analysing it. */
  visit(file: string, text: string): void;
}

/** Walks the folders asynchronously (yielding between directories so requests keep being answered). */
export async function scanFolders(folders: string[], opts: ScanOptions): Promise<{ filesScanned: number }> {
  const maxFiles = opts.maxFiles ?? 20000;
  let filesScanned = 0;
  const queue = [...folders];
  while (queue.length && !opts.cancelled()) {
    const dir = queue.shift() as string;
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (opts.cancelled() || filesScanned >= maxFiles) return { filesScanned };
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith('.')) queue.push(full);
        continue;
      }
      if (!entry.isFile() || !sourceKindOf(full) || entry.name.endsWith('.d.ts')) continue;
      const read = await readSourceFile(full);
      if (!read.ok) continue;
      filesScanned++;
      // Only files the framework profiles' hints say may register tools are analysed by the scan.
      if (mayDefineTools(read.text)) opts.visit(full, read.text);
    }
  }
  return { filesScanned };
}
