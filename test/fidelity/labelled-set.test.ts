/**
 * The labelled real-world set (issue 14, test/corpus/labels.json): every finding `toolsmith check` reported on the
 * entry files of the real-world corpus, judged keep or kill by a reviewer with a one-line reason. With the default
 * preset (recommended) no kill may come back and every keep of a recommended rule must stay; with the strict preset
 * every keep must stay. A finding nobody judged fails the test too: label it (keep or kill, with the reason) in
 * labels.json. The corpus must be installed (node scripts/ensure-corpus.mjs): a missing cache fails, never skips.
 */
import { before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compare, corpusFindings, describeFinding, loadCorpus, readLabels, repoRoot, type CorpusFinding, type CorpusPackage, type Label } from '../corpus/labelled-set';
import { RULES, inPreset } from '../../server/src/rules';
import { DEFAULT_SETTINGS } from '../../common/settings';

let packages: CorpusPackage[] = [];
let rootOf: (p: CorpusPackage) => string;
let labels: Label[] = [];

before(async () => {
  ({ packages, rootOf } = await loadCorpus());
  labels = readLabels();
});

const strictOnly = new Set(RULES.filter((r) => !inPreset(r, 'recommended')).map((r) => r.id));

function precision(keep: CorpusFinding[], kill: CorpusFinding[], severity: string): string {
  const k = keep.filter((f) => f.severity === severity).length;
  const n = k + kill.filter((f) => f.severity === severity).length;
  return `${severity} ${k}/${n}${n ? ` (${Math.round((100 * k) / n)}% keep)` : ''}`;
}

function unlabelledMessage(found: CorpusFinding[]): string {
  return found.map((f) => `  ${describeFinding(f, f.message.slice(0, 120))} (line ${f.lineNumber})`).join('\n');
}

test('recommended preset (the default): no kill comes back, every keep stays, every finding is labelled', () => {
  const found = corpusFindings(packages, rootOf, DEFAULT_SETTINGS);
  const c = compare(
    found,
    labels.filter((l) => !strictOnly.has(l.rule)),
  );
  const killed = labels.filter((l) => l.verdict === 'kill' && !strictOnly.has(l.rule)).reduce((n, l) => n + l.count, 0);
  console.log(
    `[labelled set] recommended: ${found.length} findings; ${precision(c.keep, c.kill, 'error')}, ${precision(c.keep, c.kill, 'warning')}, ${precision(c.keep, c.kill, 'info')}; ${killed} killed findings stay gone`,
  );
  assert.deepEqual(c.killsBack, [], `findings judged "kill" are reported again (a rule change brought back a false positive):\n${c.killsBack.join('\n')}`);
  assert.deepEqual(c.keepsLost, [], `findings judged "keep" disappeared (a rule or front-end change lost a true finding):\n${c.keepsLost.join('\n')}`);
  assert.equal(c.unlabelled.length, 0, `new findings nobody has judged: label each in test/corpus/labels.json (verdict keep/kill, reason):\n${unlabelledMessage(c.unlabelled)}`);
});

test('a keep may be missed only when judged unreachable, with its reason, in docs/real-world-corpus.md', () => {
  const doc = fs.readFileSync(path.join(repoRoot, 'docs/real-world-corpus.md'), 'utf8');
  const section = doc.slice(doc.indexOf('### Keeps judged unreachable'));
  assert.ok(section.length < doc.length, 'docs/real-world-corpus.md has no "### Keeps judged unreachable" section');
  for (const l of labels.filter((x) => x.missed !== undefined)) {
    assert.equal(l.verdict, 'keep', `a "missed" field on a kill: ${describeFinding(l, l.reason)}`);
    assert.match(l.missed!, /^unreachable\b/, `a known miss must say why it is unreachable: ${describeFinding(l, l.missed!)}`);
    assert.ok(section.includes(`\`${l.tool}\``) && section.includes(l.package), `docs/real-world-corpus.md ("Keeps judged unreachable") does not list ${l.package} \`${l.tool}\``);
  }
});

test('strict preset: every keep stays, every finding is labelled', () => {
  const found = corpusFindings(packages, rootOf, { ...DEFAULT_SETTINGS, preset: 'strict' });
  const c = compare(found, labels);
  console.log(
    `[labelled set] strict: ${found.length} findings; ${precision(c.keep, c.kill, 'error')}, ${precision(c.keep, c.kill, 'warning')}, ${precision(c.keep, c.kill, 'info')}; ${c.knownMisses.length} known misses`,
  );
  for (const m of c.knownMisses) console.log(`  known miss: ${m.slice(0, 300)}`);
  assert.deepEqual(c.keepsLost, [], `findings judged "keep" disappeared under the strict preset:\n${c.keepsLost.join('\n')}`);
  assert.deepEqual(c.staleMisses, [], `known misses reported again: drop their "missed" field in labels.json (and their row in docs/real-world-corpus.md):\n${c.staleMisses.join('\n')}`);
  assert.equal(c.unlabelled.length, 0, `new findings nobody has judged: label each in test/corpus/labels.json (verdict keep/kill, reason):\n${unlabelledMessage(c.unlabelled)}`);
});
