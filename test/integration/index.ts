/**
 * The extensionTestsPath entry: VS Code's extension host calls run() and fails the run when it rejects. Loads mocha
 * (a dev dependency the lead adds: `mocha`), adds suite.ts, and rejects when any test fails or mocha is missing —
 * never a quiet pass.
 */
import * as path from 'node:path';
import { createRequire } from 'node:module';

interface MochaRunner {
  addFile(file: string): void;
  run(done: (failures: number) => void): { on(event: 'pass' | 'fail', listener: (test: { fullTitle(): string }, err?: Error) => void): void };
}
type MochaConstructor = new (options: { ui: string; color: boolean; timeout: number }) => MochaRunner;

export async function run(): Promise<void> {
  await Promise.resolve();
  let Mocha: MochaConstructor;
  try {
    // Resolved at run time from the checkout's node_modules (the bundle keeps it external).
    const loaded = createRequire(__filename)('mocha') as MochaConstructor | { default: MochaConstructor };
    Mocha = 'default' in loaded ? loaded.default : loaded;
  } catch (err) {
    throw new Error(`the integration suite needs mocha (npm install --save-dev mocha): ${String(err)}`, { cause: err });
  }
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 120_000 });
  mocha.addFile(path.join(__dirname, 'suite.js'));
  // The report names every test and each failure's message: the runner only sees this error.
  const lines: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const runner = mocha.run((failures) => (failures ? reject(new Error(`${failures} integration test(s) failed:\n${lines.join('\n')}`)) : resolve()));
    runner.on('pass', (t) => lines.push(`  ok ${t.fullTitle()}`));
    runner.on('fail', (t, err) => lines.push(`  FAIL ${t.fullTitle()}: ${err?.message ?? ''}`));
  });
}
