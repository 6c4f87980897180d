/**
 * Prompts, resources and resource templates of the Python front-end: `@server.prompt(...)` / `@server.resource(uri,
 * ...)` on a def (and the same decorator called by hand, `server.prompt(...)(fn)`), read with the server, function
 * and docstring machinery of the tool front-end (index.ts hands it over as a SurfaceHost, so this file does not import
 * it), and built into the prompts/list, resources/list and resources/templates/list entries by
 * contract/python/surfaces.ts. What is not modelled (`add_prompt(...)` of a built object, `icons=`) is an unresolved
 * row of an entry that is still listed, never dropped.
 */
import type { SyntaxNode } from '@lezer/common';
import type { Framework, JsonValue, Located, PromptDefinition, ResourceDefinition, ResourceMetadataEntry, Span, Unresolved } from '../model';
import type { PyModule } from './module';
import type { PyType } from './pytypes';
import { argsOf, child, children, dottedName, kwargsWithNames, literalValue, type Arg } from './syntax';
import { buildPythonPromptContract, buildPythonResourceContract } from '../../contract/python/surfaces';
import type { PyParamSpec, PyToolSpec } from '../../contract/python';
import { FRAMEWORKS, type PythonContractTraits } from '../../../../common/frameworks';

/** A server as the Python front-end knows it: where it is built, its framework, and why its contracts are not exact. */
export interface SurfaceServer {
  id: string;
  variable: string;
  framework: Framework;
  name?: string;
  span: Span;
  constructorSpan: Span;
  /** Why the server's tools cannot be exact (a parameter whose framework the code does not declare). */
  unresolved?: Unresolved;
}

/** What a registration reads of its function (the tool front-end's parameter and docstring readers). */
export interface FunctionRead {
  fnName: string;
  fnNameSpan: Span;
  /** The parameters that reach the argument model (Context, `*args` and the refused ones left out). */
  params: PyParamSpec[];
  /** Every parameter, Context marked, in order. */
  all: { name: string; hasDefault: boolean; isContext: boolean; variadic?: 'args' | 'kwargs'; span: Span; type?: PyType }[];
  rawDoc?: string;
  parsedDoc?: PyToolSpec['parsedDoc'];
  /** Where the docstring is written (for a finding about the description). */
  docSpan?: Span;
  /** Parameters the framework refuses or the analysis cannot model, an unreadable docstring. */
  unresolved: Unresolved[];
  /** `from __future__ import annotations` in the function's module. */
  stringAnnotations: boolean;
}

export interface SurfaceHost {
  mod: PyModule;
  serverNamed(name: string): SurfaceServer | undefined;
  functionOf(name: string): { mod: PyModule; fn: SyntaxNode } | undefined;
  readFunction(fnMod: PyModule, fn: SyntaxNode, framework: Framework, hasExplicitDescription: boolean, regSpan: Span): FunctionRead;
  versionOf(fw: Framework): string | undefined;
  pythonVersion(): readonly [number, number] | undefined;
}

/** A registration that makes the module fail at import (a TypeError, an invalid URI): every registration of the module is taken down. */
export interface SurfaceFailure {
  reason: string;
  span: Span;
  /** What failed ("prompt summarize", "resource config://app"), for the others' reason. */
  what: string;
}

export interface SurfaceResult {
  prompt?: PromptDefinition;
  resource?: ResourceDefinition;
  failure?: SurfaceFailure;
}

/** `@X.prompt` / `@X.prompt(...)` / `@X.resource(...)`: the server expression, the method and the argument list. */
function decoratorParts(mod: PyModule, dec: SyntaxNode): { server: string; method: 'prompt' | 'resource'; callee: Span; argList?: SyntaxNode } | undefined {
  const names: SyntaxNode[] = [];
  let argList: SyntaxNode | undefined;
  for (const p of children(dec)) {
    if (p.name === 'At') continue;
    if (p.name === 'VariableName' || p.name === '.') names.push(p);
    else if (p.name === 'ArgList' && !argList) argList = p;
    else return undefined;
  }
  const dotted = names.map((n) => (n.name === '.' ? '.' : mod.src(n))).join('');
  const m = /^([A-Za-z_][\w.]*)\.(prompt|resource)$/.exec(dotted);
  if (!m || !names.length) return undefined;
  return { server: m[1], method: m[2] as 'prompt' | 'resource', callee: { file: mod.file, start: names[0].from, end: names[names.length - 1].to }, argList };
}

