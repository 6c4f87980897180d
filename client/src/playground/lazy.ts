/**
 * The one door to the MCP stack (playground-bundle.ts). A plain require on first use: in dist/client.js it becomes
 * require('./playground.js'), a file of its own (esbuild.mjs), so activation does not parse the SDK, zod and ajv
 * (~300 KB); under tsx (tests) it loads the TypeScript modules themselves.
 */
type PlaygroundBundle = typeof import('./playground-bundle');

let bundle: PlaygroundBundle | undefined;

export function playgroundBundle(): PlaygroundBundle {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  bundle ??= require('./playground-bundle') as PlaygroundBundle;
  return bundle;
}
