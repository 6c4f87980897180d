/**
 * Tool names read next to their siblings on one server: the prefix every tool shares (`git_`, `slack_`, `maps_`),
 * the action and its direct object, and which siblings name the same action on the same object — the tools a model
 * has to choose between (`add_footnote_to_document` / `add_footnote_robust`, `add_heading` / `insert_header_near_text`).
 */
import type { ToolDefinition } from '../../analysis/model';
import { hint } from './annotations';
import { nameTokens } from './names';
import { nameIntent } from './tool-intent';

/**
 * The first word of every tool name on the server when there are at least two tools and that word is not an action
 * (`git` of git_status / git_log, `slack`, `maps`): a namespace, not what the tool does.
 */
export function serverPrefix(tools: readonly ToolDefinition[]): string | undefined {
  const names = tools.map((t) => t.name.value).filter((n): n is string => !!n);
  if (names.length < 2) return undefined;
  const firsts = new Set(names.map((n) => nameTokens(n)[0]));
  if (firsts.size !== 1) return undefined;
  const first = [...firsts][0];
  if (first === undefined || nameIntent(first).kind !== undefined) return undefined;
  // A name that is only the prefix keeps it (`git` next to `git_log` would have no words left).
  return names.every((n) => nameTokens(n).length > 1) ? first : undefined;
}

/** The words of a tool's name after the server prefix (and after a dotted namespace: `emails.send` -> send). */
export function actionWords(tool: ToolDefinition, prefix: string | undefined): string[] {
  const name = tool.name.value ?? '';
  const words = nameTokens(name.split('.').pop() ?? name);
  return prefix !== undefined && words[0] === prefix && words.length > 1 ? words.slice(1) : words;
}

/** Verbs of a tool that fetches data for the model (not format, convert, validate, calculate: their answer is evident). */
// prettier-ignore
const RETRIEVE = new Set([
  'get', 'list', 'search', 'find', 'fetch', 'read', 'query', 'lookup', 'look', 'describe', 'show', 'view', 'inspect',
  'retrieve', 'browse', 'scan', 'grep', 'diff', 'status', 'count', 'summarize', 'summarise', 'explain', 'analyze',
  'analyse', 'compare', 'obtain', 'open',
]);

/** `Lists` -> list, `Searches` -> search, `Shows` -> show: the verb a description starts with. */
function leadingVerb(text: string): string | undefined {
  const w = /^\s*([A-Za-z]+)/.exec(text)?.[1]?.toLowerCase();
  if (w === undefined) return undefined;
  if (RETRIEVE.has(w)) return w;
  if (w.endsWith('es') && RETRIEVE.has(w.slice(0, -2))) return w.slice(0, -2);
  if (w.endsWith('s') && RETRIEVE.has(w.slice(0, -1))) return w.slice(0, -1);
  return undefined;
}

/**
 * A tool that fetches data: not marked as writing (readOnlyHint: false), and its name starts, after the server
 * prefix, with a retrieval verb (get, list, search, show, diff, status...), or its description does ("Lists the
 * branches", for git_branch). What a write returns is a status line; what a read returns is what the model plans
 * its next step on.
 */
export function isReadTool(tool: ToolDefinition, prefix: string | undefined): boolean {
  const readOnly = hint(tool, 'readOnlyHint');
  if (readOnly.present && readOnly.value === false) return false;
  const words = actionWords(tool, prefix);
  // `search_and_replace`, `create_or_update_file`: the second verb writes.
  if (words[1] === 'and' || words[1] === 'or') return false;
  if (words[0] !== undefined && RETRIEVE.has(words[0])) return true;
  // A noun name (git_branch), or a read-only tool whose name reads as a write (git_log): the description's first
  // verb says what it does ("Lists Git branches", "Shows the commit logs").
  if (words[0] === undefined || (readOnly.value !== true && nameIntent(words.join('_')).kind !== undefined)) return false;
  return leadingVerb(tool.description?.value ?? '') !== undefined;
}

/** Verbs that name one action: a server using two of them for one object offers the model two ways to do it. */
// prettier-ignore
const SAME_ACTION: readonly (readonly string[])[] = [
  ['get', 'fetch', 'retrieve', 'obtain', 'read'],
  ['search', 'find', 'lookup'],
  ['update', 'modify', 'edit'],
  ['add', 'insert', 'append'],
  ['run', 'execute', 'exec'],
];

/** Words between the action and its object, or after the object, that qualify how it is done, not on what. */
// prettier-ignore
const MANNER = new Set([
  'all', 'available', 'enhanced', 'robust', 'advanced', 'simple', 'basic', 'extended', 'improved', 'better', 'safe',
  'safely', 'quick', 'fast', 'full', 'raw', 'new', 'v2', 'v3', 'legacy', 'async', 'batch', 'bulk', 'multi',
  'horizontal', 'horizontally', 'vertical', 'vertically', 'smart', 'auto', 'direct', 'directly',
]);