/** A decorator on `def` registering a prompt or a resource on a known server; undefined when it is none. */
export function surfaceDecorator(host: SurfaceHost, dec: SyntaxNode, stmt: SyntaxNode, def: SyntaxNode): SurfaceResult | undefined {
  const { mod } = host;
  const parts = decoratorParts(mod, dec);
  const server = parts ? host.serverNamed(parts.server) : undefined;
  if (!parts || !server) return undefined;
  return registration(host, server, parts.method, { calleeSpan: parts.callee, argList: parts.argList, called: !!parts.argList, span: mod.span(stmt), fnMod: mod, fn: def });
}

/** `X.prompt(...)(fn)` / `X.resource(uri, ...)(fn)`: the decorator called by hand on a def this scope can find. */
export function surfaceCall(host: SurfaceHost, call: SyntaxNode): SurfaceResult | undefined {
  const { mod } = host;
  const inner = call.firstChild;
  if (inner?.name !== 'CallExpression' || !inner.firstChild) return undefined;
  const d = dottedName(inner.firstChild, mod.text);
  const m = d ? /^([A-Za-z_][\w.]*)\.(prompt|resource)$/.exec(d) : null;
  const server = m ? host.serverNamed(m[1]) : undefined;
  if (!m || !server) return undefined;
  const fnArgs = argsOf(child(call, 'ArgList'));
  const only = fnArgs.length === 1 && !fnArgs[0].name && !fnArgs[0].spread ? fnArgs[0].value : undefined;
  const fn = only?.name === 'VariableName' ? host.functionOf(mod.src(only)) : undefined;
  if (!fn) return undefined;
  return registration(host, server, m[2] as 'prompt' | 'resource', {
    calleeSpan: mod.span(inner.firstChild),
    argList: child(inner, 'ArgList'),
    called: true,
    span: mod.span(call),
    fnMod: fn.mod,
    fn: fn.fn,
  });
}

interface RegistrationSite {
  calleeSpan: Span;
  argList?: SyntaxNode;
  /** `@X.prompt()` rather than `@X.prompt`. */
  called: boolean;
  span: Span;
  fnMod: PyModule;
  fn: SyntaxNode;
}

/** The options of one registration call, read as literals (module constants followed). */
interface Options {
  name?: Located<string>;
  title?: Located<string>;
  description?: Located<string>;
  uri?: Located<string>;
  mimeType?: Located<string>;
  annotations?: { [k: string]: JsonValue };
  meta?: { [k: string]: JsonValue };
  tags?: string[];
  componentVersion?: string;
  disabled?: boolean;
  entries: ResourceMetadataEntry[];
  unresolved: Unresolved[];
  /** A keyword this release's prompt()/resource() does not take: TypeError at import. */
  typeError?: { reason: string; span: Span };
}

/** mcp 2.x (and FastMCP 4 on it) publish Annotations under their camelCase aliases; 1.x takes the keys as written. */
function annotationKey(key: string, framework: Framework, traits: PythonContractTraits): string {
  const camel = framework === 'mcp' || (framework === 'fastmcp' && traits.promptArgumentNote === 'value');
  return camel ? key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) : key;
}

