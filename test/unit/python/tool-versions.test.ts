/**
 * FastMCP tool versions (issue 14: `@mcp.tool(version="2.0")` was an error "duplicate name"): on fastmcp 3.x+ the
 * versions of one name are one listed tool (the highest, PEP 440 order, at the name's first registration, with
 * `_meta.fastmcp.version`/`versions`), and tool-name-duplicate stays silent; the same version twice, a versioned next
 * to an unversioned registration, and `version=` on 2.x are still errors. The live proof is the fidelity fixture
 * test/fixtures/py/fidelity/fast_tool_versions.py (python.test.ts on 4.2.3, python-matrix.test.ts on 2.14.7/3.4.11/4.2.3).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { analyzeFile } from '../../../server/src/service';
import { DEFAULT_SETTINGS } from '../../../common/settings';
import type { FileHost } from '../../../server/src/analysis/model';

function check(src: string, pin: string) {
  const files: Record<string, string> = { '/ws/requirements.txt': `${pin}\n`, '/ws/.python-version': '3.11\n' };
  const host: FileHost = { readFile: (f) => files[f], fileExists: (f) => f in files };
  return analyzeFile('/ws/server.py', src, host, DEFAULT_SETTINGS);
}

const tool = (decorator: string, fn: string, params = 'name: str') => `\n\n@mcp.tool${decorator}\ndef ${fn}(${params}) -> str:\n    """Greet someone by name for the ${fn} flow."""\n    return name\n`;
const HEAD = 'from fastmcp import FastMCP\n\nmcp = FastMCP("v")';

test('fastmcp 3/4: versions of one name are one listed tool, the highest (PEP 440: 1.10 > 1.9), at the first registration, with its versions', () => {
  const src =
    HEAD +
    tool('(name="greet", version="1.9")', 'greet_a') +
    tool('', 'ping', 'name: str') +
    tool('(name="greet", version="1.10")', 'greet_b', 'name: str, loud: bool = False') +
    tool('(name="greet", version=2)', 'greet_c', 'name: str, times: int = 1');
  for (const pin of ['fastmcp==3.4.11', 'fastmcp==4.2.3']) {
    const a = check(src, pin);
    assert.deepEqual(
      a.result.tools.map((t) => t.name.value),
      ['greet', 'ping'],
      pin,
    );
    const greet = a.result.tools[0];
    assert.deepEqual(Object.keys((greet.contract.inputSchema as { properties: object }).properties), ['name', 'times'], pin);
    assert.deepEqual((greet.contract._meta as { fastmcp: unknown }).fastmcp, { versions: ['2', '1.10', '1.9'], tags: [], version: '2' }, pin);
    assert.deepEqual(greet.unresolved, [], pin);
    assert.deepEqual(
      a.findings.filter((f) => f.ruleId === 'tool-name-duplicate'),
      [],
      pin,
    );
  }
});

test('fastmcp 3/4: the same version twice, or a versioned next to an unversioned registration, is still tool-name-duplicate', () => {
  const same = check(HEAD + tool('(name="greet", version="1.0")', 'greet_a') + tool('(name="greet", version="1.0")', 'greet_b'), 'fastmcp==4.2.3');
  const sameDup = same.findings.filter((f) => f.ruleId === 'tool-name-duplicate');
  assert.equal(sameDup.length, 1);
  assert.equal(sameDup[0].severity, 'error');
  assert.match(sameDup[0].message, /both are version "1\.0".*replaces the earlier/);

  const mixed = check(HEAD + tool('(name="greet", version="1.0")', 'greet_a') + tool('(name="greet")', 'greet_b'), 'fastmcp==3.4.11');
  const mixedDup = mixed.findings.filter((f) => f.ruleId === 'tool-name-duplicate');
  assert.equal(mixedDup.length, 1);
  assert.match(mixedDup[0].message, /versioned and an unversioned.*ValueError/);
  // The server fails at import: every tool it lists says so.
  for (const t of mixed.result.tools)
    assert.ok(
      t.unresolved.some((u) => u.part === 'contract' && /Either version all components or none/.test(u.reason)),
      JSON.stringify(t.unresolved),
    );
});

test('fastmcp 2.x has no version=: the server fails at import and two versions are a duplicate', () => {
  const a = check(HEAD + tool('(name="greet", version="1.0")', 'greet_a') + tool('(name="greet", version="2.0")', 'greet_b'), 'fastmcp==2.14.7');
  assert.equal(a.result.tools.length, 2);
  for (const t of a.result.tools)
    assert.ok(
      t.unresolved.some((u) => /has no version= keyword/.test(u.reason)),
      JSON.stringify(t.unresolved),
    );
  const dup = a.findings.filter((f) => f.ruleId === 'tool-name-duplicate');
  assert.equal(dup.length, 1);
  assert.match(dup[0].message, /fastmcp 2\.14\.7 has no tool versions/);
});

test('fastmcp 4: versions whose order is not modelled (a pre-release, equivalent spellings) list one tool, unresolved', () => {
  for (const [v1, v2] of [
    ['1.0', '2.0rc1'],
    ['1', '1.0'],
  ]) {
    const a = check(HEAD + tool(`(name="greet", version="${v1}")`, 'greet_a') + tool(`(name="greet", version="${v2}")`, 'greet_b'), 'fastmcp==4.2.3');
    assert.equal(a.result.tools.length, 1, `${v1} ${v2}`);
    assert.ok(
      a.result.tools[0].unresolved.some((u) => u.part === 'contract' && /PEP 440 order/.test(u.reason)),
      JSON.stringify(a.result.tools[0].unresolved),
    );
    assert.deepEqual(
      a.findings.filter((f) => f.ruleId === 'tool-name-duplicate'),
      [],
    );
  }
});
