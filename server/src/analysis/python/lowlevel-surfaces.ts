/**
 * The official SDK's low-level `Server`, its other lists: `@server.list_prompts()`, `@server.list_resources()`,
 * `@server.list_resource_templates()` (1.x) or `Server(name, on_list_prompts=handler, ...)` (2.x) on a function
 * returning `[types.Prompt(...), ...]` (or `ListPromptsResult(prompts=[...])`). The SDK dumps those models as JSON
 * (`exclude_none`), so each entry is read from its literal keyword arguments, as the list_tools handler's `Tool(...)`
 * are (index.ts lowLevelTools). What cannot be read is said: one entry whose parts are unresolved, or, for a list
 * built at run time, an entry standing for the whole list (part `prompts` / `resources` / `resourceTemplates`).
 */
import type { SyntaxNode } from '@lezer/common';
import type { Framework, JsonValue, ListHandlerSurfaces, Located, PromptArgumentDefinition, PromptDefinition, ResourceDefinition, Span, Unresolved, UnseenListPart } from '../model';
import type { PyModule } from './module';
import { argsOf, child, children, kwargsWithNames, literalValue, meaningful, type LiteralResult } from './syntax';
import { anyUrl } from '../../contract/python/surfaces';

export type PyListSurface = 'prompts' | 'resources' | 'resourceTemplates';

/** `@server.list_prompts()` ... : the list each decorator's function answers. */
export const LIST_DECORATORS: Readonly<Record<string, PyListSurface>> = { list_prompts: 'prompts', list_resources: 'resources', list_resource_templates: 'resourceTemplates' };
/** 2.x `Server(name, on_list_prompts=handler)` ... */
export const LIST_HANDLER_KWARGS: Readonly<Record<string, PyListSurface>> = { on_list_prompts: 'prompts', on_list_resources: 'resources', on_list_resource_templates: 'resourceTemplates' };

const METHOD: Record<PyListSurface, string> = { prompts: 'prompts/list', resources: 'resources/list', resourceTemplates: 'resources/templates/list' };
/** The model each list holds, and the result model wrapping it. */
const MODEL: Record<PyListSurface, { entry: string; result: string }> = {
  prompts: { entry: 'Prompt', result: 'ListPromptsResult' },
  resources: { entry: 'Resource', result: 'ListResourcesResult' },
  resourceTemplates: { entry: 'ResourceTemplate', result: 'ListResourceTemplatesResult' },
};

/**
 * Keyword -> published key. 1.x's models take the published (camelCase) names and keep any other keyword as an extra
 * key; 2.x's also take snake_case names. A keyword not listed is not modelled (unresolved), never guessed.
 */
const KEYS: Record<PyListSurface | 'argument' | 'annotations', string[]> = {
  prompts: ['name', 'title', 'description', 'arguments', 'icons', '_meta'],
  resources: ['uri', 'name', 'title', 'description', 'mimeType', 'size', 'icons', 'annotations', '_meta'],
  resourceTemplates: ['uriTemplate', 'name', 'title', 'description', 'mimeType', 'icons', 'annotations', '_meta'],
  argument: ['name', 'title', 'description', 'required'],
  annotations: ['audience', 'priority', 'lastModified'],
};
const SNAKE: Record<string, string> = { mime_type: 'mimeType', uri_template: 'uriTemplate', last_modified: 'lastModified', meta: '_meta' };

export interface LowLevelServer {
  id: string;
  variable: string;
  framework: Framework;
  name?: string;
  span: Span;
}

interface Entry {
  contract: { [key: string]: JsonValue };
  spans: Record<string, Span>;
  span: Span;
  unresolved: Unresolved[];
}

/** The prompts or resources a low-level list handler `fn` (a FunctionDefinition) returns. */
export function lowLevelSurfaces(mod: PyModule, server: LowLevelServer, fn: SyntaxNode, list: PyListSurface, calleeSpan: Span): ListHandlerSurfaces {
  const out: ListHandlerSurfaces = { prompts: [], resources: [] };
  for (const item of entries(mod, server.framework, fn, list)) {
    if (list === 'prompts') out.prompts.push(promptOf(mod, server, item, calleeSpan));
    else out.resources.push(resourceOf(mod, server, item, list, calleeSpan));
  }
  return out;
}