/** Where the direct object ends: the rest of the name says where or how (`add_footnote_after_text`). */
// prettier-ignore
const PREPOSITION = new Set([
  'to', 'from', 'for', 'near', 'after', 'before', 'by', 'in', 'into', 'on', 'onto', 'with', 'between', 'below', 'above',
  'at', 'via', 'using', 'under', 'over', 'within',
]);

/** `headings` -> `head`, `header` -> `head`, `widths` -> `width`: one form per word for comparing objects. */
function stem(word: string): string {
  let w = word;
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 5 && w.endsWith('er')) w = w.slice(0, -2);
  return w;
}

interface Action {
  /** The verb's group (its first member), or the verb itself. */
  verb: string;
  /** Each alternative direct object (`insert_line_or_paragraph` -> line, paragraph), stemmed words joined by a space. */
  objects: string[];
}

/** The action (the first word) and the direct object of a name; undefined without an object. */
function actionOf(words: readonly string[]): Action | undefined {
  let [verb, ...rest] = words;
  if (verb === undefined || rest[0] === 'and' || rest[0] === 'or') return undefined;
  // A noun-first name (`item_edit`, `password_update`): the verb is second, the first word its object.
  if (!isVerb(verb) && rest[0] !== undefined && isVerb(rest[0])) [verb, rest] = [rest[0], [verb, ...rest.slice(1)]];
  const group = SAME_ACTION.find((g) => g.includes(verb));
  const end = rest.findIndex((w) => PREPOSITION.has(w));
  const object = (end < 0 ? rest : rest.slice(0, end)).filter((w) => !MANNER.has(w));
  if (object.length === 0) return undefined;
  const objects = object
    .join(' ')
    .split(' or ')
    .map((o) => o.split(' ').map(stem).join(' '));
  return { verb: group?.[0] ?? verb, objects };
}

const isVerb = (w: string) => nameIntent(w).kind !== undefined || SAME_ACTION.some((g) => g.includes(w));

/** The words of a description's first sentence, lowercased ("Get a summary of a Wikipedia article."). */
function firstSentence(tool: ToolDefinition): string[] {
  const first = (tool.description?.value ?? '').trim().split(/(?<=[.!?])\s|\n/)[0] ?? '';
  return (first.toLowerCase().match(/[a-z0-9à-ÿ]+/g) ?? []).map(stem);
}

/**
 * One description is the other's with words added: "Get a summary of a Wikipedia article" and "Get a summary of a
 * [specific section of a] Wikipedia article", "… [tailored to a specific query]". The model reads two tools that do
 * the same thing, one of them under a condition, and has to work out when the condition applies. The words are added
 * after the object; four words at least (a sentence of the action and its object), never two equal sentences.
 */
function qualifiesDescription(shorter: readonly string[], longer: readonly string[]): boolean {
  if (shorter.length < 4 || shorter.length >= longer.length) return false;
  // The action and its object stay as they are, up to the first preposition: "Get the [raw XML] structure of a
  // document" and "Get the review [comments] on a pull request" name another object.
  const objectEnd = shorter.findIndex((w, k) => k > 0 && (PREPOSITION.has(w) || w === 'of'));
  const head = objectEnd < 0 ? shorter.length : objectEnd + 1;
  for (let k = 0; k < head; k++) if (shorter[k] !== longer[k]) return false;
  let i = 0;
  for (const w of longer) if (w === shorter[i]) i++;
  return i === shorter.length;
}

const isSubset = (small: Set<string>, large: Set<string>) => small.size > 0 && [...small].every((p) => large.has(p));

/** The names of the required parameters (the target a call must name: `vaultId` + `itemId`, `query`). */
function requiredParams(tool: ToolDefinition): Set<string> {
  return new Set(tool.parameters.filter((p) => p.required).map((p) => p.name));
}

/**
 * The same function registered twice under two names (wikipedia-mcp's `get_links` and `wikipedia_get_links`): the
 * same description and the same input schema. Either is right; there is nothing to choose.
 */
function isAlias(a: ToolDefinition, b: ToolDefinition): boolean {
  return a.description?.value === b.description?.value && JSON.stringify(a.contract.inputSchema) === JSON.stringify(b.contract.inputSchema);
}

/** Why two tools overlap, for the message. */
export type Overlap = 'name' | 'description' | 'target';

