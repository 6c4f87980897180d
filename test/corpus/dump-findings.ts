/**
 * Dumps the corpus findings (and whether each has a label) as JSON, for judging new findings:
 *   node --import tsx test/corpus/dump-findings.ts [--preset strict] [--rule id,id] [--partial] > findings.json
 * --partial: only the packages installed so far (the labelled-set test itself needs all of them).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compare, corpusFindings, loadCorpus, readLabels, repoRoot, type CorpusPackage } from './labelled-set';
import { DEFAULT_SETTINGS } from '../../common/settings';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const preset = argv.includes('--preset') ? argv[argv.indexOf('--preset') + 1] : 'recommended';
  const rules = argv.includes('--rule') ? new Set(argv[argv.indexOf('--rule') + 1].split(',')) : undefined;
  const { packages, rootOf } = argv.includes('--partial') ? await installedPackages() : await loadCorpus();
  const found = corpusFindings(packages, rootOf, { ...DEFAULT_SETTINGS, preset: preset === 'strict' ? 'strict' : 'recommended' });
  const c = compare(found, readLabels());
  const unlabelled = new Set(c.unlabelled);
  const out = found.filter((f) => !rules || rules.has(f.rule)).map((f) => ({ ...f, labelled: !unlabelled.has(f) }));
  process.stdout.write(JSON.stringify(out, null, 1) + '\n');
}

async function installedPackages(): Promise<{ packages: CorpusPackage[]; rootOf: (p: CorpusPackage) => string }> {
  const corpus = (await import(path.join(repoRoot, 'scripts/ensure-corpus.mjs'))) as { readManifest(): CorpusPackage[]; locate(p: CorpusPackage): { root: string } };
  const rootOf = (p: CorpusPackage) => corpus.locate(p).root;
  return { packages: corpus.readManifest().filter((p) => p.entries.every((e) => fs.existsSync(path.join(rootOf(p), e)))), rootOf };
}

void main();
