/** Word-level helpers for tool and parameter names (shared by naming and parameter rules). */
import { frozen, memoByString } from './memo';

/** Splits `searchTickets`, `search_tickets`, `search-tickets`, `tickets.search`, `HTTPGet2` into lowercase words. */
export function nameTokens(name: string): string[] {
  return cachedTokens(name);
}

// Every parameter and tool name is split by several rules: once per name is enough (the answer is frozen).
const cachedTokens = memoByString((name: string): string[] =>
  frozen(
    name
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean)
      .map((t) => t.toLowerCase()),
  ),
);

/** `maxResults` -> `max_results`: camelCase humps to snake_case (already snake names are unchanged). */
export function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

export type NameStyle = 'snake_case' | 'camelCase' | 'kebab-case' | 'PascalCase' | 'dot.case' | 'single' | 'other';

/** The casing convention of one name (ignoring a `domain.` prefix when every segment has the same style). */
export function nameStyle(name: string): NameStyle {
  if (/^[a-z][a-z0-9]*$/.test(name)) return 'single';
  if (/^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(name)) return 'snake_case';
  if (/^[a-z][a-z0-9]*(-[a-z0-9]+)+$/.test(name)) return 'kebab-case';
  if (/^[a-z][a-z0-9]*([A-Z][a-z0-9]*)+$/.test(name)) return 'camelCase';
  if (/^[A-Z][a-z0-9]*([A-Z][a-z0-9]*)+$/.test(name) || /^[A-Z][a-z0-9]+$/.test(name)) return 'PascalCase';
  return 'other';
}

/** Rewrites a name's words in a given style. */
export function toStyle(words: string[], style: NameStyle): string {
  switch (style) {
    case 'camelCase':
      return words.map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1))).join('');
    case 'PascalCase':
      return words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
    case 'kebab-case':
      return words.join('-');
    case 'dot.case':
      return words.join('.');
    default:
      return words.join('_');
  }
}

/**
 * Words that say nothing about what a tool does. A name made only of these (`process`, `handle_request`, `do_it`,
 * `db_query`, `get_data`) leaves the model guessing.
 */
// prettier-ignore
export const GENERIC_WORDS = new Set([
  'process', 'handle', 'handler', 'request', 'run', 'execute', 'exec', 'do', 'it', 'query', 'db', 'tool', 'tools',
  'helper', 'helpers', 'data', 'stuff', 'thing', 'things', 'action', 'func', 'function', 'fn', 'main', 'misc', 'util',
  'utils', 'info', 'item', 'items', 'object', 'obj', 'call', 'invoke', 'task', 'job', 'perform', 'api', 'endpoint',
  'operation', 'op', 'input', 'output', 'result', 'results', 'get', 'set', 'general', 'generic', 'method', 'service',
  'my', 'the', 'a', 'go', 'make', 'work', 'test', 'foo', 'bar', 'baz', 'tmp', 'temp', 'new', 'command', 'cmd', 'manage',
  'all', 'some', 'any',
]);

