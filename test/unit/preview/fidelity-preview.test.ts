// For every fidelity fixture server (TS and Python), the preview's JSON — built from what the language server sends
// the client (toolsmith/tools, toolsmith/toolFindings) — equals `toolsmith contract <file> --json`, tool by tool.
// The path is the product's own: dist/server.js over LSP -> ToolSummary -> buildPreview.
import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFile } from 'node:child_process';
import { LspClient, fileUri } from '../../protocol/harness';
import { ToolsRequest, ToolFindingsRequest } from '../../../common/protocol';
import { buildPreview } from '../../../common/preview-model';
import { getTokenizer } from '../../../client/src/preview/tokens';
import type { JsonSchema } from '../../../server/src/analysis/model';
import { mapLimit } from '../../util/pool';

const root = path.resolve(__dirname, '../../..');
const cli = path.join(root, 'dist', 'cli.js');

function walk(dir: string, ext: RegExp): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === '__pycache__' ? [] : walk(full, ext);
    return ext.test(e.name) && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

const fixtures = [...walk(path.join(root, 'test/fixtures/ts'), /\.(ts|mts|js|mjs)$/), ...walk(path.join(root, 'test/fixtures/py/fidelity'), /\.py$/)];

let lsp: LspClient;
before(async () => {
  lsp = await LspClient.start({ initializationOptions: { workspaceScan: false } });
});
after(async () => {
  await lsp?.stop();
});

test('the fidelity fixtures are there (TS and Python)', () => {
  assert.ok(
    fixtures.some((f) => f.endsWith('.py')),
    'no Python fidelity fixture under test/fixtures/py/fidelity',
  );
  assert.ok(
    fixtures.some((f) => /\.ts$/.test(f)),
    'no TypeScript fidelity fixture under test/fixtures/ts',
  );
});

test('every fixture tool: preview JSON == toolsmith contract --json', { timeout: 240_000 }, async () => {
  const tokenizer = await getTokenizer();
  let tools = 0;
  const mismatches: string[] = [];
  // One CLI process per fixture, two at a time (the machine's cores).
  const cliRuns = await mapLimit(
    fixtures,
    2,
    (file) =>
      new Promise<{ status: number; stdout: string; stderr: string }>((resolve) =>
        execFile(process.execPath, [cli, 'contract', file, '--json'], { encoding: 'utf8', cwd: path.dirname(file), maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) =>
          resolve({ status: err ? Number((err as { code?: unknown }).code ?? 1) : 0, stdout, stderr }),
        ),
      ),
  );
  for (const [n, file] of fixtures.entries()) {
    const r = cliRuns[n];
    assert.equal(r.status, 0, `${file}: ${r.stderr}`);
    const expected = (JSON.parse(r.stdout) as { tools: JsonSchema[] }).tools;
    const uri = fileUri(file);
    const { tools: summaries } = await lsp.connection.sendRequest(ToolsRequest, { uri });
    assert.equal(summaries.length, expected.length, `${path.relative(root, file)}: the language server and the CLI see different tool counts`);
    for (const [i, summary] of summaries.entries()) {
      const found = await lsp.connection.sendRequest(ToolFindingsRequest, { uri, toolName: summary.name ?? null });
      const view = buildPreview({
        tool: summary,
        serverContracts: summaries.filter((s) => s.serverId === summary.serverId).map((s) => s.contract),
        findings: found.findings,
        risk: found.risk,
        tokenizer,
      });
      tools++;
      try {
        assert.deepEqual(JSON.parse(view.json), expected[i]);
      } catch (err) {
        mismatches.push(`${path.relative(root, file)} ${summary.name}: ${String(err).slice(0, 600)}`);
      }
      // The reading covers every published parameter, in order.
      const props = Object.keys(((expected[i].inputSchema ?? {}) as { properties?: object }).properties ?? {});
      assert.deepEqual(
        view.parameters.map((p) => p.name),
        props,
        `${summary.name}: parameters read`,
      );
      assert.ok(view.tokens && view.tokens.tool > 0 && view.tokens.server >= view.tokens.tool);
      assert.ok(['Low', 'Medium', 'High', 'Critical'].includes(view.risk.level));
    }
  }
  console.log(`preview fidelity: ${tools - mismatches.length}/${tools} tools exact over ${fixtures.length} fixture files`);
  assert.deepEqual(mismatches, []);
  assert.ok(tools > 0);
});
