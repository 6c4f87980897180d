/**
 * Dumps the corpus findings (and whether each has a label) as JSON, for judging new findings:
 *   node --import tsx test/corpus/dump-findings.ts [--preset strict] [--rule id,id] > findings.json
 */
import { compare, corpusFindings, loadCorpus, readLabels } from './labelled-set';
import { DEFAULT_SETTINGS } from '../../common/settings';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const preset = argv.includes('--preset') ? argv[argv.indexOf('--preset') + 1] : 'recommended';
  const rules = argv.includes('--rule') ? new Set(argv[argv.indexOf('--rule') + 1].split(',')) : undefined;
  const { packages, rootOf } = await loadCorpus();
  const found = corpusFindings(packages, rootOf, { ...DEFAULT_SETTINGS, preset: preset === 'strict' ? 'strict' : 'recommended' });
  const c = compare(found, readLabels());
  const unlabelled = new Set(c.unlabelled);
  const out = found.filter((f) => !rules || rules.has(f.rule)).map((f) => ({ ...f, labelled: !unlabelled.has(f) }));
  process.stdout.write(JSON.stringify(out, null, 1) + '\n');
}

void main();
