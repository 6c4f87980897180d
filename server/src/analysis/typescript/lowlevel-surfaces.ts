/**
 * The TypeScript SDK's low-level `Server`, its other lists: `server.setRequestHandler(ListPromptsRequestSchema |
 * ListResourcesRequestSchema | ListResourceTemplatesRequestSchema, handler)`, whose handler returns `{ prompts: [...] }`,
 * `{ resources: [...] }` or `{ resourceTemplates: [...] }`. The SDK sends those objects as the handler returns them, so
 * they are read as the tools of a tools/list handler are (lowlevel.ts: the same returned expression, literals, consts
 * and pass-through wrappers), one prompt or resource per array entry. What cannot be read is said: one entry whose
 * parts are unresolved, or, for a list of unknown length (a spread of a run-time array, a list built by a call), an
 * entry standing for the whole list (part `prompts` / `resources` / `resourceTemplates`), never dropped.
 */
import ts from './ts';
import type {
  Framework,
  JsonValue,
  ListHandlerSurfaces,
  Located,
  PromptArgumentDefinition,
  PromptDefinition,
  ResourceDefinition,
  ResourceMetadataEntry,
  Span,
  Unresolved,
  UnseenListPart,
} from '../model';
import { lowLevelToolContract } from '../../contract/typescript/lowlevel';
import { evaluate, FnExpr, Unresolvable, type EvalContext, type ServerRef } from './evaluate';
import { resolveHandler } from './handler';
import { entryOfLiteral, entryOfValue, literalOf, propertyName, reasonOf, returnedExpressions, throughWrappers, type ListEntryRead } from './lowlevel';
import { spanOf, type ParsedFile } from './project';

/** Which list a handler answers: the key of its result object. */
export type ListSurface = 'prompts' | 'resources' | 'resourceTemplates';

/** The request names, for the reasons. */
const METHOD: Record<ListSurface, string> = { prompts: 'prompts/list', resources: 'resources/list', resourceTemplates: 'resources/templates/list' };

interface Base {
  file: string;
  server: PromptDefinition['server'];
  framework: Framework;
  sdkVersion: string | undefined;
  calleeSpan: Span;
  list: ListSurface;
}

export function listHandlerSurfaces(
  call: ts.CallExpression,
  pf: ParsedFile,
  server: ServerRef,
  ctx: EvalContext,
  framework: Framework,
  sdkVersion: string | undefined,
  list: ListSurface,
): ListHandlerSurfaces {
  const base: Base = {
    file: pf.file,
    server: { id: server.id, variable: server.variable, name: server.name, span: server.span },
    framework,
    sdkVersion,
    calleeSpan: spanOf(call.expression, pf),
    list,
  };
  const out: ListHandlerSurfaces = { prompts: [], resources: [] };
  for (const item of listEntries(call, pf, ctx, list)) {
    if (list === 'prompts') out.prompts.push(promptOf(base, item));
    else out.resources.push(resourceOf(base, item));
  }
  return out;
}

