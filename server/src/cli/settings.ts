import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_SETTINGS, normalizeSettings, type ToolsmithSettings } from '../../../common/settings';

export class SettingsError extends Error {}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new SettingsError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new SettingsError(`${file} is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * Settings for the CLI: the nearest `.toolsmithrc.json`, or the `toolsmith` key of the nearest package.json that has
 * one, walking up from `startDir`. Same shape as the editor's `toolsmith.*` settings.
 */
export function loadSettings(startDir: string): { settings: ToolsmithSettings; source?: string } {
  let dir = path.resolve(startDir);
  for (;;) {
    const rc = path.join(dir, '.toolsmithrc.json');
    if (fs.existsSync(rc)) return { settings: normalizeSettings(readJson(rc)), source: rc };
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg)) {
      const json = readJson(pkg) as { toolsmith?: unknown } | null;
      if (json && typeof json === 'object' && json.toolsmith !== undefined) return { settings: normalizeSettings(json.toolsmith), source: `${pkg} ("toolsmith")` };
    }
    const parent = path.dirname(dir);
    if (parent === dir) return { settings: DEFAULT_SETTINGS };
    dir = parent;
  }
}
