/** Settings shape shared by the client (VS Code configuration), the server and the CLI (.toolsmithrc.json). */

export type Severity = 'error' | 'warning' | 'info';
export type SeveritySetting = Severity | 'off';
export type NamingStyle = 'verb_object' | 'domain.verb';
/**
 * Which rules run when `rules` does not name them (typescript-eslint's idea): `recommended` (the default) only the
 * rules that were right nearly every time on the labelled real-world set (test/corpus/labels.json), `strict` every rule
 * but the opt-in ones (those run only when `rules` names them).
 */
export type Preset = 'recommended' | 'strict';
export const PRESETS: readonly Preset[] = ['recommended', 'strict'];

export interface Thresholds {
  descriptionMinLength: number;
  descriptionMaxLength: number;
  maxParams: number;
  maxTools: number;
  maxNestingDepth: number;
}

export interface ToolsmithSettings {
  preset: Preset;
  /** Severity override per rule id. */
  rules: Record<string, SeveritySetting>;
  naming: { style: NamingStyle };
  thresholds: Thresholds;
}

export const DEFAULT_THRESHOLDS: Thresholds = {
  descriptionMinLength: 40,
  descriptionMaxLength: 1500,
  maxParams: 10,
  maxTools: 20,
  maxNestingDepth: 2,
};

export const DEFAULT_SETTINGS: ToolsmithSettings = {
  preset: 'recommended',
  rules: {},
  naming: { style: 'verb_object' },
  thresholds: DEFAULT_THRESHOLDS,
};

/** Merges a partial, user-written settings object (possibly malformed) over the defaults. */
export function normalizeSettings(raw: unknown): ToolsmithSettings {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const rules: Record<string, SeveritySetting> = {};
  if (r.rules && typeof r.rules === 'object') {
    for (const [id, v] of Object.entries(r.rules as Record<string, unknown>)) {
      if (v === 'off' || v === 'info' || v === 'warning' || v === 'error') rules[id] = v;
    }
  }
  const naming = r.naming && typeof r.naming === 'object' ? (r.naming as Record<string, unknown>) : {};
  const style: NamingStyle = naming.style === 'domain.verb' ? 'domain.verb' : 'verb_object';
  const thresholds = { ...DEFAULT_THRESHOLDS };
  if (r.thresholds && typeof r.thresholds === 'object') {
    for (const key of Object.keys(DEFAULT_THRESHOLDS) as (keyof Thresholds)[]) {
      const v = (r.thresholds as Record<string, unknown>)[key];
      if (typeof v === 'number' && Number.isFinite(v)) thresholds[key] = v;
    }
  }
  const preset: Preset = r.preset === 'strict' ? 'strict' : 'recommended';
  return { preset, rules, naming: { style }, thresholds };
}
