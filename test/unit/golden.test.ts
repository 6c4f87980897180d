/**
 * Golden outputs: the contract, unresolved parts and findings (with their fixes) of every fixture, example and
 * benchmark file, plus the risk label each surface shows for each tool. A refactor must leave this file
 * byte-identical; a behaviour change updates it on purpose (`UPDATE_GOLDEN=1 npm run test:unit`) and the diff of
 * test/golden/outputs.json is what a reviewer reads.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { analyzeFile } from '../../server/src/service';
import { createFileHost } from '../../server/src/host';
import { sourceKindOf } from '../../server/src/analysis/analyze';
import { SKIPPED_DIRS } from '../../server/src/lsp/workspaceIndex';
import { DEFAULT_SETTINGS } from '../../common/settings';
import { withEveryRule } from '../../server/src/rules';
import { generateServer } from '../../bench/ts-analysis';
import { generatePythonServer } from '../../bench/py-analysis';
import { pythonServer, typescriptServer } from '../../bench/corpus';
import { goldenRisks } from './golden-risk';

const ROOT = path.resolve(__dirname, '..', '..');
const GOLDEN = path.join(ROOT, 'test', 'golden', 'outputs.json');
const SOURCES = ['test/fixtures', 'examples'];

function walk(dir: string, out: string[]): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith('.')) walk(full, out);
    } else if (entry.isFile() && sourceKindOf(full) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
}

/** Paths in spans and messages relative to a root, so the dump does not depend on where the checkout is. */
function relativise(value: unknown, root: string): unknown {
  return JSON.parse(
    JSON.stringify(value, (_k, v: unknown) =>
      typeof v === 'string' && v.includes(root)
        ? v
            .split(root + path.sep)
            .join('')
            .split(root)
            .join('.')
        : v,
    ),
  );
}

function dumpFile(file: string, text: string, root: string) {
  // Every rule (strict preset and the opt-in rules): the dump pins each rule's findings and fixes, whichever preset it is in.
  const a = analyzeFile(file, text, createFileHost(), withEveryRule(DEFAULT_SETTINGS));
  return relativise(
    {
      internalError: a.internalError ? 'yes' : undefined,
      tools: a.result.tools.map((t) => ({
        framework: t.framework,
        server: t.server.variable,
        contract: t.contract,
        unresolved: t.unresolved,
        unrepresentable: t.unrepresentable,
        risk: goldenRisks(t),
      })),
      // Only files that register prompts get the key: the other entries stay as they were.
      ...(a.result.prompts?.length ? { prompts: a.result.prompts.map((p) => ({ framework: p.framework, server: p.server.variable, contract: p.contract, unresolved: p.unresolved })) } : {}),
      // Likewise resources and resource templates.
      ...(a.result.resources?.length
        ? { resources: a.result.resources.map((r) => ({ framework: r.framework, server: r.server.variable, kind: r.kind, contract: r.contract, unresolved: r.unresolved })) }
        : {}),
      findings: a.findings
        .map((f) => ({ ruleId: f.ruleId, severity: f.severity, message: f.message, span: f.span, tool: f.tool, fixes: f.fixes }))
        .sort((x, y) => x.span.file.localeCompare(y.span.file) || x.span.start - y.span.start || x.ruleId.localeCompare(y.ruleId) || x.message.localeCompare(y.message)),
    },
    root,
  );
}

function dumpAll(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const files: string[] = [];
  for (const s of SOURCES) walk(path.join(ROOT, s), files);
  for (const f of files) out[path.relative(ROOT, f)] = dumpFile(f, fs.readFileSync(f, 'utf8'), ROOT);
  // Benchmark files are generated: analysed from a private folder under fixed names.
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-golden-'));
  try {
    const generated: [string, string][] = [
      ['bench/server.ts', generateServer(200, 5000)],
      ['bench/server.py', generatePythonServer(200, 5000)],
      ['bench/corpus-fastmcp.py', pythonServer(0, 12, 'fastmcp')],
      ['bench/corpus-mcp.py', pythonServer(1, 12, 'mcp')],
      ['bench/corpus.ts', typescriptServer(2, 12)],
    ];
    for (const [name, text] of generated) {
      const file = path.join(tmp, path.basename(name));
      fs.writeFileSync(file, text);
      out[name] = dumpFile(file, text, tmp);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return out;
}

test('golden outputs: contracts, unresolved parts, findings and risk labels of every fixture, example and bench file are unchanged', () => {
  const got = JSON.stringify(dumpAll(), null, 1) + '\n';
  if (process.env.UPDATE_GOLDEN === '1' || !fs.existsSync(GOLDEN)) {
    fs.mkdirSync(path.dirname(GOLDEN), { recursive: true });
    fs.writeFileSync(GOLDEN, got);
    if (process.env.UPDATE_GOLDEN !== '1') assert.fail(`${path.relative(ROOT, GOLDEN)} did not exist: written now, commit it`);
    return;
  }
  const want = fs.readFileSync(GOLDEN, 'utf8');
  if (got === want) return;
  const g = JSON.parse(got) as Record<string, unknown>;
  const w = JSON.parse(want) as Record<string, unknown>;
  const changed = [...new Set([...Object.keys(g), ...Object.keys(w)])].filter((k) => JSON.stringify(g[k]) !== JSON.stringify(w[k]));
  assert.fail(`golden outputs changed for ${changed.length} file(s): ${changed.slice(0, 20).join(', ')}. If intended, run UPDATE_GOLDEN=1 and review the diff of test/golden/outputs.json`);
});