function readOptions(mod: PyModule, method: 'prompt' | 'resource', args: Arg[], framework: Framework, traits: PythonContractTraits): Options {
  const o: Options = { entries: [], unresolved: [] };
  const fastmcp = FRAMEWORKS[framework].contractBuilder === 'fastmcp-function-parsing';
  const accepted = method === 'prompt' ? traits.promptOptions : traits.resourceOptions;
  // Positional parameters: resource(uri, *, ...); mcp's prompt(name, title, description, icons); FastMCP's prompt(name_or_fn, *, ...).
  const positional = method === 'resource' ? ['uri'] : fastmcp ? ['name'] : ['name', 'title', 'description', 'icons'];
  const evaluate = (n: SyntaxNode) => literalValue(n, mod.text, (x) => mod.enumMemberValue(x));
  const str = (n: SyntaxNode, part: string): Located<string> | undefined => {
    if (n.name === 'None') return undefined;
    const v = evaluate(n);
    const span = mod.span(n);
    if (v.ok && typeof v.value === 'string') return { value: v.value, span };
    return { value: undefined, span, unresolved: { part, reason: v.ok ? `${part}= is not a string` : v.reason, span } };
  };
  let index = 0;
  for (const a of args) {
    if (a.spread) {
      o.unresolved.push({ part: 'registration', reason: `${a.spread}${mod.src(a.value)} arguments are not resolved`, span: mod.span(a.value) });
      continue;
    }
    const key = a.name ? a.name : positional[index++];
    const span = mod.span(a.value);
    if (key === undefined) {
      o.typeError ??= { reason: `${method}() takes no further positional argument (${mod.src(a.value).slice(0, 40)}): TypeError at import`, span };
      continue;
    }
    if (a.name && a.name !== 'uri' && !(a.name === 'name' && method === 'prompt') && !accepted.includes(a.name) && !(fastmcp && a.name === 'name_or_fn')) {
      o.typeError ??= { reason: `${traits.release}'s ${method}() has no ${a.name}= keyword: registering raises TypeError and the server lists nothing`, span };
      continue;
    }
    o.entries.push({ key, value: undefined, span });
    const entry = o.entries[o.entries.length - 1];
    switch (key) {
      case 'name':
      case 'name_or_fn':
        o.name = str(a.value, 'name');
        break;
      case 'uri':
        o.uri = str(a.value, 'uri') ?? { value: undefined, span, unresolved: { part: 'uri', reason: 'uri=None', span } };
        break;
      case 'title':
        o.title = str(a.value, 'title');
        break;
      case 'description':
        o.description = str(a.value, 'description');
        break;
      case 'mime_type':
        o.mimeType = str(a.value, 'mimeType');
        break;
      case 'annotations': {
        const json = annotationsValue(mod, a.value);
        if (json === null) break;
        if (json) {
          const mapped: { [k: string]: JsonValue } = {};
          for (const [k, v] of Object.entries(json)) if (v !== null) mapped[annotationKey(k, framework, traits)] = v;
          o.annotations = mapped;
          entry.value = mapped;
        } else o.unresolved.push({ part: 'annotations', reason: 'annotations= is neither Annotations(...) nor a dict literal', span });
        break;
      }
      case 'meta': {
        const v = evaluate(a.value);
        if (v.ok && v.value && typeof v.value === 'object' && !Array.isArray(v.value)) o.meta = entry.value = v.value;
        else if (!(v.ok && v.value === null)) o.unresolved.push({ part: '_meta', reason: 'meta= is not a literal dict', span });
        break;
      }
      case 'tags': {
        const v = evaluate(a.value);
        if (v.ok && Array.isArray(v.value) && v.value.every((x) => typeof x === 'string')) o.tags = v.value;
        else if (!(v.ok && v.value === null)) o.unresolved.push({ part: '_meta', reason: 'tags= is not a literal set of strings', span });
        break;
      }
      case 'version': {
        const v = evaluate(a.value);
        if (v.ok && (typeof v.value === 'string' || typeof v.value === 'number')) o.componentVersion = String(v.value);
        else if (!(v.ok && v.value === null)) o.unresolved.push({ part: '_meta', reason: 'version= is not a literal', span });
        break;
      }
      case 'enabled': {
        const v = evaluate(a.value);
        if (v.ok && v.value === false) o.disabled = true;
        else if (!(v.ok && v.value === true)) o.unresolved.push({ part: method, reason: 'enabled= is not a literal: whether it is listed is not known', span });
        break;
      }
      case 'icons':
        if (a.value.name !== 'None') o.unresolved.push({ part: 'icons', reason: 'icons= is not modelled', span });
        break;
      case 'app':
        if (a.value.name !== 'None') o.unresolved.push({ part: '_meta', reason: 'app= (MCP Apps) is not modelled', span });
        break;
      // Run-time behaviour only: not part of what is listed.
      case 'auth':
      case 'task':
      case 'security':
        break;
      default:
        o.unresolved.push({ part: 'registration', reason: `argument ${key}= is not modelled by the analyser`, span });
    }
    if (entry.value === undefined) {
      const v = evaluate(a.value);
      if (v.ok) entry.value = v.value;
    }
  }
  for (const loc of [o.name, o.title, o.description, o.uri, o.mimeType]) if (loc?.unresolved) o.unresolved.push(loc.unresolved);
  return o;
}

