/** Masking of secret values before anything reaches a log or an output channel. */

/**
 * The env as it may be shown: every value replaced by "****". A server's env is where its credentials travel, under
 * any name (`DATABASE_URL`, `GITHUB_PAT`): the names are shown, never the values.
 */
export function maskEnv(env: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(env ?? {})) out[k] = '****';
  return out;
}

/**
 * Replaces every occurrence of a secret in free text (stderr lines, error messages, argv): the launch's password
 * inputs, and every value of its env (not only those whose name looks secret). Values shorter than 4 characters are
 * left alone: masking "1" everywhere would garble the log.
 */
export function maskText(text: string, spec: { env?: Record<string, string>; secrets?: string[] } | undefined): string {
  let out = text;
  const secrets = [...new Set([...(spec?.secrets ?? []), ...Object.values(spec?.env ?? {})])].filter((v) => v.length >= 4).sort((a, b) => b.length - a.length);
  for (const s of secrets) out = out.split(s).join('****');
  return out;
}
