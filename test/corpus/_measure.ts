import { loadCorpus, corpusFindings } from './labelled-set';
import * as fs from 'node:fs';
(async () => {
  const { packages, rootOf } = await loadCorpus();
  const t = Date.now();
  const f = corpusFindings(packages, rootOf);
  fs.writeFileSync(process.argv[2] ?? '/tmp/findings.json', JSON.stringify(f, null, 1));
  const by: Record<string, number> = {};
  for (const x of f) by[`${x.severity} ${x.rule}`] = (by[`${x.severity} ${x.rule}`] ?? 0) + 1;
  console.log(f.length, 'findings', Date.now() - t, 'ms');
  for (const [k, v] of Object.entries(by).sort()) console.log(v, k);
})();
