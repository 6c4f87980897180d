import type { ToolDefinition } from '../analysis/model';
import type { Rule } from './types';
import { finding, toolSpan } from './util/finding';
import { nameTokens, snakeCase } from './util/names';
import { nameIntent } from './util/tool-intent';
import { inputSchemaOf, mainType } from './util/json-schema';

const WRITES = new Set(['write', 'destructive']);

const LIST_VERBS = new Set(['list', 'search', 'find', 'query', 'browse', 'scan', 'grep', 'lookup', 'filter', 'enumerate']);
const COLLECTION_VERBS = new Set(['get', 'fetch', 'read', 'retrieve', 'load', 'export', 'show', 'view']);
const COLLECTION_WORDS = new Set(['all', 'history', 'logs', 'events', 'entries', 'results', 'records', 'items', 'messages']);
const isPlural = (w: string) => /[^s]s$/.test(w) && !/(us|is|ss|status|news|series|details|settings|stats|metrics)$/.test(w);

/** Parameters that bound or page a result. */
const BOUND = /^(limit|max|max_\w+|\w+_limit|top|top_?k|top_?n|count|n|k|page|page_\w+|per_page|cursor|offset|first|last|size|num_\w+|results|batch_size|take|skip)$/;

function isListTool(tool: ToolDefinition): boolean {
  const words = nameTokens(tool.name.value ?? '');
  // A write whose name mentions a list or a search (`insert_numbered_list_near_text`, `search_and_replace`) returns
  // its status, not the list.
  if (words[1] === 'and' || words[1] === 'or' || WRITES.has(nameIntent(words[0] ?? '').kind ?? '')) return false;
  const i = words.findIndex((w) => LIST_VERBS.has(w) || COLLECTION_VERBS.has(w));
  if (i >= 0 && LIST_VERBS.has(words[i])) return true;
  if (i >= 0 && words.slice(i + 1).some((w) => isPlural(w) || COLLECTION_WORDS.has(w))) return true;
  const ret = tool.handler?.returnAnnotation?.trim() ?? '';
  return /^(list|List|Sequence|typing\.List)\[/.test(ret);
}

/** A read of several things the caller lists: `read_multiple_files(paths: string[])`, `get_many_issues(ids)`. */
function isPerItemRead(tool: ToolDefinition): boolean {
  const words = nameTokens(tool.name.value ?? '');
  if (!words.some((w) => w === 'multiple' || w === 'many' || w === 'batch' || w === 'bulk')) return false;
  return tool.parameters.some((p) => p.required && mainType(p.schema, inputSchemaOf(tool)) === 'array');
}

export const responseUnbounded: Rule = {
  id: 'response-unbounded',
  defaultSeverity: 'info',
  preset: 'strict',
  languages: ['typescript', 'python'],
  summary: 'A list/search tool has no limit or page parameter.',
  checkTool(tool: ToolDefinition) {
    if (!isListTool(tool)) return [];
    if (tool.parameters.some((p) => BOUND.test(snakeCase(p.name)))) return [];
    // One result per thing the caller names (`read_multiple_files(paths)`): the caller's array bounds it.
    if (isPerItemRead(tool)) return [];
    if (tool.unresolved.some((u) => u.part === 'inputSchema' || u.part.startsWith('inputSchema.properties'))) return [];
    // No quick fix: a `limit` parameter the handler ignores still returns everything. Applying it is the handler's work.
    return [
      finding(
        tool,
        toolSpan(tool),
        `${tool.name.value ?? 'This tool'} returns a list but takes no limit or page parameter: one call can return thousands of ` +
          "items, which fills the model's context (and your bill) and pushes out the conversation. " +
          'Add a bounded `limit` (e.g. 1-100, default 20) and apply it in the handler; add a cursor or page if results go further.',
        [],
      ),
    ];
  },
};
