import type { ToolDefinition } from '../analysis/model';
import type { Rule, RuleContext, RuleFinding } from './types';
import { finding } from './util/finding';
import { ACTION_VERBS, formatSuggestion, isVagueName, nameFromDescription, nameTokens } from './util/names';
import { renameEdit } from './util/string-literals';
import { nameIntent } from './util/tool-intent';

// prettier-ignore
const SELF_CONTAINED_VERBS = new Set(['echo', 'ping', 'fetch', 'search', 'find', 'lookup', 'calculate', 'compute', 'evaluate', 'greet', 'add', 'sum', 'translate', 'summarize', 'summarise', 'convert', 'wait', 'sleep', 'think', 'geocode']);

export const toolNameNotVerbObject: Rule = {
  id: 'tool-name-not-verb-object',
  defaultSeverity: 'info',
  preset: 'strict',
  languages: ['typescript', 'python'],
  summary: 'Tool name is not an action verb followed by an object (style verb_object), or not domain.verb (style domain.verb).',
  checkServer(tools, _files, ctx) {
    // A first word most of a server's tools share is its namespace (slack_post_message, git_commit, maps_geocode):
    // the verb comes after it, and the namespace names the object.
    const firsts = new Map<string, number>();
    for (const t of tools) {
      const first = t.name.value ? nameTokens(t.name.value)[0] : undefined;
      if (first && !ACTION_VERBS.has(first)) firsts.set(first, (firsts.get(first) ?? 0) + 1);
    }
    const namespaces = new Set([...firsts].filter(([, n]) => n >= 2 && n * 2 >= tools.length).map(([w]) => w));
    // Object first, then the verb (`item_delete`, `password_generate_memorable`, `op_check_ref`) is a whole name in
    // a server that never puts the verb first: the 1Password server names every tool that way, one tool per file.
    const objectFirst = tools.every((t) => !ACTION_VERBS.has(nameTokens(t.name.value ?? '')[0] ?? ''));
    return tools.flatMap((t) => checkName(t, ctx, namespaces, objectFirst));
  },
};

/**
 * After a namespace, a noun names the endpoint or command it reads (`maps_elevation`, `git_status`,
 * `airbnb_listing_details`), when the description opens with a read ("Get the elevation…", "Shows the working tree
 * status"): the Maps API, git and Airbnb call them that, and the model knows them by that name.
 */
function namesWhatItReads(tool: ToolDefinition, rest: readonly string[]): boolean {
  const verb = nameFromDescription(tool.description?.value)?.[0];
  if (verb === undefined || nameIntent(verb).kind !== 'read') return false;
  // The noun is what the description reads ("elevation", "status", "branches"), not a placeholder (`tool_0`).
  const said = new Set((tool.description?.value?.toLowerCase().match(/[a-z]+/g) ?? []).map(singular));
  return rest.some((w) => /^[a-z]{3,}$/.test(w) && said.has(singular(w)));
}

const singular = (w: string) => (w.endsWith('ies') ? w.slice(0, -3) + 'y' : w.endsWith('es') && /(ch|sh|x|s)es$/.test(w) ? w.slice(0, -2) : w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w);

function checkName(tool: ToolDefinition, ctx: RuleContext, namespaces: Set<string>, objectFirst: boolean): RuleFinding[] {
  const name = tool.name.value;
  // A vague name gets its own, stronger finding.
  if (!name || isVagueName(name, tool.description?.value)) return [];
  const style = ctx.settings.naming.style;
  const tokens = nameTokens(name);
  let ok: boolean;
  let words: string[] | undefined;
  if (style === 'domain.verb') {
    const segments = name.split('.');
    const last = nameTokens(segments[segments.length - 1] ?? '');
    ok = segments.length >= 2 && segments.every((s) => s.length > 0) && last.some((w) => ACTION_VERBS.has(w));
    const verbAt = tokens.findIndex((w) => ACTION_VERBS.has(w));
    if (!ok && verbAt >= 0 && tokens.length > 1) words = [tokens[verbAt], ...tokens.filter((_, i) => i !== verbAt)];
  } else {
    // A verb whose object goes without saying (`fetch` a URL, `search`, `echo`, `calculate`) is a whole name; one
    // that acts on something unnamed (`purge`, `reset`, `archive`) is not. `auto_fit_…` starts with its verb.
    const namespaced = tokens.length > 1 && namespaces.has(tokens[0]);
    const head = (tokens[0] === 'auto' || namespaced) && tokens.length > 1 ? 1 : 0;
    ok = namespaced
      ? ACTION_VERBS.has(tokens[1]) || SELF_CONTAINED_VERBS.has(tokens[tokens.length - 1]) || namesWhatItReads(tool, tokens.slice(1))
      : (ACTION_VERBS.has(tokens[head] ?? '') && (tokens.length >= 2 || SELF_CONTAINED_VERBS.has(tokens[0]))) || (objectFirst && tokens.length >= 2 && ACTION_VERBS.has(tokens[1]));
    const verbAt = tokens.findIndex((w) => ACTION_VERBS.has(w));
    if (!ok && verbAt > 0) words = [tokens[verbAt], ...tokens.filter((_, i) => i !== verbAt)];
  }
  if (ok) return [];
  words ??= nameFromDescription(tool.description?.value);
  const suggestion = words ? formatSuggestion(words, style, name.includes('.') ? name.replace(/\./g, '_') : name) : undefined;
  const message =
    style === 'domain.verb'
      ? `Tool name "${name}" is not in the domain.verb form your settings ask for (toolsmith.naming.style): the model ` +
        `reads the domain to find the family of tools and the verb to know what happens. Write it as "<domain>.<verb>"` +
        `${suggestion ? `, for example "${suggestion}"` : ', for example "tickets.search"'}.`
      : `Tool name "${name}" does not start with an action verb followed by its object: the model has to guess what ` +
        `"${name}" does (read? create? delete?) before choosing it. Start with the verb` +
        `${suggestion ? `, for example "${suggestion}"` : ', for example "search_tickets" or "create_invoice"'}.`;
  const rename = suggestion && suggestion !== name ? renameEdit(ctx, tool.name.span, name, suggestion) : undefined;
  const fixes = rename ? [{ title: `Rename to "${suggestion}"`, edits: [rename.edit], safe: false }] : [];
  return [finding(tool, tool.name.span, message, fixes)];
}