/** The handler's returned list, entry by entry (lowlevel.ts listHandlerTools reads tools/list the same way). */
function listEntries(call: ts.CallExpression, pf: ParsedFile, ctx: EvalContext, list: ListSurface): (ListEntryRead | UnseenListPart)[] {
  const method = METHOD[list];
  const unseen = (reason: string, node: ts.Node, at: ParsedFile, span?: Span, what: UnseenListPart['unseen'] = 'list'): UnseenListPart => ({ unseen: what, reason, span: span ?? spanOf(node, at) });
  const handler = throughWrappers(call.arguments[1], pf, ctx);
  const h = handlerFunction(handler.expr, handler.pf, ctx);
  if (!h) return [unseen(`the ${method} handler is not a function Toolsmith can read`, call.arguments[1], pf)];
  const returned = returnedExpressions(h.fn);
  if (returned.length === 0) return [unseen(`the ${method} handler returns no value Toolsmith can read`, h.fn, h.pf)];
  if (returned.length > 1) return [unseen(`the ${method} handler returns in ${returned.length} places: which list is published depends on run-time conditions`, h.fn, h.pf)];
  const result = literalOf(returned[0], h.pf, ctx, ts.isObjectLiteralExpression);
  const listProp = result?.node.properties.find((p) => propertyName(p) === list);
  const listExpr = listProp && (ts.isPropertyAssignment(listProp) ? listProp.initializer : ts.isShorthandPropertyAssignment(listProp) ? listProp.name : undefined);
  if (!result || !listExpr) return [unseen(`the ${method} handler does not return a \`{ ${list}: [...] }\` literal`, returned[0], h.pf)];
  const literal = literalOf(listExpr, result.pf, ctx, ts.isArrayLiteralExpression);
  if (!literal) {
    // Not an array literal: the whole value, when it is static (an array a static helper builds).
    try {
      const value = evaluate(listExpr, result.pf, ctx);
      if (!Array.isArray(value)) return [unseen(`the \`${list}\` of the ${method} result is not an array`, listExpr, result.pf)];
      return value.map((v) => entryOfValueOrUnseen(v, spanOf(listExpr, result.pf)));
    } catch (err) {
      const r = reasonOf(err);
      return [unseen(`the ${list} list is not static: ${r.reason}`, listExpr, result.pf, r.span)];
    }
  }
  const out: (ListEntryRead | UnseenListPart)[] = [];
  for (const el of [...literal.node.elements, ...literal.pushes.flatMap((c) => c.arguments)]) {
    if (ts.isSpreadElement(el)) {
      try {
        const value = evaluate(el.expression, literal.pf, ctx);
        if (!Array.isArray(value)) throw new Unresolvable('spread of a value that is not a static array', { node: el, pf: literal.pf });
        out.push(...value.map((v) => entryOfValueOrUnseen(v, spanOf(el, literal.pf))));
      } catch (err) {
        const r = reasonOf(err);
        const written = el.expression.getText(literal.pf.sf).replace(/\s+/g, ' ');
        out.push(unseen(`${list} spread from \`${written.length > 40 ? `${written.slice(0, 40)}...` : written}\`, a list not static (known at run time): ${r.reason}`, el, literal.pf, r.span));
      }
      continue;
    }
    const obj = literalOf(el, literal.pf, ctx, ts.isObjectLiteralExpression);
    if (obj) out.push(entryOfLiteral(obj.node, obj.pf, ctx, 'entry'));
    else {
      try {
        out.push(entryOfValueOrUnseen(evaluate(el, literal.pf, ctx), spanOf(el, literal.pf)));
      } catch (err) {
        const r = reasonOf(err);
        out.push(unseen(`a ${method} entry that is not static: ${r.reason}`, el, literal.pf, r.span, 'entry'));
      }
    }
  }
  return out;
}

/**
 * The function the handler is: written inline or as a function or const (resolveHandler), or a method read off an
 * object a static call returns (`const handlers = getResourceHandlers(m); setRequestHandler(S, handlers.listResources)`).
 */
function handlerFunction(expr: ts.Expression, pf: ParsedFile, ctx: EvalContext): { fn: ts.FunctionLikeDeclaration; pf: ParsedFile } | undefined {
  const h = resolveHandler(expr, pf, ctx);
  if (h) return h;
  try {
    const v = evaluate(expr, pf, { ...ctx, unrepresentable: [] });
    return v instanceof FnExpr && v.node.body ? { fn: v.node, pf: v.pf } : undefined;
  } catch {
    return undefined;
  }
}

/** An entry evaluated whole, or the row saying it is not an object. */
function entryOfValueOrUnseen(value: unknown, span: Span): ListEntryRead | UnseenListPart {
  return entryOfValue(value, span) ?? { unseen: 'entry', reason: 'an entry that is not an object', span };
}

/** Rows about the entry as a whole (a spread not read, an entry that is not JSON) get the part rules know it by. */
function wholeEntryIs(part: 'prompt' | 'resource', entry: ListEntryRead): void {
  for (const u of entry.unresolved) if (u.part === 'entry') u.part = part;
}

/** The entry's JSON as the SDK sends it, and its string keys located (a key that is not a string is unresolved). */
function jsonOf(entry: ListEntryRead): { contract: { [key: string]: JsonValue }; text: (key: string) => Located<string> | undefined } {
  const built = lowLevelToolContract(entry.values);
  const contract = 'contract' in built ? built.contract : {};
  if ('error' in built) entry.unresolved.push({ part: 'contract', reason: built.error, span: entry.span });
  const text = (key: string): Located<string> | undefined => {
    const span = entry.spans[key] ?? entry.span;
    const u = entry.unresolved.find((x) => x.part === key);
    if (u) return { value: undefined, span, unresolved: u };
    const v = contract[key];
    if (v === undefined) return undefined;
    if (typeof v === 'string') return { value: v, span };
    const bad: Unresolved = { part: key, reason: 'not a string', span };
    entry.unresolved.push(bad);
    return { value: undefined, span, unresolved: bad };
  };
  return { contract, text };
}

