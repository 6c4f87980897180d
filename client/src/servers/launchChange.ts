/**
 * What a restart would run differently from the launch the author last started: a save can change mcp.json (an
 * edit, a pull, a branch switch), and restart on save must not run a new command, new arguments or a new env
 * without a click. Pure: the keys of a server's configuration as written (before variables are resolved).
 */
import type { ServerConfig } from './discovery';

/** The configuration keys that decide what process runs. */
export type LaunchKey = 'command' | 'args' | 'env' | 'envFile' | 'cwd';

export type LaunchKeys = Pick<ServerConfig, LaunchKey>;

/** A copy of what decides the launch (the config object may be replaced or changed by a rediscovery). */
export function launchKeysOf(c: LaunchKeys): LaunchKeys {
  return { command: c.command, args: [...c.args], env: { ...c.env }, envFile: c.envFile, cwd: c.cwd };
}

/** The keys whose value differs between the last launch and the configuration now; empty when a restart runs the same. */
export function changedLaunchKeys(launched: LaunchKeys, now: LaunchKeys): LaunchKey[] {
  const changed: LaunchKey[] = [];
  if (launched.command !== now.command) changed.push('command');
  if (launched.args.length !== now.args.length || launched.args.some((a, i) => a !== now.args[i])) changed.push('args');
  const names = new Set([...Object.keys(launched.env), ...Object.keys(now.env)]);
  if ([...names].some((k) => launched.env[k] !== now.env[k])) changed.push('env');
  if (launched.envFile !== now.envFile) changed.push('envFile');
  if (launched.cwd !== now.cwd) changed.push('cwd');
  return changed;
}
