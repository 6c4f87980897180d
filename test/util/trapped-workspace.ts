/**
 * A TypeScript workspace whose installed SDK 1.x and zod are traps: loading any of their modules appends its path to
 * `marker` and throws. A test that finds no marker proves no workspace code ran (the trust switch).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Writes the trapped node_modules and `server.ts` (the SDK and zod imports, then `registration`) into `dir`. */
export function trappedWorkspace(dir: string, registration: string): { dir: string; file: string; marker: string } {
  const marker = path.join(dir, 'workspace-code-ran');
  const trap = `require('fs').appendFileSync(${JSON.stringify(marker)}, __filename + '\\n'); throw new Error('workspace code ran');\n`;
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