/** `Annotations(audience=[...], priority=0.5)` or a dict literal as JSON; null for `None`, undefined when not readable. */
function annotationsValue(mod: PyModule, node: SyntaxNode): { [k: string]: JsonValue } | null | undefined {
  if (node.name === 'None') return null;
  if (node.name === 'VariableName') {
    const assigned = mod.assigns.get(mod.src(node));
    return assigned && assigned !== node ? annotationsValue(mod, assigned) : undefined;
  }
  if (node.name === 'CallExpression' && node.firstChild && /(^|\.)Annotations$/.test(mod.qualify(node.firstChild) ?? '')) {
    const out: { [k: string]: JsonValue } = {};
    for (const a of kwargsWithNames(argsOf(child(node, 'ArgList')), mod.text)) {
      if (!a.name) return undefined;
      const v = literalValue(a.value, mod.text, (x) => mod.enumMemberValue(x));
      if (!v.ok) return undefined;
      out[a.name] = v.value;
    }
    return out;
  }
  const v = literalValue(node, mod.text, (x) => mod.enumMemberValue(x));
  return v.ok && v.value && typeof v.value === 'object' && !Array.isArray(v.value) ? v.value : undefined;
}

function registration(host: SurfaceHost, server: SurfaceServer, method: 'prompt' | 'resource', site: RegistrationSite): SurfaceResult {
  const { mod } = host;
  const framework = server.framework;
  const profile = FRAMEWORKS[framework];
  const version = host.versionOf(framework);
  const traits = profile.contractTraits?.(version);
  if (!traits) return {};
  const fastmcp = profile.contractBuilder === 'fastmcp-function-parsing';
  const args = site.argList ? kwargsWithNames(argsOf(site.argList), mod.text) : [];
  const options = readOptions(mod, method, args, framework, traits);
  const fn = host.readFunction(site.fnMod, site.fn, framework, !!options.description, site.span);
  const unresolved: Unresolved[] = [...(server.unresolved ? [server.unresolved] : []), ...options.unresolved, ...fn.unresolved];
  const caveat = profile.versionCaveat(version);
  if (caveat) unresolved.push({ part: 'contract', reason: caveat, span: server.constructorSpan });
  if (!traits.surfacesModelled)
    unresolved.push({ part: 'contract', reason: `what ${traits.release} publishes for a ${method} is not modelled (only its tools/list was compared live)`, span: site.span });
  let failure: SurfaceFailure | undefined;
  const what = `${method} ${options.name?.value ?? options.uri?.value ?? fn.fnName}`;
  if (options.typeError) failure = { ...options.typeError, what };
  // `@mcp.resource` without a call, `@mcp.prompt` bare on the official SDK: the decorator is called with the function.
  if (!site.called && (method === 'resource' || !fastmcp))
    failure ??= {
      reason: `@${server.variable}.${method} is used without being called (${method === 'resource' ? `@${server.variable}.resource("uri")` : `@${server.variable}.prompt()`}): TypeError at import`,
      span: site.calleeSpan,
      what,
    };
  // What a prompt's and a resource's definition share: where it is registered, on which server, by which release.
  const definition = {
    language: 'python' as const,
    framework,
    ...(version !== undefined ? { frameworkVersion: version } : {}),
    file: mod.file,
    server: { id: server.id, variable: server.variable, ...(server.name !== undefined ? { name: server.name } : {}), span: server.span },
    registration: { kind: 'decorator' as const, span: site.span, calleeSpan: site.calleeSpan, ...(site.argList ? { configSpan: mod.span(site.argList) } : {}) },
  };
  const common = {
    framework,
    ...(version !== undefined ? { version } : {}),
    ...(host.pythonVersion() ? { pythonVersion: host.pythonVersion() } : {}),
    fnName: fn.fnName,
    title: options.title?.value,
    explicitDescription: options.description?.value,
    rawDoc: fn.rawDoc,
    meta: options.meta,
    tags: options.tags,
    componentVersion: options.componentVersion,
    unresolvedArgs: [],
    span: site.span,
  };
  const descriptionFact = (published: JsonValue | undefined): Located<string> | undefined => {
    if (options.description) return options.description;
    if (typeof published === 'string' || fn.docSpan) return { value: typeof published === 'string' ? published : undefined, span: fn.docSpan ?? fn.fnNameSpan };
    return undefined;
  };

  // FastMCP 2.x `enabled=False`: registered, never listed.
  if (options.disabled) return failure ? { failure } : {};
  if (method === 'prompt') {
    const name = options.name ?? { value: fn.fnName, span: fn.fnNameSpan };
    const ctx = fn.all.find((p) => p.isContext);
    const built = buildPythonPromptContract({
      ...common,
      name: name.value ?? fn.fnName,
      parsedDoc: fn.parsedDoc,
      params: fn.params,
      ...(ctx ? { contextParam: { name: ctx.name, span: ctx.span } } : {}),
      stringAnnotations: fn.stringAnnotations,
    });
    unresolved.push(...built.unresolved);
    if (failure) unresolved.push({ part: 'contract', reason: failure.reason, span: failure.span });
    let contract = built.contract;
    contract = without(contract, name.unresolved ? 'name' : undefined, options.title?.unresolved ? 'title' : undefined, options.description?.unresolved ? 'description' : undefined);
    const prompt: PromptDefinition = {
      ...definition,
      name,
      ...(options.title ? { title: options.title } : {}),
      ...(descriptionFact(contract.description) ? { description: descriptionFact(contract.description) } : {}),
      ...(built.arguments ? { arguments: built.arguments.map((a) => ({ ...a, span: fn.all.find((p) => p.name === a.name)?.span ?? fn.fnNameSpan })) } : {}),
      contract,
      unresolved,
    };
    return { prompt, ...(failure ? { failure } : {}) };
  }

  const uri = options.uri ?? { value: undefined, span: site.calleeSpan, unresolved: { part: 'uri', reason: 'resource() without a URI', span: site.calleeSpan } };
  const built = buildPythonResourceContract({
    ...common,
    ...(options.name?.value !== undefined ? { explicitName: options.name.value } : {}),
    uri: uri.value,
    uriSpan: uri.span,
    mimeType: options.mimeType?.value,
    annotations: options.annotations,
    params: fn.all.map((p) => ({ name: p.name, hasDefault: p.hasDefault, isContext: p.isContext, ...(p.variadic ? { variadic: p.variadic } : {}), span: p.span })),
  });
  unresolved.push(...built.unresolved);
  if (built.throws) failure ??= { reason: `${built.throws.message}: the server fails at import`, span: built.throws.span, what };
  if (failure) unresolved.push({ part: 'contract', reason: failure.reason, span: failure.span });
  const contract = without(
    built.contract,
    options.name?.unresolved ? 'name' : undefined,
    options.title?.unresolved ? 'title' : undefined,
    options.description?.unresolved ? 'description' : undefined,
    options.mimeType?.unresolved ? 'mimeType' : undefined,
  );
  const kind = built.kind ?? (uri.value !== undefined && /\{[^}]*\}/.test(uri.value) ? 'template' : 'resource');
  const nameValue = typeof contract.name === 'string' ? contract.name : undefined;
  const resource: ResourceDefinition = {
    ...definition,
    kind,
    name: options.name?.value !== undefined || options.name?.unresolved ? options.name : { value: nameValue, span: fn.fnNameSpan },
    uri,
    ...(options.title ? { title: options.title } : {}),
    ...(descriptionFact(contract.description) ? { description: descriptionFact(contract.description) } : {}),
    ...(options.mimeType ? { mimeType: options.mimeType } : {}),
    metadata: options.entries,
    ...(built.throws ? { throws: [built.throws] } : {}),
    contract,
    unresolved,
  };
  return { resource, ...(failure ? { failure } : {}) };
}

