/**
 * Why a server did not start, in the words of its stderr: the likely cause (a missing npm module, a Python without
 * the module, a wrong working folder, a command that is not there) and what to do, for the toast and the Servers
 * tree, without vscode. What it cannot tell is said as such ("see the log"), never guessed.
 */
import * as path from 'node:path';

export type StartFailureCause = 'missing-module' | 'wrong-python' | 'wrong-cwd' | 'missing-file' | 'command-not-found' | 'permission-denied' | 'no-initialize' | 'unknown';

export interface StartFailureInput {
  /** SessionError.kind when the error came from a session ('spawn-failed', 'exited-at-start', ...). */
  errorKind?: string;
  message: string;
  /** The last lines the server wrote on stderr (McpSession.stderrTail). */
  stderr: readonly string[];
  command: string;
  args: readonly string[];
  /** The working folder it was started in, and whether it exists (spawn reports a missing cwd as ENOENT too). */
  cwd?: string;
  cwdExists?: boolean;
}

export interface StartFailure {
  cause: StartFailureCause;
  /** One sentence: what went wrong and what to do. */
  summary: string;
  /** The stderr lines that say it (stack frames left out), at most three. */
  evidence: string[];
}

const NODE_MODULE = /Cannot find (?:module|package) '([^']+)'/;
const NODE_MODULE_CODE = /\b(?:ERR_)?MODULE_NOT_FOUND\b/;
const PY_MODULE = /^(?:ModuleNotFoundError|ImportError): No module named '([^']+)'/;
const PY_NO_FILE = /can't open file '([^']+)': \[Errno 2\]/;
// sh: "sh: 1: foo: not found", bash: "bash: foo: command not found", env: "env: 'foo': No such file or directory".
const SHELL_NOT_FOUND = /^(?:\S*(?:sh|env)):(?: \d+:)? '?([^\s:']+)'?: (?:command not found|not found|No such file or directory)$/;

