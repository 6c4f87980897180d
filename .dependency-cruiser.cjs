// Layer and cycle check (dependency-cruiser), run by `npm run lint` and first in `npm test`.
// The allowed directions, bottom to top (an arrow means "may import"):
//   common/      -> nothing of ours: the shared types and pure functions every other part uses (bundled into all three).
//   server/src/  -> common/ and npm packages; never vscode, vscode-languageclient, client/ or webview/ (it runs as a
//                   plain Node process: the language server and the CLI).
//   client/src/  -> common/, vscode and npm packages; from server/src only type-only imports (a type costs the client
//                   bundle nothing, server code would load the analyser into the extension host).
//   webview/src/ -> common/ and npm packages (it runs in a browser: no node: builtins, no vscode).
//   inside server/src: analysis/ (front-ends) -> contract/ (schema builders); contract/ -> analysis/ only type-only
//                   imports of the model (analysis/model.ts, analysis/python/pytypes.ts), so the two never form a loop.
// Inside each part: no import cycles.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'common-imports-nothing-of-ours',
      comment: 'common/ is the bottom layer: shared by server, client and webviews, it may not import any of them.',
      severity: 'error',
      from: { path: '^common/' },
      to: { path: '^(server|client|webview)/' },
    },
    {
      name: 'vscode-only-in-client',
      comment: 'Only the extension host has the vscode API: server/ runs as a plain Node process (language server, CLI), webviews in a browser, common/ in all of them.',
      severity: 'error',
      from: { path: '^(server|common|webview)/' },
      to: { path: '^(vscode|vscode-languageclient)(/|$)|(^|/)node_modules/(@types/vscode|vscode-languageclient)/' },
    },
    {
      name: 'server-not-client-or-webview',
      comment: 'server/ is below the client and the webviews; what they share lives in common/.',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^(client|webview)/' },
    },
    {
      name: 'contract-only-model-from-analysis',
      comment: 'The front-ends call the contract builders; the builders see analysis/ only through its model types.',
      severity: 'error',
      from: { path: '^server/src/contract/' },
      to: { path: '^server/src/analysis/', pathNot: '^server/src/analysis/(model|python/pytypes)[.]ts$' },
    },
    {
      name: 'contract-only-types-from-model',
      comment: 'What the contract builders take from the model are types; a value import would close the loop again.',
      severity: 'error',
      from: { path: '^server/src/contract/' },
      to: { path: '^server/src/analysis/(model|python/pytypes)[.]ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'client-only-types-from-server',
      comment: 'The client asks the language server (common/protocol.ts); it never runs server code. Types are fine.',
      severity: 'error',
      from: { path: '^client/' },
      to: { path: '^server/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'client-not-webview',
      comment: 'Webviews are separate browser bundles; the client talks to them through common/*-messages.ts.',
      severity: 'error',
      from: { path: '^client/' },
      to: { path: '^webview/' },
    },
    {
      name: 'webview-only-common',
      comment: 'webview/ runs in a browser: of ours it imports common/ only, and no Node builtin.',
      severity: 'error',
      from: { path: '^webview/' },
      to: { pathNot: '^(webview|common)/|(^|/)node_modules/', dependencyTypesNot: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-bundled', 'npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'no-circular',
      comment: 'An import cycle ties two modules into one: split out what both need, or invert one dependency.',
      severity: 'error',
      from: { path: '^(server|client|webview|common)/' },
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that does not resolve is a typo or a missing dependency (vscode is provided by the host).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true, pathNot: '^vscode$' },
    },
  ],
  options: {
    // Type-only imports count too: they are what ties common/ to server/ today.
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|out)/|(^|/)fixtures/' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.js', '.mjs', '.cjs', '.json', '.d.ts'] },
    moduleSystems: ['es6', 'cjs'],
  },
};