/** The entry without the keys whose written value is unresolved (never a made-up default in their place). */
function without(contract: { [key: string]: JsonValue }, ...keys: (string | undefined)[]): { [key: string]: JsonValue } {
  const drop = new Set(keys.filter(Boolean));
  if (!drop.size) return contract;
  const out: { [key: string]: JsonValue } = {};
  for (const [k, v] of Object.entries(contract)) if (!drop.has(k)) out[k] = v;
  return out;
}

/**
 * The same prompt name, resource URI or template registered twice on one server: which one is listed (the first, the
 * last, both as versions) differs by framework and is not modelled, so each of them says so.
 */
export function markDuplicates(prompts: PromptDefinition[], resources: ResourceDefinition[]): void {
  const groups = new Map<string, (PromptDefinition | ResourceDefinition)[]>();
  const add = (key: string | undefined, e: PromptDefinition | ResourceDefinition) => {
    if (key === undefined) return;
    groups.set(key, [...(groups.get(key) ?? []), e]);
  };
  // A low-level handler's list is published as returned, twice if written twice: no registry to collide in.
  for (const p of prompts) if (p.language === 'python' && p.registration.kind !== 'handler') add(`${p.server.id}#prompt#${p.name.value}`, p);
  for (const r of resources) if (r.language === 'python' && r.registration.kind !== 'handler') add(r.uri.value === undefined ? undefined : `${r.server.id}#${r.kind}#${r.uri.value}`, r);
  for (const [, list] of groups) {
    if (list.length < 2) continue;
    for (const e of list) {
      const reason = `registered ${list.length} times on this server: which registration is listed (the first, the last, or each as a version) is not modelled`;
      e.unresolved.push({ part: 'contract', reason, span: e.registration.span });
    }
  }
}

/**
 * Prompts and resources of a FastMCP server mounted on or imported into another: the parent lists them, renamed (the
 * prompt's name prefixed, the resource's URI rewritten, differently per release), and the rename of prompts and
 * resources is not modelled — each says so rather than read as listed under its own name.
 */
export function markComposedSurfaces(prompts: PromptDefinition[], resources: ResourceDefinition[], composed: ReadonlySet<string>): void {
  const reason = 'its server is mounted on or imported into another FastMCP server, which lists it renamed under its prefix: the renaming of prompts and resources is not modelled';
  for (const e of [...prompts, ...resources]) {
    if (!composed.has(e.server.id) || e.unresolved.some((u) => u.reason === reason)) continue;
    e.unresolved.push({ part: 'kind' in e ? 'uri' : 'name', reason, span: e.registration.span });
  }
}

/** A cheap textual test that a body may register prompts or resources (which factory and class bodies to walk). */
export function mayRegisterSurfaces(text: string): boolean {
  return /\.(prompt|resource)\b/.test(text);
}
