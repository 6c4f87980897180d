/**
 * How a corpus package's server is started by the tests that run it live (real-world, fix-proof): its `start`
 * placeholders filled in and its environment. One place, so every live run keeps the servers' telemetry off.
 */
import * as path from 'node:path';

/** Where an installed corpus package's files and interpreters are. */
export interface StartPlaces {
  /** The package's root: the npm package folder, or the venv's site-packages. */
  root: string;
  bin: string;
  python: string;
  /** A scratch folder of the run: the server's HOME and cwd. */
  tmp: string;
}

export function substituteStart(text: string, at: StartPlaces): string {
  return text.replaceAll('{root}', at.root).replaceAll('{bin}', at.bin).replaceAll('{python}', at.python).replaceAll('{tmp}', at.tmp);
}

/** The environment of a live corpus run: nothing of the developer's but PATH, and the package's own `start.env`. */
export function startEnv(at: StartPlaces, packageEnv: Record<string, string> | undefined, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {
    PATH: `${at.bin}${path.delimiter}${process.env.PATH ?? ''}`,
    HOME: at.tmp,
    PYTHONDONTWRITEBYTECODE: '1',
    FASTMCP_SHOW_SERVER_BANNER: 'false',
    FASTMCP_LOG_LEVEL: 'ERROR',
    // The servers' own usage telemetry stays off: nothing but the stdio pipes leaves a corpus run.
    DO_NOT_TRACK: '1',
    OTEL_SDK_DISABLED: 'true',
    ...extra,
  };
  for (const [k, v] of Object.entries(packageEnv ?? {})) env[k] = substituteStart(v, at);
  return env;
}