/** Lines worth showing: not stack frames, caret markers or blank. */
function telling(stderr: readonly string[]): string[] {
  return stderr.map((l) => l.trimEnd()).filter((l) => l.trim() && !/^\s+at\s/.test(l) && !/^\s*[~^]+\s*$/.test(l) && !/^\s*File "/.test(l) && !/^Node\.js v\d/.test(l));
}

const shorten = (line: string) => (line.length > 160 ? `${line.slice(0, 157)}...` : line);

export function classifyStartFailure(input: StartFailureInput): StartFailure {
  const lines = telling(input.stderr);
  const last = (n = 3) => lines.slice(-n).map(shorten);
  const where = (p: string) => (input.cwd ? path.relative(input.cwd, p) || '.' : p);
  const cmd = path.basename(input.command);

  if (input.cwd && input.cwdExists === false) {
    return { cause: 'wrong-cwd', summary: `its working folder ${input.cwd} does not exist: fix "cwd" in the server's configuration.`, evidence: last() };
  }
  // The session reports a failed spawn (ENOENT / EACCES) as spawn-failed.
  if (input.errorKind === 'spawn-failed') {
    if (/permission denied|EACCES/.test(input.message)) {
      return { cause: 'permission-denied', summary: `"${input.command}" is not executable (permission denied): check the path or chmod +x it.`, evidence: last() };
    }
    return { cause: 'command-not-found', summary: `the command "${input.command}" was not found: check "command" in the server's configuration, or install it (is it on PATH?).`, evidence: last() };
  }
  // The last line that matches, searched cause by cause: a traceback or a Node error ends with the line that says it.
  const find = (re: RegExp): [string, RegExpExecArray] | undefined => {
    for (let i = lines.length - 1; i >= 0; i--) {
      const m = re.exec(lines[i].trim());
      if (m) return [lines[i].trim(), m];
    }
    return undefined;
  };
  const py = find(PY_MODULE);
  if (py) {
    const mod = py[1][1].split('.')[0];
    return {
      cause: 'wrong-python',
      summary: `${cmd} cannot import "${mod}": this Python is not the one with the server's packages. Point "command" at the project's venv (e.g. .venv/bin/python) or pip install ${mod} into it.`,
      evidence: [shorten(py[0])],
    };
  }
  const noFile = find(PY_NO_FILE);
  if (noFile) {
    return {
      cause: 'missing-file',
      summary: `${noFile[1][1]} does not exist${input.cwd ? ` from ${input.cwd}` : ''}: a relative path in "args" is read from the working folder; fix the path or "cwd".`,
      evidence: [shorten(noFile[0])],
    };
  }
  const node = find(NODE_MODULE) ?? find(NODE_MODULE_CODE);
  if (node) {
    const spec = node[1][1];
    if (spec && (path.isAbsolute(spec) || spec.startsWith('.'))) {
      const isEntry = input.args.some((a) => path.resolve(input.cwd ?? '.', a) === path.resolve(input.cwd ?? '.', spec));
      return {
        cause: 'missing-file',
        summary: isEntry
          ? `the script ${where(spec)} does not exist: a relative path in "args" is read from the working folder${input.cwd ? ` (${input.cwd})` : ''}; fix the path or "cwd", or build the server first.`
          : `${where(spec)} cannot be found: is the server built (e.g. npm run build)?`,
        evidence: [shorten(node[0])],
      };
    }
    const pkg = spec ? (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]) : undefined;
    return {
      cause: 'missing-module',
      summary: `the npm module ${pkg ? `"${pkg}" ` : ''}is missing: run npm install in ${input.cwd ?? 'the server folder'}${pkg ? ` (or add ${pkg} to its package.json)` : ''}.`,
      evidence: [shorten(node[0])],
    };
  }
  const sh = find(SHELL_NOT_FOUND);
  if (sh) {
    return { cause: 'command-not-found', summary: `a command it runs was not found${sh[1][1] ? ` (${sh[1][1]})` : ''}: install it or fix the path.`, evidence: [shorten(sh[0])] };
  }
  if (input.errorKind === 'initialize-timeout') {
    return { cause: 'no-initialize', summary: 'it did not answer "initialize": is it an MCP server on stdio, and does it log to stderr (not stdout)?', evidence: last() };
  }
  return { cause: 'unknown', summary: lines.length ? 'see its last stderr lines and the log.' : 'it wrote nothing on stderr; see the log.', evidence: last() };
}

/** The toast: the cause first, then the stderr lines that say it. */
export function startFailureMessage(serverName: string, failure: StartFailure): string {
  const evidence = failure.evidence.length ? ` Last stderr: ${failure.evidence.map((l) => `"${l.trim()}"`).join(' / ')}` : '';
  return `${serverName} did not start: ${failure.summary}${evidence}`;
}

/** A few words for the tree's description of a failed server. */
export const CAUSE_LABEL: Record<StartFailureCause, string | undefined> = {
  'missing-module': 'missing module',
  'wrong-python': 'wrong Python',
  'wrong-cwd': 'wrong cwd',
  'missing-file': 'file not found',
  'command-not-found': 'command not found',
  'permission-denied': 'not executable',
  'no-initialize': 'no initialize answer',
  unknown: undefined,
};

/** The part of a McpSession a failure is read from. */
export interface FailedSessionView {
  status: string;
  lastError?: { kind?: string; message: string };
  stderrTail: readonly string[];
  spec: { command: string; args?: string[]; cwd?: string; env?: Record<string, string> };
}

/** Why the session's last start failed (or why it crashed); undefined while it has not failed. */
export function sessionFailure(s: FailedSessionView | undefined, cwdExists: (dir: string) => boolean): StartFailure | undefined {
  if (!s?.lastError || (s.status !== 'failed' && s.status !== 'crashed')) return undefined;
  const cwd = s.spec.cwd;
  return classifyStartFailure({
    errorKind: s.lastError.kind,
    message: s.lastError.message,
    stderr: s.stderrTail,
    command: s.spec.command,
    args: s.spec.args ?? [],
    cwd,
    cwdExists: cwd ? cwdExists(cwd) : undefined,
  });
}