/** The expressions a function returns (every `return` not inside a nested def or class). */
function returnedValues(fn: SyntaxNode): { stmt: SyntaxNode; value?: SyntaxNode }[] {
  const out: { stmt: SyntaxNode; value?: SyntaxNode }[] = [];
  const visit = (n: SyntaxNode): void => {
    for (const c of children(n)) {
      if (c.name === 'FunctionDefinition' || c.name === 'ClassDefinition' || c.name === 'LambdaExpression') continue;
      if (c.name === 'ReturnStatement') out.push({ stmt: c, value: meaningful(c).find((x) => x.name !== 'return') });
      else visit(c);
    }
  };
  const body = child(fn, 'Body');
  if (body) visit(body);
  return out;
}

function entries(mod: PyModule, framework: Framework, fn: SyntaxNode, list: PyListSurface): (Entry | UnseenListPart)[] {
  const method = METHOD[list];
  const model = MODEL[list];
  const unseen = (reason: string, node: SyntaxNode, what: UnseenListPart['unseen'] = 'list'): UnseenListPart => ({ unseen: what, reason, span: mod.span(node) });
  const returned = returnedValues(fn);
  if (returned.length === 0) return [unseen(`the ${method} handler returns no value Toolsmith can read`, fn)];
  if (returned.length > 1) return [unseen(`the ${method} handler returns in ${returned.length} places: which list is published depends on run-time conditions`, fn)];
  let value = returned[0].value;
  if (!value) return [unseen(`the ${method} handler returns None`, returned[0].stmt)];
  // 2.x: `return ListPromptsResult(prompts=[...])`.
  if (value.name === 'CallExpression' && isModel(mod, value, model.result)) {
    const arg = kwargsWithNames(argsOf(child(value, 'ArgList')), mod.text).find((a) => a.name === list || a.name === SNAKE_OF[list]);
    if (!arg) return [unseen(`${model.result}(...) without \`${list}=\``, value)];
    value = arg.value;
  }
  // A module-level constant holding the list.
  if (value.name === 'VariableName') {
    const assigned = mod.assigns.get(mod.src(value));
    if (assigned?.name === 'ArrayExpression' && !assignsLocally(mod, fn, mod.src(value))) value = assigned;
  }
  if (value.name !== 'ArrayExpression') return [unseen(`the ${method} handler's result \`${mod.src(value).slice(0, 40)}\` is not a list literal: it is built at run time`, value)];
  const out: (Entry | UnseenListPart)[] = [];
  const items = meaningful(value);
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    // `[*others, Prompt(...)]`: the unpacked list has any number of entries.
    if (item.name === '*' || (item.name === 'ArithOp' && mod.src(item) === '*')) {
      const unpacked = items[++i] ?? item;
      out.push(unseen(`${list} unpacked from \`${mod.src(unpacked).slice(0, 40)}\`, a list built at run time`, unpacked));
      continue;
    }
    if (item.name === 'CallExpression' && isModel(mod, item, model.entry)) out.push(modelEntry(mod, framework, item, list));
    else if (item.name === 'ComprehensionExpression' || item.name === 'ArrayComprehensionExpression' || item.name === 'for') {
      return [unseen(`the ${method} handler builds its list at run time`, value)];
    } else out.push(unseen(`the ${method} handler's entry \`${mod.src(item).slice(0, 40)}\` is not a ${model.entry}(...) literal`, item, 'entry'));
  }
  return out;
}

/** Whether the function assigns `name` itself (then `return name` is its local, not the module's constant). */
function assignsLocally(mod: PyModule, fn: SyntaxNode, name: string): boolean {
  let found = false;
  const visit = (n: SyntaxNode): void => {
    for (const c of children(n)) {
      if (found) return;
      if (c.name === 'AssignStatement' || c.name === 'UpdateStatement' || c.name === 'ForStatement') {
        const target = c.name === 'ForStatement' ? meaningful(c)[1] : c.firstChild;
        if (target?.name === 'VariableName' && mod.src(target) === name) found = true;
      }
      visit(c);
    }
  };
  visit(fn);
  return found;
}

const SNAKE_OF: Record<PyListSurface, string> = { prompts: 'prompts', resources: 'resources', resourceTemplates: 'resource_templates' };

/** `types.Prompt(...)`, `Prompt(...)`, `mcp.types.Prompt(...)`: a call of the SDK's model class `name`. */
function isModel(mod: PyModule, call: SyntaxNode, name: string): boolean {
  const q = call.firstChild ? mod.qualify(call.firstChild) : undefined;
  return q !== undefined && new RegExp(`(^|\\.)${name}$`).test(q);
}

