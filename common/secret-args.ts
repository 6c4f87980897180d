/**
 * Arguments typed into the playground are remembered (the last ones per tool, the call history) in workspaceState,
 * and the webview keeps the form's unsent drafts in its state (vscode.setState): both are plain files. A secret typed
 * there (an api_key, a password) must not land in them: the arguments are split into what may be stored in clear and
 * the secret values, which go to VS Code's SecretStorage or nowhere (a draft keeps none). Pure.
 *
 * A value is secret when its schema says `format: "password"` (or `writeOnly`), when its name looks like a
 * credential (api_key, token, secret, password, ...; everything under such a name too), or when it contains a value of
 * the server's env or a password input of its launch (a credential the author pasted again).
 */
import type { JsonValue } from './json';
import type { JsonObject } from './playground-messages';

/** What stands in the clear copy for a secret value (the history shows it; the form gets the real value back). */
export const SECRET_PLACEHOLDER = '****';

// Whole words of the name (snake, kebab, camel case): `token`, `api_key`, `apiKey`, `x-api-key`, `client_secret`;
// not `tokenizer` or `author`.
// prettier-ignore
const SECRET_WORDS = new Set(['secret', 'password', 'passwd', 'passphrase', 'pwd', 'token', 'auth', 'authorization', 'credential', 'credentials', 'cookie', 'bearer', 'pat', 'apikey']);
const SECRET_PAIRS = new Set(['api key', 'access key', 'private key', 'session id', 'secret key']);

export function secretName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return words.some((w, i) => SECRET_WORDS.has(w) || (i > 0 && SECRET_PAIRS.has(`${words[i - 1]} ${w}`)));
}

type Schema = { [key: string]: JsonValue } | undefined;

function subSchema(schema: Schema, key: string): Schema {
  const props = schema?.properties;
  const p = props && typeof props === 'object' && !Array.isArray(props) ? props[key] : undefined;
  return p && typeof p === 'object' && !Array.isArray(p) ? p : undefined;
}

function markedSecret(schema: Schema): boolean {
  return schema?.format === 'password' || schema?.writeOnly === true;
}

export interface SplitArgs {
  /** The arguments with every secret value replaced by SECRET_PLACEHOLDER: safe to store in clear. */
  clear: JsonObject;
  /** The secret values by JSON pointer (`/auth/token`); empty when there are none. */
  secrets: Record<string, JsonValue>;
}

/** Splits `args` (against the tool's inputSchema) into a clear copy and the secret values. */
export function splitSecretArgs(args: JsonObject, inputSchema: JsonObject | undefined, knownSecrets: readonly string[] = []): SplitArgs {
  const known = knownSecrets.filter((s) => s.length >= 4);
  const secrets: Record<string, JsonValue> = {};
  const walk = (value: JsonValue, schema: Schema, name: string, pointer: string, inherited: boolean): JsonValue => {
    const secret = inherited || markedSecret(schema) || (name !== '' && secretName(name));
    if (value !== null && typeof value === 'object') {
      if (Array.isArray(value)) {
        const items = schema?.items && typeof schema.items === 'object' && !Array.isArray(schema.items) ? schema.items : undefined;
        return value.map((v, i) => walk(v, items, '', `${pointer}/${i}`, secret));
      }
      const out: { [key: string]: JsonValue } = {};
      for (const [k, v] of Object.entries(value)) out[k] = walk(v, subSchema(schema, k), k, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, secret);
      return out;
    }
    if (secret ? value !== null && value !== '' : typeof value === 'string' && known.some((k) => value.includes(k))) {
      secrets[pointer] = value;
      return SECRET_PLACEHOLDER;
    }
    return value;
  };
  const clear = walk(args as JsonValue, inputSchema as Schema, '', '', false) as JsonObject;
  return { clear, secrets };
}

/** The arguments with the secret values put back where the clear copy has the placeholder (a missing one stays out). */
export function joinSecretArgs(clear: JsonObject, secrets: Record<string, JsonValue> | undefined): JsonObject {
  const out = structuredClone(clear);
  const put = (pointer: string, value: JsonValue | undefined): void => {
    const keys = pointer
      .split('/')
      .slice(1)
      .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
    let node = out as JsonValue;
    for (let i = 0; i < keys.length - 1; i++) {
      if (node === null || typeof node !== 'object') return;
      node = Array.isArray(node) ? node[Number(keys[i])] : node[keys[i]];
    }
    if (node === null || typeof node !== 'object') return;
    const last = keys[keys.length - 1];
    if (Array.isArray(node)) {
      if (value === undefined) node.splice(Number(last), 1);
      else node[Number(last)] = value;
    } else if (value === undefined) delete node[last];
    else node[last] = value;
  };
  // Placeholders whose secret is not stored (no SecretStorage, or it was cleared) are dropped: the field is left empty.
  const placeholders: string[] = [];
  const find = (v: JsonValue, pointer: string): void => {
    if (v === SECRET_PLACEHOLDER) placeholders.push(pointer);
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) find(x, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
  };
  find(out as JsonValue, '');
  // From the end, so removing an array item does not move the ones still to be visited.
  for (const p of placeholders.reverse()) put(p, secrets?.[p]);
  return out;
}