/**
 * For each tool, the siblings it overlaps with and why:
 * - `name`: their names say the same action on the same direct object: `add_footnote_to_document`,
 *   `add_footnote_after_text` and `add_footnote_robust` (add + footnote); `add_heading` and `insert_header_near_text`
 *   (add/insert + heading/header); `item_edit` and `item_update` (noun-first names).
 * - `description`: one description is the other's with words added, and the tool needs what the other needs:
 *   `get_summary(title)` ("Get a summary of a Wikipedia article") and `summarize_article_section(title, section_title)`
 *   ("Get a summary of a specific section of a Wikipedia article").
 * - `target`: two updates (update/modify/edit) or two runs (run/execute) on the same target,
 *   the required parameters of one being all required by the other: `item_edit(vaultId, itemId, ...)` and
 *   `password_update(vaultId, itemId, newPassword)`; `run_query(query)` and `run_chdb_select_query(query)`. Not
 *   reads: `get_sections(title)` and `get_coordinates(title)` are two facets of one record, not two ways to get one.
 * Not `get_pull_request` and `get_pull_request_files` (the files are another object), not `delete_user` and
 * `remove_user_from_group` (removing a member is not deleting it: different verbs), not two names of one function.
 */
export function overlappingSiblings(tools: readonly ToolDefinition[]): Map<ToolDefinition, { tool: ToolDefinition; why: Overlap }[]> {
  const prefix = serverPrefix(tools);
  const keyed = new Map<string, { tool: ToolDefinition; why: Overlap }[]>();
  const add = (k: string, tool: ToolDefinition, why: Overlap) => {
    const list = keyed.get(k);
    if (!list) keyed.set(k, [{ tool, why }]);
    else if (!list.some((e) => e.tool === tool)) list.push({ tool, why });
  };
  const writers: { tool: ToolDefinition; verb: string; required: Set<string> }[] = [];
  for (const t of tools) {
    if (!t.name.value) continue;
    const a = actionOf(actionWords(t, prefix));
    if (a) for (const o of new Set(a.objects)) add(`${a.verb}\u0000${o}`, t, 'name');
    const verb = a?.verb ?? actionWords(t, prefix)[0];
    if (verb !== undefined && TARGET_ACTIONS.has(verb)) {
      const required = requiredParams(t);
      if (required.size) writers.push({ tool: t, verb, required });
    }
  }
  const out = new Map<ToolDefinition, { tool: ToolDefinition; why: Overlap }[]>();
  const pair = (t: ToolDefinition, s: ToolDefinition, why: Overlap) => {
    if (s.name.value === t.name.value || isAlias(t, s)) return;
    const others = out.get(t) ?? [];
    if (!others.some((o) => o.tool === s)) others.push({ tool: s, why });
    out.set(t, others);
  };
  for (const list of keyed.values()) {
    if (list.length < 2) continue;
    for (const a of list) for (const b of list) if (a !== b && !oneAndMany(a.tool, b.tool, prefix)) pair(a.tool, b.tool, 'name');
  }
  for (const a of writers)
    for (const b of writers) {
      if (a === b || a.verb !== b.verb) continue;
      if (a.required.size <= b.required.size ? isSubset(a.required, b.required) : isSubset(b.required, a.required)) pair(a.tool, b.tool, 'target');
    }
  // A description that is a sibling's with a qualifier added, on the same target (its required parameters too).
  const sentences = new Map(tools.map((t) => [t, firstSentence(t)]));
  for (const a of tools)
    for (const b of tools) {
      if (a === b || !a.name.value || !b.name.value) continue;
      if (qualifiesDescription(sentences.get(a)!, sentences.get(b)!) && isSubset(requiredParams(a), requiredParams(b))) {
        pair(a, b, 'description');
        pair(b, a, 'description');
      }
    }
  return out;
}

const BATCH = new Set(['batch', 'bulk', 'multi', 'multiple']);
const PLURAL = /\b(multiple|several|many|batch|bulk|a list of|in one call)\b/i;

/**
 * `jira_create_issue` and `jira_batch_create_issues` ("Create multiple Jira issues in a batch"): one item or several,
 * said in the batch tool's name and description. The model picks by how many it has; there is nothing to guess.
 */
function oneAndMany(a: ToolDefinition, b: ToolDefinition, prefix: string | undefined): boolean {
  const batch = (t: ToolDefinition) => actionWords(t, prefix).some((w) => BATCH.has(w));
  const [many, one] = batch(a) ? [a, b] : [b, a];
  return batch(many) && !batch(one) && PLURAL.test(many.description?.value ?? '');
}

/** The action groups whose twins are found by target: writes that change a record, and runs of a program. */
const TARGET_ACTIONS = new Set(['update', 'run']);
