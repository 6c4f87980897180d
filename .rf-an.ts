import { analyzeSource } from '/work/wt/realforms/server/src/analysis/analyze';
import { createFileHost } from '/work/wt/realforms/server/src/host';
import * as fs from 'node:fs';
const f = process.argv[2];
const r = analyzeSource(f, fs.readFileSync(f, 'utf8'), createFileHost());
for (const t of r.tools.slice(0, Number(process.argv[3] ?? 3))) console.log(JSON.stringify(t.contract), JSON.stringify(t.unresolved.map(u => [u.part, u.reason])));
console.log(r.tools.length, 'tools');