/** English action verbs (and common French infinitives: the seeds name tools `rechercher_tickets`). */
// prettier-ignore
export const ACTION_VERBS = new Set([
  // read
  'get', 'list', 'search', 'find', 'fetch', 'read', 'lookup', 'look', 'query', 'show', 'describe', 'count', 'check',
  'inspect', 'view', 'browse', 'retrieve', 'load', 'download', 'export', 'summarize', 'summarise', 'explain', 'compare',
  'analyze', 'analyse', 'validate', 'verify', 'preview', 'resolve', 'estimate', 'calculate', 'compute', 'convert',
  'translate', 'parse', 'format', 'render', 'diff', 'grep', 'scan', 'watch', 'poll', 'test', 'ping', 'measure',
  'detect', 'classify', 'extract', 'generate', 'suggest', 'recommend', 'plan', 'predict', 'rank', 'score', 'sort',
  'filter', 'match', 'explore', 'trace', 'debug', 'lint', 'evaluate', 'audit', 'monitor', 'track', 'review', 'open',
  // write
  'create', 'add', 'insert', 'update', 'edit', 'modify', 'change', 'set', 'put', 'patch', 'rename', 'move', 'copy',
  'delete', 'remove', 'drop', 'purge', 'clear', 'reset', 'archive', 'restore', 'upload', 'import', 'write', 'save',
  'append', 'send', 'post', 'publish', 'notify', 'email', 'reply', 'forward', 'share', 'invite', 'assign', 'unassign',
  'approve', 'reject', 'cancel', 'close', 'reopen', 'merge', 'split', 'start', 'stop', 'restart', 'pause', 'resume',
  'deploy', 'build', 'install', 'uninstall', 'enable', 'disable', 'lock', 'unlock', 'schedule', 'book', 'reserve',
  'pay', 'charge', 'refund', 'transfer', 'submit', 'register', 'subscribe', 'unsubscribe', 'sync', 'link', 'unlink',
  'tag', 'untag', 'label', 'comment', 'mark', 'flag', 'grant', 'revoke', 'login', 'logout', 'authenticate', 'sign',
  'encrypt', 'decrypt', 'hash', 'compress', 'resize', 'crop', 'transcribe', 'record', 'log', 'increment', 'decrement',
  'attach', 'detach', 'bulk', 'batch', 'apply', 'commit', 'push', 'pull', 'clone', 'fork', 'checkout', 'run', 'execute',
  'call', 'invoke', 'trigger', 'process', 'handle', 'do', 'make', 'perform', 'sum', 'ask', 'answer', 'confirm',
  // seen on the real-world corpus (test/corpus/labels.json): verbs the list missed
  'echo', 'greet', 'toggle', 'expand', 'replace', 'simulate', 'fit', 'autofit', 'gzip', 'gunzip', 'zip', 'unzip',
  'navigate', 'click', 'scroll', 'hover', 'select', 'upsert', 'join', 'wait', 'sleep', 'tail', 'print', 'think',
  'unmerge', 'protect', 'unprotect', 'customize', 'customise', 'crawl', 'map', 'research', 'geocode', 'reverse',
  'transform', 'seek', 'learn',
  // French infinitives
  'rechercher', 'chercher', 'trouver', 'lire', 'lister', 'obtenir', 'afficher', 'consulter', 'ajouter', 'creer',
  'créer', 'modifier', 'mettre', 'supprimer', 'effacer', 'envoyer', 'publier', 'reserver', 'réserver', 'annuler',
  'resumer', 'résumer', 'verifier', 'vérifier', 'calculer', 'convertir', 'telecharger', 'télécharger', 'exporter',
  'importer', 'valider', 'fermer', 'ouvrir', 'commenter', 'assigner', 'payer', 'rembourser', 'traduire', 'generer',
  'générer', 'compter', 'comparer', 'analyser', 'planifier', 'deplacer', 'déplacer', 'copier', 'renommer', 'archiver',
]);

/** Verbs that only say "something happens" — a name starting with them still tells nothing. */
// prettier-ignore
const WEAK_VERBS = new Set(['run', 'execute', 'call', 'invoke', 'trigger', 'process', 'handle', 'do', 'make', 'perform']);

/** Lowercased third-person / gerund / past forms back to the verb: "Searches" -> "search", "Creating" -> "create". */
function verbLemma(word: string): string | undefined {
  const w = word.toLowerCase();
  if (ACTION_VERBS.has(w)) return w;
  const candidates: string[] = [];
  if (w.endsWith('ies')) candidates.push(w.slice(0, -3) + 'y');
  if (w.endsWith('es')) candidates.push(w.slice(0, -2));
  if (w.endsWith('s')) candidates.push(w.slice(0, -1));
  if (w.endsWith('ing')) candidates.push(w.slice(0, -3), w.slice(0, -3) + 'e');
  if (w.endsWith('ed')) candidates.push(w.slice(0, -2), w.slice(0, -1));
  return candidates.find((c) => ACTION_VERBS.has(c) && !WEAK_VERBS.has(c));
}