/** The published key a keyword sets, or undefined when it is not modelled. */
function keyOf(keyword: string, keys: string[], framework: Framework): string | undefined {
  if (keys.includes(keyword)) return keyword;
  const camel = framework === 'mcp' ? SNAKE[keyword] : undefined;
  return camel && keys.includes(camel) ? camel : undefined;
}

/** One model call's keyword arguments as the SDK dumps them (None dropped). */
function modelEntry(mod: PyModule, framework: Framework, call: SyntaxNode, list: PyListSurface): Entry {
  const entry: Entry = { contract: {}, spans: {}, span: mod.span(call), unresolved: [] };
  const model = MODEL[list].entry;
  for (const arg of kwargsWithNames(argsOf(child(call, 'ArgList')), mod.text)) {
    const key = arg.name ? keyOf(arg.name, KEYS[list], framework) : undefined;
    if (!key) {
      entry.unresolved.push({ part: list === 'prompts' ? 'prompt' : 'resource', reason: `${model}(${arg.name ?? mod.src(arg.value).slice(0, 30)}) is not modelled`, span: mod.span(arg.value) });
      continue;
    }
    entry.spans[key] = mod.span(arg.value);
    const v =
      key === 'arguments'
        ? modelList(mod, framework, arg.value, 'PromptArgument', 'argument')
        : key === 'annotations' && arg.value.name === 'CallExpression'
          ? modelValue(mod, framework, arg.value, 'Annotations', 'annotations')
          : key === 'uri'
            ? uriValue(mod, framework, arg.value)
            : literal(mod, arg.value);
    if (!v.ok) entry.unresolved.push({ part: key, reason: v.reason, span: mod.span(arg.value) });
    else if (v.value !== null) entry.contract[key] = v.value;
  }
  return entry;
}

function literal(mod: PyModule, node: SyntaxNode): LiteralResult {
  return literalValue(node, mod.text, (n) => mod.enumMemberValue(n));
}

/** `[PromptArgument(...), ...]`: each one a model call. */
function modelList(mod: PyModule, framework: Framework, node: SyntaxNode, model: string, keys: 'argument'): LiteralResult {
  if (node.name === 'None') return { ok: true, value: null };
  if (node.name !== 'ArrayExpression') return { ok: false, reason: `not a list of ${model}(...) literals` };
  const out: JsonValue[] = [];
  for (const item of meaningful(node)) {
    const v = modelValue(mod, framework, item, model, keys);
    if (!v.ok) return v;
    out.push(v.value);
  }
  return { ok: true, value: out };
}

/** A nested model written as its call (`PromptArgument(name=..., required=True)`): its keywords, None dropped. */
function modelValue(mod: PyModule, framework: Framework, node: SyntaxNode, model: string, keys: 'argument' | 'annotations'): LiteralResult {
  if (node.name !== 'CallExpression' || !isModel(mod, node, model)) return { ok: false, reason: `\`${mod.src(node).slice(0, 40)}\` is not a ${model}(...) literal` };
  const out: { [key: string]: JsonValue } = {};
  for (const arg of kwargsWithNames(argsOf(child(node, 'ArgList')), mod.text)) {
    const key = arg.name ? keyOf(arg.name, KEYS[keys], framework) : undefined;
    if (!key) return { ok: false, reason: `${model}(${arg.name ?? mod.src(arg.value).slice(0, 30)}) is not modelled` };
    const v = literal(mod, arg.value);
    if (!v.ok) return v;
    if (v.value !== null) out[key] = v.value;
  }
  return { ok: true, value: out };
}

/**
 * A resource's `uri`: 1.x validates it with pydantic's AnyUrl (written as a string or `AnyUrl("...")`) and lists the
 * normalized form; 2.x keeps the string as written.
 */
function uriValue(mod: PyModule, framework: Framework, node: SyntaxNode): LiteralResult {
  let written = node;
  if (node.name === 'CallExpression' && isModel(mod, node, 'AnyUrl')) {
    const args = argsOf(child(node, 'ArgList'));
    if (args.length !== 1 || args[0].name) return { ok: false, reason: 'AnyUrl(...) with other than one argument' };
    if (framework === 'mcp') return { ok: false, reason: 'an AnyUrl for the `uri` of mcp 2.x, whose Resource takes a string: not modelled' };
    written = args[0].value;
  }
  const v = literal(mod, written);
  if (!v.ok || typeof v.value !== 'string' || framework === 'mcp') return v;
  const normalized = anyUrl(v.value);
  return normalized === undefined ? { ok: false, reason: `pydantic's AnyUrl refuses \`${v.value}\`: the SDK fails the list at run time` } : { ok: true, value: normalized };
}

