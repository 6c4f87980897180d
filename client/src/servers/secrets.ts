/** Masking of secret values before anything reaches a log or an output channel. */

/** Env keys whose values are secrets: *TOKEN*, *KEY*, *SECRET*, *PASSWORD* (and a few usual spellings). */
const SECRET_KEY = /TOKEN|KEY|SECRET|PASSWORD|PASSWD|PWD|CREDENTIAL|AUTH/i;

export function isSecretKey(key: string): boolean {
  // PWD is the working directory, not a password.
  if (key === 'PWD' || key === 'OLDPWD') return false;
  return SECRET_KEY.test(key);
}

/** The env as it may be shown: secret values replaced by "****". */
export function maskEnv(env: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env ?? {})) out[k] = isSecretKey(k) ? '****' : v;
  return out;
}

/**
 * Replaces every occurrence of a secret value in free text (stderr lines, error messages, argv).
 * Values shorter than 4 characters are left alone: masking "1" everywhere would garble the log.
 */
export function maskText(text: string, env: Record<string, string> | undefined): string {
  let out = text;
  const secrets = Object.entries(env ?? {})
    .filter(([k, v]) => isSecretKey(k) && v.length >= 4)
    .map(([, v]) => v)
    .sort((a, b) => b.length - a.length);
  for (const s of secrets) out = out.split(s).join('****');
  return out;
}