// prettier-ignore
const STOP = new Set(['the', 'a', 'an', 'one', 'some', 'all', 'any', 'of', 'for', 'to', 'in', 'on', 'from', 'by', 'with', 'and', 'or', 'this', 'that', 'these', 'those', 'its', 'their', 'your', 'our', 'my', 'given', 'specific', 'new', 'existing', 'current', 'le', 'la', 'les', 'un', 'une', 'des', 'du', 'de']);

/**
 * Proposes a verb_object name from a description's first sentence ("Searches the knowledge base for documents"
 * -> search_knowledge_base). Returns undefined when the sentence does not start with a recognisable verb.
 */
export function nameFromDescription(description: string | undefined): string[] | undefined {
  if (!description) return undefined;
  const first = description.trim().split(/(?<=[.!?])\s|\n/)[0] ?? '';
  const words = first.match(/[A-Za-zÀ-ÿ]+/g) ?? [];
  let i = 0;
  while (i < words.length && /^(use|this|tool|to|it|will)$/i.test(words[i])) i++;
  const verb = words[i] ? verbLemma(words[i]) : undefined;
  if (!verb) return undefined;
  const object: string[] = [];
  for (let j = i + 1; j < words.length && object.length < 2; j++) {
    const w = words[j].toLowerCase();
    if (STOP.has(w)) {
      if (object.length > 0) break;
      continue;
    }
    if (!/^[a-z]+$/.test(w)) break;
    object.push(w);
  }
  if (object.length === 0) return undefined;
  return [verb, ...object];
}

/**
 * The name says nothing about the action: only generic words (`process`, `handle_request`, `get_data`). With the
 * description, `get` + a noun that is often a domain's own entity (`item_get` next to "Retrieve a full 1Password
 * item") names an action and its object: the description says which item, so the name is not vague.
 */
export function isVagueName(name: string, description?: string): boolean {
  const t = nameTokens(name);
  if (!(t.length > 0 && t.every((w) => GENERIC_WORDS.has(w)))) return false;
  return !(description !== undefined && namesQualifiedEntity(t, description));
}

/** Generic words that are also what some domains call their records (1Password items, S3 objects, CI jobs). */
const ENTITY_NOUNS = new Set(['item', 'items', 'object', 'task', 'job']);
/** Generic verbs that still name one action (unlike run, execute, process, handle). */
const PLAIN_VERBS = new Set(['get', 'set']);
// prettier-ignore
const NOT_QUALIFIERS = new Set([...STOP, 'each', 'every', 'full', 'whole', 'single', 'same', 'other', 'another', 'which', 'what', 'whose', 'as', 'is', 'are', 'id', 'by']);

/**
 * A name of a plain verb and an entity noun (`get_item`, `item_get`, `get_job_test_results`), whose description names
 * that noun with a word that says which kind ("a 1Password item", "an S3 object", "a CircleCI job"). "Gets an item by
 * its id" says nothing more.
 */
function namesQualifiedEntity(tokens: string[], description: string): boolean {
  if (tokens.length < 2) return false;
  const noun = tokens.find((w) => ENTITY_NOUNS.has(w));
  const verb = tokens.find((w) => PLAIN_VERBS.has(w));
  if (!noun || !verb) return false;
  const singular = noun.replace(/s$/, '');
  for (const m of description.matchAll(new RegExp(`([A-Za-z0-9À-ÿ-]+)\\s+${singular}s?\\b`, 'gi'))) {
    if (!NOT_QUALIFIERS.has(m[1].toLowerCase()) && !GENERIC_WORDS.has(m[1].toLowerCase())) return true;
  }
  return false;
}

/** Writes a [verb, ...object] suggestion in the configured naming style, keeping the casing of the original name. */
export function formatSuggestion(words: string[], namingStyle: 'verb_object' | 'domain.verb', like: string): string {
  if (namingStyle === 'domain.verb') {
    const [verb, ...object] = words;
    return object.length ? `${object.join('_')}.${verb}` : verb;
  }
  const style = nameStyle(like);
  return toStyle(words, style === 'camelCase' || style === 'kebab-case' || style === 'PascalCase' ? style : 'snake_case');
}
