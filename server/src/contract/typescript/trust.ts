/**
 * Whether this thread may load the workspace's own SDK and zod (contract/typescript/libraries.ts): only ever set by
 * the CLI (trusted unless `--untrusted`) and by the language server's analysis workers (from VS Code's
 * `workspace.isTrusted`). Its own module, free of imports, so the CLI's entry can set it without loading the front-end.
 */
/**
 * The trust switch lives on this thread's global object, not in a module variable: the CLI's TypeScript front-end is
 * its own bundle (dist/cli-typescript.js, with its own copy of this module), and each analysis worker thread has its
 * own global, so trusting a worker never trusts the language server's main thread.
 */
const TRUST = Symbol.for('toolsmith.workspaceTrust');
const LOADED = Symbol.for('toolsmith.workspaceFilesLoaded');
const ELSEWHERE = Symbol.for('toolsmith.workspaceTrustedElsewhere');
type TrustGlobal = { [TRUST]?: boolean; [LOADED]?: Set<string>; [ELSEWHERE]?: boolean };

/** Whether the workspace's own copies may be loaded (see the file comment). */
export function setWorkspaceTrust(value: boolean): void {
  (globalThis as TrustGlobal)[TRUST] = value;
}
export function workspaceTrusted(): boolean {
  return (globalThis as TrustGlobal)[TRUST] === true;
}

/**
 * The language server's main thread: the client trusts the workspace, but this thread never loads its code (the
 * workers do). Loading stays off (`workspaceTrusted()` is false); only the reason given for the bundled copies changes.
 */
export function setTrustedElsewhere(value: boolean): void {
  (globalThis as TrustGlobal)[ELSEWHERE] = value;
}
export function trustedElsewhere(): boolean {
  return (globalThis as TrustGlobal)[ELSEWHERE] === true;
}

/** Files this thread required from a workspace (the tests prove an untrusted analysis loads none). */
export function loadedWorkspaceFiles(): Set<string> {
  return ((globalThis as TrustGlobal)[LOADED] ??= new Set());
}