/** A located key every entry must have (a prompt's name, a resource's URI): unresolved when absent. */
function required(located: Located<string> | undefined, key: string, entry: ListEntryRead, what: string): Located<string> {
  if (located) return located;
  const u: Unresolved = { part: key, reason: `${what} without a \`${key}\``, span: entry.span };
  entry.unresolved.push(u);
  return { value: undefined, span: entry.span, unresolved: u };
}

function promptOf(base: Base, item: ListEntryRead | UnseenListPart): PromptDefinition {
  const registration = (span: Span) => ({ kind: 'handler' as const, span, calleeSpan: base.calleeSpan });
  const common = { language: 'typescript' as const, framework: base.framework, frameworkVersion: base.sdkVersion, file: base.file, server: base.server };
  if ('unseen' in item) {
    const u: Unresolved = { part: item.unseen === 'list' ? 'prompts' : 'prompt', reason: item.reason, span: item.span };
    return { ...common, registration: registration(item.span), name: { value: undefined, span: item.span, unresolved: u }, contract: {}, unresolved: [u] };
  }
  wholeEntryIs('prompt', item);
  const { contract, text } = jsonOf(item);
  const prompt: PromptDefinition = { ...common, registration: registration(item.span), name: required(text('name'), 'name', item, 'a prompts/list entry'), contract, unresolved: item.unresolved };
  const title = text('title');
  const description = text('description');
  if (title) prompt.title = title;
  if (description) prompt.description = description;
  const args = promptArguments(contract.arguments, item.spans.arguments ?? item.span);
  if (args && !item.unresolved.some((u) => u.part === 'arguments')) prompt.arguments = args;
  return prompt;
}

/** The `arguments` as published, when each is an object with a string name (absent: a prompt without arguments). */
function promptArguments(value: JsonValue | undefined, span: Span): PromptArgumentDefinition[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return undefined;
  const out: PromptArgumentDefinition[] = [];
  for (const a of value) {
    if (typeof a !== 'object' || a === null || Array.isArray(a) || typeof a.name !== 'string') return undefined;
    out.push({ name: a.name, ...(typeof a.description === 'string' ? { description: a.description } : {}), required: a.required === true, span });
  }
  return out;
}

function resourceOf(base: Base, item: ListEntryRead | UnseenListPart): ResourceDefinition {
  const kind = base.list === 'resourceTemplates' ? ('template' as const) : ('resource' as const);
  const registration = (span: Span) => ({ kind: 'handler' as const, span, calleeSpan: base.calleeSpan });
  const common = { language: 'typescript' as const, framework: base.framework, frameworkVersion: base.sdkVersion, file: base.file, server: base.server, kind };
  if ('unseen' in item) {
    const u: Unresolved = { part: item.unseen === 'list' ? base.list : 'resource', reason: item.reason, span: item.span };
    const absent = { value: undefined, span: item.span, unresolved: u };
    return { ...common, registration: registration(item.span), name: absent, uri: absent, metadata: [], contract: {}, unresolved: [u] };
  }
  wholeEntryIs('resource', item);
  const { contract, text } = jsonOf(item);
  const uriKey = kind === 'template' ? 'uriTemplate' : 'uri';
  const what = `a ${METHOD[base.list]} entry`;
  const uri = required(text(uriKey), uriKey, item, what);
  const name = required(text('name'), 'name', item, what);
  const metadata: ResourceMetadataEntry[] = Object.keys(item.values)
    .filter((k) => k !== uriKey && k !== 'name')
    .map((key) => {
      const span = item.spans[key] ?? item.span;
      const value = contract[key];
      const entries = typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.entries(value).map(([k, v]) => ({ key: k, value: v, span, keySpan: span })) : undefined;
      return { key, value, span, ...(entries ? { entries } : {}) };
    });
  const resource: ResourceDefinition = { ...common, registration: registration(item.span), name, uri, metadata, contract, unresolved: item.unresolved };
  for (const key of ['title', 'description', 'mimeType'] as const) {
    const located = text(key);
    if (located) resource[key] = located;
  }
  return resource;
}
