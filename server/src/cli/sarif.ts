import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FindingRow } from './rows';
import type { Severity } from '../../../common/settings';
import { ruleDocsUrl, REPOSITORY_URL } from '../lsp/docs';

export interface RuleInfo {
  id: string;
  summary: string;
  defaultSeverity: Severity;
}

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };

/** An artifact URI relative to %SRCROOT% (the working directory) when the file is under it, else absolute. */
function artifact(file: string, cwd: string): { uri: string; uriBaseId?: string } {
  const rel = path.relative(cwd, file);
  if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) return { uri: rel.split(path.sep).map(encodeURIComponent).join('/'), uriBaseId: 'SRCROOT' };
  return { uri: /^[a-z][a-z0-9+.-]+:/i.test(file) ? file : pathToFileURL(file).toString() };
}

/** A SARIF 2.1.0 log with one run: the rule catalogue as the driver's rules, one result per finding, fixes included. */
export function formatSarif(rows: FindingRow[], opts: { cwd: string; version: string; rules: RuleInfo[] }): string {
  const rules = [...opts.rules];
  for (const r of rows) {
    if (!rules.some((x) => x.id === r.ruleId)) rules.push({ id: r.ruleId, summary: r.ruleId, defaultSeverity: r.severity });
  }
  const ruleIndex = new Map(rules.map((r, i) => [r.id, i]));
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'toolsmith',
            version: opts.version,
            informationUri: REPOSITORY_URL,
            rules: rules.map((r) => ({
              id: r.id,
              shortDescription: { text: r.summary },
              helpUri: ruleDocsUrl(r.id),
              defaultConfiguration: { level: LEVEL[r.defaultSeverity] },
            })),
          },
        },
        originalUriBaseIds: { SRCROOT: { uri: pathToFileURL(opts.cwd.endsWith(path.sep) ? opts.cwd : opts.cwd + path.sep).toString() } },
        columnKind: 'utf16CodeUnits',
        results: rows.map((r) => ({
          ruleId: r.ruleId,
          ruleIndex: ruleIndex.get(r.ruleId),
          level: LEVEL[r.severity],
          message: { text: r.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: artifact(r.file, opts.cwd),
                region: { startLine: r.line, startColumn: r.column, endLine: r.endLine, endColumn: r.endColumn },
              },
            },
          ],
          ...(r.tool !== null ? { properties: { tool: r.tool } } : {}),
          ...(r.fixes.some((f) => f.edits.length)
            ? {
                fixes: r.fixes
                  .filter((f) => f.edits.length)
                  .map((f) => {
                    const files = [...new Set(f.edits.map((e) => e.file))];
                    return {
                      description: { text: f.title },
                      artifactChanges: files.map((file) => ({
                        artifactLocation: artifact(file, opts.cwd),
                        replacements: f.edits
                          .filter((e) => e.file === file)
                          .map((e) => ({
                            deletedRegion: { startLine: e.line, startColumn: e.column, endLine: e.endLine, endColumn: e.endColumn },
                            insertedContent: { text: e.text },
                          })),
                      })),
                    };
                  }),
              }
            : {}),
        })),
      },
    ],
  };
  return JSON.stringify(log, null, 2);
}
