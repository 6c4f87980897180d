/**
 * A TypeScript workspace whose installed SDK 1.x and zod are traps: loading any of their modules appends its path (and
 * the thread that loaded it) to `marker` and throws. A test that finds no marker proves no workspace code ran (the trust switch).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** A module that appends `<main|worker> <its path>` to `marker` (the thread that loaded it), then throws. */
function trapCode(marker: string): string {
  return `require('fs').appendFileSync(${JSON.stringify(marker)}, (require('worker_threads').isMainThread ? 'main ' : 'worker ') + __filename + '\\n'); throw new Error('workspace code ran');\n`;
}

/** Writes the trapped node_modules and `server.ts` (the SDK and zod imports, then `registration`) into `dir`. */
export function trappedWorkspace(dir: string, registration: string): { dir: string; file: string; marker: string } {
  const marker = path.join(dir, 'workspace-code-ran');
  const trap = trapCode(marker);
  const sdk = path.join(dir, 'node_modules/@modelcontextprotocol/sdk');
  fs.mkdirSync(path.join(sdk, 'dist/cjs/server'), { recursive: true });
  fs.writeFileSync(path.join(sdk, 'package.json'), JSON.stringify({ name: '@modelcontextprotocol/sdk', version: '1.32.2', main: 'index.js' }));
  for (const f of ['index.js', 'dist/cjs/server/zod-compat.js', 'dist/cjs/server/zod-json-schema-compat.js']) fs.writeFileSync(path.join(sdk, f), trap);
  const zod = path.join(dir, 'node_modules/zod');
  fs.mkdirSync(zod, { recursive: true });
  fs.writeFileSync(path.join(zod, 'package.json'), JSON.stringify({ name: 'zod', version: '4.0.17', main: 'index.js' }));
  fs.writeFileSync(path.join(zod, 'index.js'), trap);
  const file = path.join(dir, 'server.ts');
  fs.writeFileSync(
    file,
    `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nimport { z } from "zod";\nconst server = new McpServer({ name: "s", version: "1" });\n${registration}\n`,
  );
  return { dir, file, marker };
}

/**
 * The same for a v2 workspace: @modelcontextprotocol/server 2.0.0 (its CommonJS chunk that exports the schema
 * functions, and its entry), zod 4.0.17, ArkType, Valibot and @valibot/to-json-schema, each a trap. `server.ts`
 * imports the SDK, zod, ArkType and Valibot, then runs `registration`.
 */
export function trappedWorkspaceV2(dir: string, registration: string): { dir: string; file: string; marker: string } {
  const marker = path.join(dir, 'workspace-code-ran');
  const trap = trapCode(marker);
  const pkg = (name: string, version: string, files: string[]) => {
    const at = path.join(dir, 'node_modules', name);
    fs.mkdirSync(path.join(at, 'dist'), { recursive: true });
    fs.writeFileSync(path.join(at, 'package.json'), JSON.stringify({ name, version, main: 'index.js' }));
    for (const f of ['index.js', ...files]) fs.writeFileSync(path.join(at, f), trap);
  };
  pkg('@modelcontextprotocol/server', '2.0.0', ['dist/index.cjs', 'dist/src-Trap1234.cjs']);
  pkg('zod', '4.0.17', []);
  pkg('arktype', '2.1.29', []);
  pkg('valibot', '1.2.0', []);
  pkg('@valibot/to-json-schema', '1.5.0', []);
  const file = path.join(dir, 'server.ts');
  fs.writeFileSync(
    file,
    [
      'import { McpServer } from "@modelcontextprotocol/server";',
      'import * as z from "zod";',
      'import { type } from "arktype";',
      'import * as v from "valibot";',
      'import { toStandardJsonSchema } from "@valibot/to-json-schema";',
      'const server = new McpServer({ name: "s", version: "1" });',
      registration,
      '',
    ].join('\n'),
  );
  return { dir, file, marker };
}
