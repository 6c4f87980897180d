// `npm test`: the guards (scripts/lint.mjs: ESLint, layers, formatting), then every layer, in order, each installing
// what it needs. Prints one closing line "N passed, N failed" and exits non-zero when the guards or any layer failed.
import { runLint } from './lint.mjs';
import { runLayer } from './test-layer.mjs';

const layers = ['unit', 'fidelity', 'protocol', 'webview', 'e2e'];
const started = Date.now();
const results = [];
{
  const t0 = Date.now();
  console.log('\n=== lint ===');
  const checks = runLint();
  const fail = checks.filter((c) => !c.ok).length;
  results.push({ layer: 'lint', pass: checks.length - fail, fail, skipped: 0, status: fail ? 1 : 0, seconds: Math.round((Date.now() - t0) / 1000) });
}
for (const layer of layers) {
  const t0 = Date.now();
  console.log(`\n=== ${layer} ===`);
  const r = runLayer(layer);
  r.seconds = Math.round((Date.now() - t0) / 1000);
  results.push(r);
}
console.log('\nlayer      passed  failed  skipped  seconds');
for (const r of results) {
  console.log(`${r.layer.padEnd(10)} ${String(r.pass).padStart(6)}  ${String(r.fail).padStart(6)}  ${String(r.skipped).padStart(7)}  ${String(r.seconds).padStart(7)}`);
}
const pass = results.reduce((s, r) => s + r.pass, 0);
const fail = results.reduce((s, r) => s + r.fail, 0);
const skipped = results.reduce((s, r) => s + r.skipped, 0);
const failedLayers = results.filter((r) => r.status !== 0 || r.fail > 0).map((r) => r.layer);
console.log(`\ntotal time ${Math.round((Date.now() - started) / 1000)} s${failedLayers.length ? `; failing layers: ${failedLayers.join(', ')}` : ''}`);
console.log(`${pass} passed, ${fail} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failedLayers.length ? 1 : 0);