function located(entry: Entry, key: string): Located<string> | undefined {
  const span = entry.spans[key] ?? entry.span;
  const u = entry.unresolved.find((x) => x.part === key);
  if (u) return { value: undefined, span, unresolved: u };
  const v = entry.contract[key];
  if (v === undefined) return undefined;
  if (typeof v === 'string') return { value: v, span };
  const bad: Unresolved = { part: key, reason: 'not a string', span };
  entry.unresolved.push(bad);
  return { value: undefined, span, unresolved: bad };
}

/** A key the model requires (pydantic refuses the entry without it, and the list with it). */
function requiredKey(entry: Entry, key: string, model: string): Located<string> {
  const l = located(entry, key);
  if (l) return l;
  const u: Unresolved = { part: key, reason: `${model}(...) without \`${key}\`: pydantic refuses it when the list is built`, span: entry.span };
  entry.unresolved.push(u);
  return { value: undefined, span: entry.span, unresolved: u };
}

function common(mod: PyModule, server: LowLevelServer) {
  return {
    language: 'python' as const,
    framework: server.framework,
    file: mod.file,
    server: { id: server.id, variable: server.variable, ...(server.name !== undefined ? { name: server.name } : {}), span: server.span },
  };
}

function promptOf(mod: PyModule, server: LowLevelServer, item: Entry | UnseenListPart, calleeSpan: Span): PromptDefinition {
  const registration = { kind: 'handler' as const, span: item.span, calleeSpan };
  if ('unseen' in item) {
    const u: Unresolved = { part: item.unseen === 'list' ? 'prompts' : 'prompt', reason: item.reason, span: item.span };
    return { ...common(mod, server), registration, name: { value: undefined, span: item.span, unresolved: u }, contract: {}, unresolved: [u] };
  }
  const prompt: PromptDefinition = { ...common(mod, server), registration, name: requiredKey(item, 'name', 'Prompt'), contract: item.contract, unresolved: item.unresolved };
  const title = located(item, 'title');
  const description = located(item, 'description');
  if (title) prompt.title = title;
  if (description) prompt.description = description;
  const args = item.contract.arguments;
  if (!item.unresolved.some((u) => u.part === 'arguments')) {
    const span = item.spans.arguments ?? item.span;
    prompt.arguments = Array.isArray(args)
      ? args.map((a): PromptArgumentDefinition => {
          const o = a as { [key: string]: JsonValue };
          return { name: String(o.name), ...(typeof o.description === 'string' ? { description: o.description } : {}), required: o.required === true, span };
        })
      : [];
  }
  return prompt;
}

function resourceOf(mod: PyModule, server: LowLevelServer, item: Entry | UnseenListPart, list: PyListSurface, calleeSpan: Span): ResourceDefinition {
  const kind = list === 'resourceTemplates' ? ('template' as const) : ('resource' as const);
  const registration = { kind: 'handler' as const, span: item.span, calleeSpan };
  if ('unseen' in item) {
    const u: Unresolved = { part: item.unseen === 'list' ? list : 'resource', reason: item.reason, span: item.span };
    const absent = { value: undefined, span: item.span, unresolved: u };
    return { ...common(mod, server), registration, kind, name: absent, uri: absent, metadata: [], contract: {}, unresolved: [u] };
  }
  const model = MODEL[list].entry;
  const uriKey = kind === 'template' ? 'uriTemplate' : 'uri';
  const uri = requiredKey(item, uriKey, model);
  const name = requiredKey(item, 'name', model);
  const metadata = Object.keys(item.spans)
    .filter((k) => k !== uriKey && k !== 'name')
    .map((key) => {
      const value = item.contract[key];
      const span = item.spans[key];
      const entries = typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.entries(value).map(([k, v]) => ({ key: k, value: v, span, keySpan: span })) : undefined;
      return { key, value, span, ...(entries ? { entries } : {}) };
    });
  const resource: ResourceDefinition = { ...common(mod, server), registration, kind, name, uri, metadata, contract: item.contract, unresolved: item.unresolved };
  for (const key of ['title', 'description', 'mimeType'] as const) {
    const l = located(item, key);
    if (l) resource[key] = l;
  }
  return resource;
}
