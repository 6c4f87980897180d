/**
 * Python front-end: @lezer/python syntax tree -> ToolDefinition[] for the official SDK (`mcp` 2.x MCPServer),
 * the removed 1.x import (`mcp.server.fastmcp.FastMCP`) and standalone FastMCP. Error tolerant: half-typed code
 * yields the tools it can; what cannot be resolved is listed in `unresolved`, never guessed. What differs between
 * the frameworks (constructors, tool options, docstring semantics...) is read from their profiles (common/frameworks.ts).
 */
import type { SyntaxNode } from '@lezer/common';
import type {
  AnalysisResult,
  AnnotationEntry,
  ConstraintFact,
  FileFacts,
  FileHost,
  Framework,
  JsonSchema,
  JsonValue,
  Located,
  ParameterDefinition,
  PromptDefinition,
  ResourceDefinition,
  Span,
  ToolDefinition,
  Unresolved,
} from '../model';
import { PyModule, PyProgram } from './module';
import type { FieldInfo, PyType } from './pytypes';
import { argsOf, child, children, dottedName, guardOf, kwargsWithNames, literalValue, meaningful, stringValue, type Arg, type LiteralResult } from './syntax';
import { cleanLineSpan, docstringOf, parseDocstring, type DocstringInfo, type ParsedDocstring } from './docstring';
import { handlerFacts } from './handler';
import { frameworkVersion, installedFrameworkVersion, pythonVersion, type PythonVersionFact } from './versions';
import { listedVersions } from './tool-versions';
import { buildPythonContract, type PyContractResult, type PyParamSpec, type PyToolSpec } from '../../contract/python';
import { cleandoc, cleandocLines, compilerCleanDoc } from '../../contract/python/cleandoc';
import { acceptsToolOption, frameworkOfConstructor, FRAMEWORKS, type FrameworkProfile } from '../../../../common/frameworks';
import {
  markComposedSurfaces,
  markDuplicates,
  mayRegisterSurfaces,
  surfaceCall,
  surfaceDecorator,
  type FunctionRead,
  type SurfaceFailure,
  type SurfaceHost,
  type SurfaceResult,
  type SurfaceServer,
} from './surfaces';
import { composedInto, composeServers, type Composition } from './compose';
import { LIST_DECORATORS, LIST_HANDLER_KWARGS, lowLevelSurfaces } from './lowlevel-surfaces';

/** A server a scope knows (surfaces.ts reads the same). */
type ServerVar = SurfaceServer;

/** Scope: the servers and functions visible by name (module scope, or a factory function's body). */
interface Scope {
  servers: Map<string, ServerVar>;
  /** Low-level `Server(...)` instances: their tools are the `Tool(...)` literals their list_tools handler returns. */
  lowLevel?: Map<string, ServerVar>;
  functions: Map<string, SyntaxNode>;
  parent?: Scope;
}

function lookup<T>(scope: Scope | undefined, pick: (s: Scope) => Map<string, T>, name: string): T | undefined {
  for (let s = scope; s; s = s.parent) {
    const v = pick(s).get(name);
    if (v) return v;
  }
  return undefined;
}

/** One analysis of one file: what its steps read and fill. */
interface PyAnalysis {
  mod: PyModule;
  facts: FileFacts;
  tools: ToolDefinition[];
  /** The framework of each server the file constructs, by server id (facts.servers does not carry it). */
  serverFrameworks: Map<string, Framework>;
  /** The release of a framework the contracts are predicted for: the one installed beside an installed package, else the workspace's pin (read once per framework). */
  versionOf(fw: Framework): string | undefined;
  /** The framework version the workspace pins (a range as written): the tools' `frameworkVersion`, what rules about the pin read. */
  pinnedVersionOf(fw: Framework): string | undefined;
  /** The Python version deciding what `__doc__` holds (read on first use). */
  py(): PythonVersionFact;
  /** What other workspace modules hold, read only when a name of this file leads there; shared by every step. */
  crossModule: CrossModule;
  /** Functions walked with a server bound to a parameter (`register_tools(mcp)`): not walked again unbound. */
  boundFunctions: Set<SyntaxNode>;
  /** Servers whose tools, registered in the module holding them, are already in `tools`. */
  pulled: Set<string>;
  /**
   * What makes a server fail at the pinned version: a tool (PyContractResult.serverFailure) or a composing call the
   * release does not have (`tool` absent). The tools it takes down are marked at the end.
   */
  failures: ServerFailure[];
  /** Servers mounted on, imported into or renamed by others (compose.ts applies them once the walk is done). */
  compositions: Composition[];
  /** Prompts and resources (./surfaces.ts), in registration order, and the registrations among them that fail their module at import. */
  prompts: PromptDefinition[];
  resources: ResourceDefinition[];
  surfaceFailures: { file: string; failure: SurfaceFailure; entry: PromptDefinition | ResourceDefinition | undefined }[];
}

interface ServerFailure {
  tool?: ToolDefinition;
  serverId: string;
  file: string;
  failure: NonNullable<PyContractResult['serverFailure']>;
}

/** Per-analysis memo of the cross-module lookups (each module's servers and tools are read once). */
interface CrossModule {
  /** `file#name` -> the server that module-level name holds and the module holding it (null: not a server). */
  servers: Map<string, { server: ServerVar; home: PyModule } | null>;
  /** file -> the tools that module registers at import time (null while being read: an import cycle). */
  tools: Map<string, ToolDefinition[] | null>;
  /** file -> the prompts and resources that module registers at import time (read with its tools). */
  surfaces: Map<string, { prompts: PromptDefinition[]; resources: ResourceDefinition[] }>;
}

/** Python version whose `__doc__` semantics apply (3.13+ strips docstring indentation at compile time). */
export interface PythonOptions {
  pythonVersion?: [number, number];
}

export function analyzePython(file: string, text: string, host: FileHost, options: PythonOptions = {}): AnalysisResult {
  const program = new PyProgram(host, file);
  const mod = new PyModule(file, text, program);
  program.add(mod);
  const facts: FileFacts = { file, language: 'python', v1Imports: [], servers: [], dependencies: [], syntaxErrors: [] };

  mod.tree.iterate({
    enter: (n) => {
      if (n.type.isError && facts.syntaxErrors.length < 50) {
        const start = n.from;
        const end = Math.max(n.to, Math.min(text.length, n.from + 1));
        facts.syntaxErrors.push({
          message: n.from >= text.length ? 'unexpected end of file' : `syntax error near ${JSON.stringify(text.slice(start, Math.min(end, start + 20)))}`,
          span: { file, start, end },
        });
      }
    },
  });

  for (const imp of mod.importList) {
    if (/^mcp\.server\.fastmcp(\.|$)/.test(imp.qualified) || imp.module === 'mcp.server.fastmcp' || imp.module.startsWith('mcp.server.fastmcp.')) {
      const stmt = findAncestor(mod, imp.span.start, 'ImportStatement');
      const span = stmt ? mod.span(stmt) : imp.span;
      if (!facts.v1Imports.some((v) => v.span.start === span.start)) facts.v1Imports.push({ span, text: mod.src({ from: span.start, to: span.end }) });
    }
  }

  const versions = new Map<Framework, string | undefined>();
  const pinnedVersionOf = (fw: Framework) => {
    if (!versions.has(fw)) versions.set(fw, frameworkVersion(host, file, FRAMEWORKS[fw].versionPackage));
    return versions.get(fw);
  };
  const installed = new Map<Framework, string | undefined>();
  const versionOf = (fw: Framework) => {
    if (!installed.has(fw)) installed.set(fw, installedFrameworkVersion(host, file, FRAMEWORKS[fw].versionPackage));
    return installed.get(fw) ?? pinnedVersionOf(fw);
  };
  // The Python version decides what `__doc__` holds (3.13+ strips indentation); read lazily, once per analysis.
  let pyFact: PythonVersionFact | undefined;
  const py = (): PythonVersionFact => {
    if (options.pythonVersion) {
      const v = options.pythonVersion;
      return { docSemantics: v[0] > 3 || (v[0] === 3 && v[1] >= 13) ? '3.13+' : 'pre-3.13', version: v, source: 'the caller' };
    }
    return (pyFact ??= pythonVersion(host, file));
  };

  const crossModule: CrossModule = { servers: new Map(), tools: new Map([[file, null]]), surfaces: new Map() };
  const analysis: PyAnalysis = {
    mod,
    facts,
    tools: [],
    serverFrameworks: new Map(),
    versionOf,
    pinnedVersionOf,
    py,
    crossModule,
    boundFunctions: new Set(),
    pulled: new Set(),
    failures: [],
    compositions: [],
    prompts: [],
    resources: [],
    surfaceFailures: [],
  };
  const moduleScope: Scope = { servers: new Map(), functions: new Map() };
  walkScope(analysis, children(mod.tree.topNode), moduleScope, '', 0);

  // Versions of one tool (fastmcp 3.x+): only the highest is listed; composed servers list what their child lists.
  analysis.tools = listedVersions(
    analysis.tools,
    (t) => FRAMEWORKS[t.framework].contractTraits?.(versionOf(t.framework))?.toolVersions === true,
    (tool, reason, span) => {
      tool.unresolved.push({ part: 'contract', reason, span });
      analysis.failures.push({ tool, serverId: tool.server.id, file: tool.file, failure: { when: 'import', reason, span } });
    },
  );
  analysis.tools = composeServers(analysis.tools, analysis.compositions);
  const { tools, serverFrameworks } = analysis;
  markServerFailures(analysis);
  const frameworks = new Set(facts.servers.map((s) => serverFrameworks.get(s.id)).filter(Boolean) as Framework[]);
  if (frameworks.size === 1) facts.framework = [...frameworks][0];
  else if (!frameworks.size) {
    // Tools on a server this file does not construct (imported, passed in): their server's framework.
    const fromImports = tools[0]?.framework ?? frameworkOfImports(mod);
    if (fromImports) facts.framework = fromImports;
  } else facts.framework = tools[0]?.framework;
  facts.dependencies = [...program.dependencies];
  const composed = [...new Set(analysis.compositions.flatMap((c) => (c.childId ? [c.childId] : [])))];
  if (composed.length) facts.composedServers = composed;
  const composing = [...new Set(analysis.compositions.map((c) => c.parent.id))];
  if (composing.length) facts.composingServers = composing;
  const { prompts, resources } = analysis;
  markComposedSurfaces(prompts, resources, new Set(composed));
  markDuplicates(prompts, resources);
  return { tools, files: [facts], ...(prompts.length ? { prompts } : {}), ...(resources.length ? { resources } : {}) };
}

/**
 * A tool that fails its server at the pinned version takes the others down with it: at import every tool the module
 * registers, at tools/list every tool of that server. Each gets the reason as an unresolved `contract` part.
 */
function markServerFailures(a: PyAnalysis): void {
  // A tool and its copies on the servers composing its own share the registration and the name's span.
  const sameRegistration = (t: ToolDefinition, tool: ToolDefinition) =>
    t === tool || (t.registration.span.file === tool.registration.span.file && t.registration.span.start === tool.registration.span.start && t.name.span.start === tool.name.span.start);
  for (const { tool, serverId, file, failure } of a.failures) {
    // The servers listing the failing tool: its own, and those it is mounted on or imported into (its copies).
    const servers = new Set([serverId]);
    if (tool) for (const t of a.tools) if (sameRegistration(t, tool)) servers.add(t.server.id);
    for (const t of a.tools) {
      if (tool && sameRegistration(t, tool)) continue;
      if (!servers.has(t.server.id) && !(failure.when === 'import' && t.file === file)) continue;
      const reason = tool ? `${tool.name.value ?? 'another tool'}: ${failure.reason}` : failure.reason;
      if (!t.unresolved.some((u) => u.reason === reason)) t.unresolved.push({ part: 'contract', reason, span: failure.span });
    }
    // A failure at import also takes down the prompts and resources its module registers.
    if (failure.when !== 'import') continue;
    const reason = tool ? `${tool.name.value ?? 'another tool'}: ${failure.reason}` : failure.reason;
    for (const e of [...a.prompts, ...a.resources]) {
      if (e.registration.span.file === file && !e.unresolved.some((u) => u.reason === reason)) e.unresolved.push({ part: 'contract', reason, span: failure.span });
    }
  }
  // A prompt or resource the SDK refuses at import takes every registration of its module down.
  for (const { file, failure, entry } of a.surfaceFailures) {
    const reason = `${failure.what}: ${failure.reason}`;
    for (const t of [...a.tools, ...a.prompts, ...a.resources]) {
      if (t === entry || t.registration.span.file !== file) continue;
      if (!t.unresolved.some((u) => u.reason === reason)) t.unresolved.push({ part: 'contract', reason, span: failure.span });
    }
  }
}

function frameworkOfImports(mod: PyModule): Framework | undefined {
  return mod.importList.map((i) => frameworkOfConstructor(i.qualified)).find(Boolean);
}

function findAncestor(mod: PyModule, pos: number, name: string): SyntaxNode | undefined {
  for (let n: SyntaxNode | null = mod.tree.resolveInner(pos, 1); n; n = n.parent) if (n.name === name) return n;
  return undefined;
}

function walkScope(a: PyAnalysis, stmts: SyntaxNode[], scope: Scope, scopeName: string, depth: number): void {
  if (depth > 20) return;
  const { mod, facts, tools } = a;
  // Functions first (a tool may be registered with add_tool before or after its def).
  const flat = flattenBlocks(stmts);
  for (const stmt of flat) {
    const def = stmt.name === 'DecoratedStatement' ? stmt.lastChild : stmt;
    if (def?.name === 'FunctionDefinition') {
      const n = child(def, 'VariableName');
      if (n) scope.functions.set(mod.src(n), def);
    }
  }
  for (const stmt of flat) {
    if (stmt.name === 'AssignStatement') {
      const parts = children(stmt);
      const opIdx = parts.findIndex((p) => p.name === 'AssignOp');
      const value = opIdx >= 0 ? parts[opIdx + 1] : undefined;
      const target = parts[0];
      if (target?.name === 'VariableName' && value?.name === 'CallExpression' && value.firstChild) {
        const fw = constructorFramework(mod, value.firstChild);
        const variable = mod.src(target);
        if (!fw && LOW_LEVEL_SERVERS.has(mod.qualify(value.firstChild) ?? '')) {
          const sv = lowLevelServer(a, target, value, scopeName);
          scope.lowLevel = new Map(scope.lowLevel).set(variable, sv);
          // 2.x: `Server(name, on_list_tools=handler)`.
          const kwargs = kwargsWithNames(argsOf(child(value, 'ArgList')), mod.text);
          const handler = kwargs.find((x) => x.name === 'on_list_tools');
          const fn = handler?.value.name === 'VariableName' ? functionOf(a, scope, mod.src(handler.value)) : undefined;
          if (fn) tools.push(...lowLevelTools(a, sv, fn.fn));
          // `on_list_prompts=`, `on_list_resources=`, `on_list_resource_templates=`: ./lowlevel-surfaces.ts.
          for (const kw of kwargs) {
            const list = kw.name !== undefined && Object.hasOwn(LIST_HANDLER_KWARGS, kw.name) ? LIST_HANDLER_KWARGS[kw.name] : undefined;
            const listFn = list && kw.value.name === 'VariableName' ? functionOf(a, scope, mod.src(kw.value)) : undefined;
            if (list && listFn) addHandlerSurfaces(a, lowLevelSurfaces(listFn.mod, sv, listFn.fn, list, mod.span(kw.value)));
          }
        } else if (fw) {
          const args = kwargsWithNames(argsOf(child(value, 'ArgList')), mod.text);
          const nameArg = args.find((a) => a.name === 'name') ?? args.find((a) => !a.name && !a.spread);
          const name = nameArg ? stringValue(nameArg.value, mod.text) : undefined;
          const id = `${mod.file}#${scopeName ? scopeName + '.' : ''}${variable}`;
          const sv = subclassCaveats(a, mod, { id, variable, framework: fw, name, span: mod.span(target), constructorSpan: mod.span(value) }, value.firstChild);
          scope.servers.set(variable, sv);
          a.serverFrameworks.set(id, fw);
          facts.servers.push({ id, variable, name, span: sv.span, constructorSpan: sv.constructorSpan });
          constructorCompositions(a, sv, value, scope);
        } else if (value.firstChild.name === 'VariableName') {
          // `mcp = create_server()` where the factory returns a server it built: alias the factory's server.
          const factory = functionOf(a, scope, mod.src(value.firstChild));
          const returned = factory ? factoryServer(factory.mod, factory.fn) : undefined;
          if (factory && returned) {
            scope.servers.set(variable, { ...returned, variable });
            // A factory of another module registered its tools there: they are this server's too.
            if (factory.mod !== mod) pullTools(a, factory.mod, returned.id);
          } else scope.servers.delete(variable);
        } else scope.servers.delete(variable);
      }
    }
  }
  // Classes holding servers (before the module's own registrations: `@App.mcp.tool` reads them).
  for (const stmt of flat) {
    const cls = stmt.name === 'DecoratedStatement' ? stmt.lastChild : stmt;
    if (cls?.name === 'ClassDefinition') walkClass(a, cls, scope, scopeName, depth);
  }
  for (const stmt of flat) {
    if (stmt.name === 'DecoratedStatement') {
      const def = stmt.lastChild;
      if (def?.name !== 'FunctionDefinition') continue;
      for (const dec of children(stmt).filter((c) => c.name === 'Decorator')) {
        // 1.x: `@server.list_tools()` (`list_prompts()`, `list_resources()`, `list_resource_templates()`) on a low-level Server.
        const listing = /^([A-Za-z_]\w*)\.(list_tools|list_prompts|list_resources|list_resource_templates)\(/.exec(mod.src(dec).slice(1));
        const lowLevel = listing ? lookup(scope, (s) => s.lowLevel ?? new Map<string, ServerVar>(), listing[1]) : undefined;
        if (lowLevel && listing?.[2] === 'list_tools') {
          tools.push(...lowLevelTools(a, lowLevel, def));
          continue;
        }
        if (lowLevel && listing) {
          addHandlerSurfaces(a, lowLevelSurfaces(mod, lowLevel, def, LIST_DECORATORS[listing[2]], mod.span(dec)));
          continue;
        }
        const reg = decoratorRegistration(a, dec, scope);
        if (reg) {
          const t = buildTool(a, { ...reg, stmt, fn: def });
          if (t) tools.push(t);
        } else {
          const surface = surfaceDecorator(surfaceHost(a, scope), dec, stmt, def);
          if (surface) addSurface(a, surface);
          else tools.push(...customDecoratorTools(a, dec, scope, stmt, def));
        }
      }
    } else if (stmt.name === 'ExpressionStatement') {
      const expr = stmt.firstChild;
      // `await parent.import_server(child)` (in an async setup function), `asyncio.run(parent.import_server(child))`.
      const awaited = expr?.name === 'AwaitExpression' ? child(expr, 'CallExpression') : undefined;
      if (awaited) compositionCall(a, awaited, scope);
      const call = awaited ? undefined : expr;
      if (call?.name === 'CallExpression') {
        const ran = runArgument(mod, call);
        if (compositionCall(a, ran ?? call, scope)) continue;
        if (runCall(a, call, scope)) continue;
        const reg = callRegistration(a, call, scope);
        if (reg) {
          const t = buildTool(a, { ...reg, stmt: call });
          if (t) tools.push(t);
        } else {
          const unseen = unresolvedFunctionRegistration(a, call, scope);
          const surface = unseen ? undefined : surfaceCall(surfaceHost(a, scope), call);
          if (unseen) tools.push(unseen);
          else if (surface) addSurface(a, surface);
          else walkServerArguments(a, call, scope, scopeName, depth);
        }
      }
    }
  }
  // Factories: functions that build a server and register tools on it.
  for (const stmt of flat) {
    const def = stmt.name === 'DecoratedStatement' ? stmt.lastChild : stmt;
    if (def?.name !== 'FunctionDefinition' || a.boundFunctions.has(def)) continue;
    const body = child(def, 'Body');
    const bodyText = body ? mod.text.slice(body.from, body.to) : '';
    if (!body || !(containsToolRegistration(mod, body) || DECORATOR_CALL.test(bodyText) || COMPOSING_CALL.test(bodyText))) continue;
    const n = child(def, 'VariableName');
    const innerName = `${scopeName ? scopeName + '.' : ''}${n ? mod.src(n) : '<fn>'}`;
    const inner: Scope = { servers: parameterServers(a, def, body, innerName), functions: new Map(), parent: scope };
    walkScope(a, children(body), inner, innerName, depth + 1);
  }
}

/**
 * A class holding servers: class attributes (`mcp = FastMCP(...)`, also `Cls.mcp` outside) and attributes its methods
 * assign (`self.mcp = FastMCP(...)`). Each method registering tools is walked with `self.<attr>` bound to them.
 */
function walkClass(a: PyAnalysis, cls: SyntaxNode, scope: Scope, scopeName: string, depth: number): void {
  const { mod } = a;
  const body = child(cls, 'Body');
  const nameNode = child(cls, 'VariableName');
  if (!body || !nameNode || !containsToolRegistration(mod, body)) return;
  const className = `${scopeName ? scopeName + '.' : ''}${mod.src(nameNode)}`;
  const held = new Map<string, ServerVar>();
  const members = flattenBlocks(children(body));
  const methods = members.map((m) => (m.name === 'DecoratedStatement' ? m.lastChild : m)).filter((m): m is SyntaxNode => m?.name === 'FunctionDefinition');
  const holdServer = (target: SyntaxNode, value: SyntaxNode, attribute: string) => {
    const framework = value.firstChild ? constructorFramework(mod, value.firstChild) : undefined;
    if (!framework || held.has(attribute)) return;
    const args = kwargsWithNames(argsOf(child(value, 'ArgList')), mod.text);
    const nameArg = args.find((x) => x.name === 'name') ?? args.find((x) => !x.name && !x.spread);
    const name = nameArg ? stringValue(nameArg.value, mod.text) : undefined;
    const id = `${mod.file}#${className}.${attribute}`;
    const sv: ServerVar = { id, variable: `self.${attribute}`, framework, ...(name !== undefined ? { name } : {}), span: mod.span(target), constructorSpan: mod.span(value) };
    held.set(attribute, sv);
    a.serverFrameworks.set(id, framework);
    a.facts.servers.push({ id, variable: sv.variable, name, span: sv.span, constructorSpan: sv.constructorSpan });
  };
  const assignments = (stmts: SyntaxNode[]) =>
    stmts
      .filter((x) => x.name === 'AssignStatement')
      .map((x) => children(x))
      .filter((p) => p.length === 3 && p[1].name === 'AssignOp' && p[2].name === 'CallExpression');
  for (const [target, , value] of assignments(members)) if (target.name === 'VariableName') holdServer(target, value, mod.src(target));
  for (const method of methods) {
    const methodBody = child(method, 'Body');
    for (const [target, , value] of assignments(methodBody ? flattenBlocks(children(methodBody)) : [])) {
      const m = /^self\.([A-Za-z_]\w*)$/.exec(dottedName(target, mod.text) ?? '');
      if (m) holdServer(target, value, m[1]);
    }
  }
  if (!held.size) return;
  const servers = new Map<string, ServerVar>();
  for (const [attribute, sv] of held) {
    servers.set(`self.${attribute}`, sv);
    scope.servers.set(`${mod.src(nameNode)}.${attribute}`, { ...sv, variable: `${mod.src(nameNode)}.${attribute}` });
  }
  for (const method of methods) {
    const methodBody = child(method, 'Body');
    const n = child(method, 'VariableName');
    if (!methodBody || !containsToolRegistration(mod, methodBody)) continue;
    walkScope(a, children(methodBody), { servers: new Map(servers), functions: new Map(), parent: scope }, `${className}.${n ? mod.src(n) : '<fn>'}`, depth + 1);
  }
}

/** The SDK's low-level server class (1.x and 2.x): it lists what its list_tools handler returns, JSON Schema as written. */
const LOW_LEVEL_SERVERS = new Set(['mcp.server.lowlevel.Server', 'mcp.server.lowlevel.server.Server', 'mcp.server.Server']);

function lowLevelServer(a: PyAnalysis, target: SyntaxNode, value: SyntaxNode, scopeName: string): ServerVar {
  const { mod } = a;
  const variable = mod.src(target);
  const args = kwargsWithNames(argsOf(child(value, 'ArgList')), mod.text);
  const nameArg = args.find((x) => x.name === 'name') ?? args.find((x) => !x.name && !x.spread);
  const name = nameArg ? stringValue(nameArg.value, mod.text) : undefined;
  // The SDK's major version decides which framework's rules apply; the contract is the literal either way.
  const framework: Framework = /^1\./.test(a.versionOf('mcp-v1') ?? '') ? 'mcp-v1' : 'mcp';
  const id = `${mod.file}#${scopeName ? scopeName + '.' : ''}${variable}`;
  const sv: ServerVar = { id, variable, framework, ...(name !== undefined ? { name } : {}), span: mod.span(target), constructorSpan: mod.span(value) };
  a.serverFrameworks.set(id, framework);
  a.facts.servers.push({ id, variable, name, span: sv.span, constructorSpan: sv.constructorSpan });
  return sv;
}

/**
 * The tools a low-level list_tools handler returns: `return [Tool(...), ...]` (1.x) or
 * `return ListToolsResult(tools=[...])` (2.x), each `Tool(...)` read from its literal arguments. A list built any
 * other way is one tool whose every part is unresolved, so the file still says it has a server whose tools are unseen.
 */
function lowLevelTools(a: PyAnalysis, server: ServerVar, fn: SyntaxNode): ToolDefinition[] {
  const { mod } = a;
  const body = child(fn, 'Body');
  const out: ToolDefinition[] = [];
  for (const stmt of body ? flattenBlocks(children(body)) : []) {
    if (stmt.name !== 'ReturnStatement') continue;
    let value = meaningful(stmt).find((c) => c.name !== 'return');
    if (value?.name === 'CallExpression' && /(^|\.)ListToolsResult$/.test(mod.qualify(value.firstChild!) ?? ''))
      value = kwargsWithNames(argsOf(child(value, 'ArgList')), mod.text).find((x) => x.name === 'tools')?.value;
    const items = value?.name === 'ArrayExpression' ? meaningful(value) : undefined;
    for (const item of items ?? [value ?? stmt]) {
      const isTool = items && item.name === 'CallExpression' && /(^|\.)Tool$/.test(mod.qualify(item.firstChild!) ?? '');
      out.push(lowLevelTool(a, server, item, isTool ? undefined : `the list_tools handler's ${items ? 'entry' : 'result'} ${mod.src(item).slice(0, 40)} is not a Tool(...) literal`));
    }
  }
  return out;
}

/** Tool(...) keyword -> its tools/list key (1.x takes the camelCase names, 2.x the snake_case ones). */
const LOW_LEVEL_TOOL_KEYS: Record<string, string> = {
  name: 'name',
  title: 'title',
  description: 'description',
  inputSchema: 'inputSchema',
  input_schema: 'inputSchema',
  outputSchema: 'outputSchema',
  output_schema: 'outputSchema',
  annotations: 'annotations',
  _meta: '_meta',
  meta: '_meta',
};

function lowLevelTool(a: PyAnalysis, server: ServerVar, node: SyntaxNode, unreadable: string | undefined): ToolDefinition {
  const { mod } = a;
  const span = mod.span(node);
  const unresolved: Unresolved[] = unreadable ? [{ part: 'tool', reason: unreadable, span }] : [];
  const contract: JsonSchema = {};
  let annotations: ToolDefinition['annotations'];
  let schemaNode: SyntaxNode | undefined;
  for (const arg of unreadable ? [] : kwargsWithNames(argsOf(child(node, 'ArgList')), mod.text)) {
    const key = arg.name ? LOW_LEVEL_TOOL_KEYS[arg.name] : undefined;
    if (!key) {
      unresolved.push({ part: 'tool', reason: `Tool(${arg.name ?? mod.src(arg.value).slice(0, 30)}) is not modelled`, span: mod.span(arg.value) });
      continue;
    }
    if (arg.value.name === 'None') continue;
    if (key === 'annotations') {
      const r = annotationEntries(mod, arg.value, server.framework);
      annotations = { span: mod.span(arg.value), entries: r.entries };
      if (r.json) contract.annotations = r.json;
      if (r.unresolved) unresolved.push(r.unresolved);
      continue;
    }
    const v = literalValue(arg.value, mod.text, (n) => mod.enumMemberValue(n));
    if (key === 'inputSchema') schemaNode = arg.value;
    if (v.ok) contract[key] = v.value;
    else unresolved.push({ part: key, reason: v.reason, span: mod.span(arg.value) });
  }
  if (!unreadable && contract.name === undefined && !unresolved.some((u) => u.part === 'name')) unresolved.push({ part: 'name', reason: 'Tool(...) without a name', span });
  const schema = contract.inputSchema as { properties?: Record<string, JsonSchema>; required?: string[] } | undefined;
  const schemaSpan = schemaNode ? mod.span(schemaNode) : span;
  const name = typeof contract.name === 'string' ? contract.name : undefined;
  const description = typeof contract.description === 'string' ? contract.description : undefined;
  const located = <T>(value: T | undefined, part: string): Located<T> => ({
    value,
    span,
    ...(value === undefined ? { unresolved: unresolved.find((u) => u.part === part) ?? { part, reason: unreadable ?? 'not resolved', span } } : {}),
  });
  return {
    language: 'python',
    framework: server.framework,
    file: mod.file,
    server: { id: server.id, variable: server.variable, ...(server.name !== undefined ? { name: server.name } : {}), span: server.span },
    registration: { kind: 'add_tool', span, calleeSpan: node.firstChild ? mod.span(node.firstChild) : span },
    name: located(name, 'name'),
    ...(typeof contract.title === 'string' ? { title: { value: contract.title, span } } : {}),
    ...(description !== undefined || unresolved.some((u) => u.part === 'description') ? { description: { ...located(description, 'description'), origin: 'explicit' as const } } : {}),
    parameters: Object.entries(schema?.properties ?? {}).map(([param, propSchema]) => ({
      name: param,
      nameSpan: schemaSpan,
      span: schemaSpan,
      schema: propSchema,
      required: !!schema?.required?.includes(param),
      ...(typeof propSchema.description === 'string' ? { description: { value: propSchema.description, span: schemaSpan, origin: 'other' as const } } : {}),
      constraints: [],
      untyped: propSchema.type === undefined,
    })),
    ...(schemaNode ? { inputSchemaSpan: schemaSpan } : {}),
    ...(annotations ? { annotations } : {}),
    // The handler is the server's call_tool dispatcher, not one function per tool: no body facts to read.
    handler: { span, isAsync: false, bodySpan: span, calls: [], returns: [], raises: [], hasPathContainmentCheck: false },
    contract,
    unresolved,
    unrepresentable: [],
  };
}

/** The framework whose server class `callee` constructs (`FastMCP(...)`, generic `MCPServer[State](...)`). */
function constructorFramework(mod: PyModule, callee: SyntaxNode): Framework | undefined {
  const klass = genericBase(callee);
  const q = mod.qualify(klass);
  const known = q ? frameworkOfConstructor(q) : undefined;
  return known ?? (klass.name === 'VariableName' ? subclassFramework(mod, mod.src(klass), 0) : undefined);
}

/** `class AppServer(FastMCP)` in this or another workspace module: the framework of the server class it extends. */
function subclassFramework(mod: PyModule, name: string, depth: number): Framework | undefined {
  if (depth > 3) return undefined;
  const d = mod.classes.has(name) ? { mod, name } : importedDefinition(mod, name);
  const stmt = d?.mod.classes.get(d.name);
  const cls = stmt?.name === 'DecoratedStatement' ? stmt.lastChild : stmt;
  const bases = cls ? child(cls, 'ArgList') : undefined;
  if (!d || !bases) return undefined;
  for (const base of argsOf(bases)) {
    if (base.name || base.spread) continue;
    const klass = genericBase(base.value);
    const q = d.mod.qualify(klass);
    const fw = (q && frameworkOfConstructor(q)) ?? (klass.name === 'VariableName' ? subclassFramework(d.mod, d.mod.src(klass), depth + 1) : undefined);
    if (fw) return fw;
  }
  return undefined;
}

/** The class of a generic subscript (`FastMCP[State]` -> `FastMCP`), else the expression itself. */
function genericBase(node: SyntaxNode): SyntaxNode {
  const parts = node.name === 'MemberExpression' ? children(node) : [];
  return parts[1]?.name === '[' ? parts[0] : node;
}

/** Server methods that decide what a tool publishes, or which tools are listed: a subclass overriding one runs its own code there. */
const REGISTERING_METHODS = new Set(['tool', 'add_tool']);
const LISTING_METHODS = new Set(['list_tools', '_list_tools', '_list_tools_mcp', '_mcp_list_tools', '_list_tools_middleware', 'get_tools']);

/**
 * The first registering and listing methods a workspace subclass of a server class overrides (`class
 * AtlassianMCP(ErrorPreservingFastMCP)` overriding `_list_tools_mcp`, its base overriding `tool`), with the class.
 */
function serverClassOverrides(mod: PyModule, callee: SyntaxNode, depth = 0): { registering?: string; listing?: string } {
  const klass = genericBase(callee);
  if (depth > 3 || klass.name !== 'VariableName') return {};
  const q = mod.qualify(klass);
  if (q && frameworkOfConstructor(q)) return {};
  const name = mod.src(klass);
  const d = mod.classes.has(name) ? { mod, name } : importedDefinition(mod, name);
  const stmt = d?.mod.classes.get(d.name);
  const cls = stmt?.name === 'DecoratedStatement' ? stmt.lastChild : stmt;
  const body = cls ? child(cls, 'Body') : undefined;
  if (!d || !cls || !body) return {};
  const out: { registering?: string; listing?: string } = {};
  for (const member of flattenBlocks(children(body))) {
    const f = member.name === 'DecoratedStatement' ? member.lastChild : member;
    const n = f?.name === 'FunctionDefinition' ? child(f, 'VariableName') : undefined;
    const method = n ? d.mod.src(n) : '';
    if (REGISTERING_METHODS.has(method)) out.registering ??= `${name}.${method}`;
    if (LISTING_METHODS.has(method)) out.listing ??= `${name}.${method}`;
  }
  for (const base of argsOf(child(cls, 'ArgList'))) {
    if (base.name || base.spread) continue;
    const inherited = serverClassOverrides(d.mod, base.value, depth + 1);
    out.registering ??= inherited.registering;
    out.listing ??= inherited.listing;
  }
  return out;
}

/**
 * A server of a workspace subclass overriding what registers or lists tools: each tool it registers says so (the
 * ServerVar's `unresolved`), and every tool it lists (its own and mounted ones) carries the listing override.
 */
function subclassCaveats(a: PyAnalysis, mod: PyModule, sv: ServerVar, callee: SyntaxNode): ServerVar {
  const o = serverClassOverrides(mod, callee);
  if (o.listing && !a.compositions.some((c) => c.span.file === sv.constructorSpan.file && c.span.start === sv.constructorSpan.start)) {
    const traits = FRAMEWORKS[sv.framework].contractTraits?.(a.versionOf(sv.framework));
    const reason = `the server class overrides ${o.listing}(): the list it publishes (which tools, their schemas) is that code's, not modelled`;
    if (traits) a.compositions.push({ kind: 'namespace', span: sv.constructorSpan, parent: toolServer(sv), prefix: '', traits, opaque: { part: 'contract', reason, span: sv.constructorSpan } });
  }
  if (!o.registering || sv.unresolved) return sv;
  return {
    ...sv,
    unresolved: { part: 'contract', reason: `the server class overrides ${o.registering}(): what a registration publishes runs through that code, not modelled`, span: sv.constructorSpan },
  };
}

/**
 * The servers a function receives as parameters and registers tools on (`def register_tools(mcp): @mcp.tool()`),
 * seen from the function's own module, where no caller says which server it is. An annotation naming a server class
 * gives the framework and the tools are exact; untyped or `Any`, the framework is the one the module imports (or the
 * SDK) and every tool says its contract is unresolved.
 */
function parameterServers(a: PyAnalysis, def: SyntaxNode, body: SyntaxNode, scopeName: string): Map<string, ServerVar> {
  const { mod } = a;
  const servers = new Map<string, ServerVar>();
  const bodyText = mod.text.slice(body.from, body.to);
  for (const p of parameterNodes(mod, def)) {
    if (!new RegExp(`(^|[^\\w.])${p.name}\\.(tool|add_tool)\\b`).test(bodyText)) continue;
    const declared = p.annotation ? constructorFramework(mod, p.annotation) : undefined;
    const framework = declared ?? frameworkOfImports(mod) ?? 'mcp';
    const span = mod.span(p.node);
    servers.set(p.name, {
      id: `${mod.file}#${scopeName}.${p.name}`,
      variable: p.name,
      framework,
      span,
      constructorSpan: p.annotation ? mod.span(p.annotation) : span,
      ...(declared
        ? {}
        : {
            unresolved: {
              part: 'contract',
              reason: `the server is the parameter ${p.name} of ${scopeName}()${p.annotation ? ` typed ${mod.src(p.annotation)}` : ', untyped'}: its framework is not declared here (predicted for ${FRAMEWORKS[framework].name}); annotate it with the server class, or check the file that passes the server in`,
              span,
            },
          }),
    });
  }
  return servers;
}

/** A function's plain parameters (name, annotation), `self`/`cls` and `*`/`**` ones left out. */
function parameterNodes(mod: PyModule, def: SyntaxNode): { name: string; node: SyntaxNode; annotation?: SyntaxNode }[] {
  const list = child(def, 'ParamList');
  const out: { name: string; node: SyntaxNode; annotation?: SyntaxNode }[] = [];
  let star = false;
  let current: (typeof out)[number] | undefined;
  for (const c of list ? children(list) : []) {
    if (c.name === '*' || c.name === '**') star = true;
    else if (c.name === ',') {
      star = false;
      current = undefined;
    } else if (c.name === 'VariableName' && !star && !current) out.push((current = { name: mod.src(c), node: c }));
    else if (c.name === 'TypeDef' && current) current.annotation = meaningful(c)[0];
  }
  return out.filter((p, i) => !(i === 0 && (p.name === 'self' || p.name === 'cls')));
}

/**
 * `register_tools(mcp)` / `tools.setup(server=mcp)`: a function of this or another module receives a server this
 * scope knows. Its body is walked with that parameter bound to the server, so its tools are the server's (exact).
 */
function walkServerArguments(a: PyAnalysis, call: SyntaxNode, scope: Scope, scopeName: string, depth: number): void {
  const callee = call.firstChild;
  if (!callee || callee.name !== 'VariableName' || depth > 20) return;
  const args = kwargsWithNames(argsOf(child(call, 'ArgList')), a.mod.text);
  const passed = args.map((arg) => (arg.value.name === 'VariableName' ? serverNamed(a, scope, a.mod.src(arg.value)) : undefined));
  if (!passed.some(Boolean)) return;
  const target = functionOf(a, scope, a.mod.src(callee));
  const body = target && child(target.fn, 'Body');
  if (!target || !body || a.boundFunctions.has(target.fn)) return;
  const params = parameterNodes(target.mod, target.fn);
  const bound = new Map<string, ServerVar>();
  args.forEach((arg, i) => {
    const server = passed[i];
    const param = arg.name ? params.find((p) => p.name === arg.name) : arg.spread ? undefined : params[i];
    if (server && param) bound.set(param.name, server);
  });
  if (!bound.size) return;
  a.boundFunctions.add(target.fn);
  const fnName = a.mod.src(callee);
  const sub = target.mod === a.mod ? a : foreignAnalysis(a, target.mod);
  walkScope(sub, children(body), { servers: bound, functions: new Map(), parent: target.mod === a.mod ? scope : undefined }, `${scopeName ? scopeName + '.' : ''}${fnName}`, depth + 1);
}

/** A step of this analysis reading another module: same tools list and memo, that module's text, its own facts. */
function foreignAnalysis(a: PyAnalysis, mod: PyModule): PyAnalysis {
  return { ...a, mod, facts: { file: mod.file, language: 'python', v1Imports: [], servers: [], dependencies: [], syntaxErrors: [] }, serverFrameworks: new Map() };
}

/** A function by name: defined in this scope chain, at the module's top level, or imported from a workspace module. */
function functionOf(a: PyAnalysis, scope: Scope, name: string): { mod: PyModule; fn: SyntaxNode } | undefined {
  const local = lookup(scope, (s) => s.functions, name) ?? a.mod.functions.get(name);
  if (local) return { mod: a.mod, fn: local };
  return importedFunction(a.mod, name, 0);
}

function importedFunction(mod: PyModule, name: string, depth: number): { mod: PyModule; fn: SyntaxNode } | undefined {
  const d = depth < 5 ? importedDefinition(mod, name) : undefined;
  if (!d) return undefined;
  const fn = d.mod.functions.get(d.name);
  return fn ? { mod: d.mod, fn } : importedFunction(d.mod, d.name, depth + 1);
}

/** `from .server import mcp` -> the workspace module `.server` and the name `mcp` there (re-exports followed by callers). */
function importedDefinition(mod: PyModule, local: string): { mod: PyModule; name: string } | undefined {
  const imp = mod.imports.get(local);
  // `import pkg` binds a module, not a name defined in one.
  if (!imp || imp.qualified === imp.module || (imp.level === 0 && !imp.module)) return undefined;
  const target = mod.program.resolveModule('.'.repeat(imp.level) + imp.module, mod.file);
  return target ? { mod: target, name: imp.qualified.slice(imp.qualified.lastIndexOf('.') + 1) } : undefined;
}

/** The server a name holds here: a server of the scope chain, or one imported from the module that builds it. */
function serverNamed(a: PyAnalysis, scope: Scope, name: string): ServerVar | undefined {
  const local = lookup(scope, (s) => s.servers, name);
  if (local || lookup(scope, (s) => s.functions, name)) return local;
  const d = importedDefinition(a.mod, name);
  const held = d ? moduleServer(a, d.mod, d.name, 0) : undefined;
  if (!held) return undefined;
  // The module holding the server registered tools on it when it was imported: those come first.
  pullTools(a, held.home, held.server.id);
  return { ...held.server, variable: name };
}

/** The server a module-level name of `mod` holds (built there, by a factory, or re-exported), and that module. */
function moduleServer(a: PyAnalysis, mod: PyModule, name: string, depth: number): { server: ServerVar; home: PyModule } | undefined {
  const key = `${mod.file}#${name}`;
  const memo = a.crossModule.servers;
  if (memo.has(key)) return memo.get(key) ?? undefined;
  memo.set(key, null);
  let found: { server: ServerVar; home: PyModule } | undefined;
  const value = mod.assigns.get(name);
  if (value?.name === 'CallExpression' && value.firstChild) {
    const framework = constructorFramework(mod, value.firstChild);
    const assign = value.parent!;
    const targetNode = assign.firstChild!;
    if (framework) {
      const args = kwargsWithNames(argsOf(child(value, 'ArgList')), mod.text);
      const nameArg = args.find((x) => x.name === 'name') ?? args.find((x) => !x.name && !x.spread);
      const serverName = nameArg ? stringValue(nameArg.value, mod.text) : undefined;
      const server: ServerVar = { id: key, variable: name, framework, ...(serverName !== undefined ? { name: serverName } : {}), span: mod.span(targetNode), constructorSpan: mod.span(value) };
      found = { server: subclassCaveats(a, mod, server, value.firstChild), home: mod };
    } else if (value.firstChild.name === 'VariableName') {
      const factoryName = mod.src(value.firstChild);
      const local = mod.functions.get(factoryName);
      const factory = local ? { mod, fn: local } : importedFunction(mod, factoryName, 0);
      const returned = factory ? factoryServer(factory.mod, factory.fn) : undefined;
      if (returned) found = { server: { ...returned, variable: name }, home: mod };
    }
  } else if (!value && depth < 5) {
    const d = importedDefinition(mod, name);
    if (d) found = moduleServer(a, d.mod, d.name, depth + 1);
  }
  memo.set(key, found ?? null);
  return found;
}

/** Adds the tools `home` registers on server `id` when imported (read once per module, then filtered). */
function pullTools(a: PyAnalysis, home: PyModule, id: string): void {
  if (a.pulled.has(id)) return;
  a.pulled.add(id);
  const registered = moduleTools(a, home);
  // Servers that module mounts on this one (read with it) are listed through it.
  const ids = composedInto(id, a.compositions);
  a.tools.push(...registered.filter((t) => ids.has(t.server.id) && !a.tools.includes(t)));
  const surfaces = a.crossModule.surfaces.get(home.file);
  if (surfaces) {
    a.prompts.push(...surfaces.prompts.filter((p) => ids.has(p.server.id) && !a.prompts.includes(p)));
    a.resources.push(...surfaces.resources.filter((r) => ids.has(r.server.id) && !a.resources.includes(r)));
  }
}

/** The tools a module registers at import time, on any server (an import cycle reads as none). */
function moduleTools(a: PyAnalysis, mod: PyModule): ToolDefinition[] {
  const memo = a.crossModule.tools;
  if (memo.has(mod.file)) return memo.get(mod.file) ?? [];
  memo.set(mod.file, null);
  const sub: PyAnalysis = { ...foreignAnalysis(a, mod), tools: [], pulled: new Set(), boundFunctions: new Set(), prompts: [], resources: [], surfaceFailures: [] };
  walkScope(sub, children(mod.tree.topNode), { servers: new Map(), functions: new Map() }, '', 1);
  memo.set(mod.file, sub.tools);
  a.crossModule.surfaces.set(mod.file, { prompts: sub.prompts, resources: sub.resources });
  return sub.tools;
}

/** A call of a method composing FastMCP servers (a function whose body has one is walked like a factory). */
const COMPOSING_CALL = /\.(?:mount|import_server|add_provider|add_transform)\s*\(/;

/** `asyncio.run(parent.import_server(child))`: the call run. */
function runArgument(mod: PyModule, call: SyntaxNode): SyntaxNode | undefined {
  if (!call.firstChild || mod.qualify(call.firstChild) !== 'asyncio.run') return undefined;
  const args = argsOf(child(call, 'ArgList'));
  return args.length === 1 && !args[0].name && args[0].value.name === 'CallExpression' ? args[0].value : undefined;
}

function toolServer(sv: ServerVar): ToolDefinition['server'] {
  return { id: sv.id, variable: sv.variable, ...(sv.name !== undefined ? { name: sv.name } : {}), span: sv.span };
}

/** What a composing call passes as the server or provider: a server this analysis sees built, or why its tools are unseen. */
type Composed = { server: ServerVar } | { unseen: string };

function composedServer(a: PyAnalysis, scope: Scope, node: SyntaxNode, depth = 0): Composed {
  const { mod } = a;
  const text = mod.src(node).replace(/\s+/g, ' ').slice(0, 60);
  const unseen = { unseen: `\`${text}\` is not a server Toolsmith sees constructed: the tools it adds are not known` };
  if (node.name === 'VariableName' || node.name === 'MemberExpression') {
    const d = dottedName(node, mod.text);
    const named = d ? serverNamed(a, scope, d) : undefined;
    if (named) return { server: named };
    // `patient.router` where `patient` is a workspace module (`from app.tools import patient`).
    const parts = node.name === 'MemberExpression' ? children(node) : [];
    const imp = parts.length === 3 && parts[0].name === 'VariableName' ? mod.imports.get(mod.src(parts[0])) : undefined;
    const home = imp ? mod.program.resolveModule(imp.qualified, mod.file) : undefined;
    const held = home ? moduleServer(a, home, mod.src(parts[2]), 0) : undefined;
    if (!held) return unseen;
    pullTools(a, held.home, held.server.id);
    return { server: { ...held.server, variable: d ?? held.server.variable } };
  }
  if (node.name !== 'CallExpression' || !node.firstChild || depth > 2) return unseen;
  const callee = dottedName(node.firstChild, mod.text) ?? '';
  const klass = callee.slice(callee.lastIndexOf('.') + 1);
  const args = kwargsWithNames(argsOf(child(node, 'ArgList')), mod.text);
  const first = args.find((x) => !x.name && !x.spread)?.value;
  // `FastMCPProvider(server)` is what mount() builds; a proxy of a server of this process lists what it lists.
  if ((klass === 'FastMCPProvider' || klass === 'as_proxy' || klass === 'create_proxy') && first) {
    const inner = composedServer(a, scope, first, depth + 1);
    if ('server' in inner || klass === 'FastMCPProvider') return inner;
    return { unseen: `a proxy of ${mod.src(first).slice(0, 60)}: its tools are what that server lists at run time` };
  }
  if (klass === 'FileSystemProvider') return { unseen: `FileSystemProvider(...) imports the Python files of a directory at run time and lists their @tool functions: not read statically` };
  if (/OpenAPI|from_openapi|from_fastapi/.test(callee)) return { unseen: `${klass}(...) builds its tools from an OpenAPI description at run time: not read statically` };
  if (/Proxy/.test(klass)) return { unseen: `${klass}(...) lists the tools of another server at run time: not read statically` };
  return { unseen: `${klass || text}(...) is a provider Toolsmith does not model: the tools it adds are not known` };
}

/** A literal prefix (None and "" are none), or why it is unknown. */
function compositionPrefix(mod: PyModule, node: SyntaxNode | undefined, what: string): { prefix: string | undefined; prefixUnresolved?: Unresolved } {
  if (!node || node.name === 'None') return { prefix: '' };
  const v = stringValue(node, mod.text);
  if (v !== undefined) return { prefix: v };
  const span = mod.span(node);
  return { prefix: undefined, prefixUnresolved: { part: 'name', reason: `the ${what} ${mod.src(node).slice(0, 40)} is computed at run time: the published names are not known`, span } };
}

/**
 * `parent.mount(child, prefix)`, `await parent.import_server(child, prefix)`, `parent.add_provider(child, namespace=)`,
 * `parent.add_transform(Namespace("x"))` on a server of this scope: recorded for compose.ts, or, where the pinned
 * release has no such call or keyword, the failure that takes the server down. True when `call` is one.
 */
function compositionCall(a: PyAnalysis, call: SyntaxNode | undefined, scope: Scope): boolean {
  const { mod } = a;
  const callee = call?.firstChild;
  const d = callee?.name === 'MemberExpression' ? dottedName(callee, mod.text) : undefined;
  const m = d ? /^([A-Za-z_][\w.]*)\.(mount|import_server|add_provider|add_transform)$/.exec(d) : null;
  const parent = m ? serverNamed(a, scope, m[1]) : undefined;
  if (!call || !m || !parent) return false;
  const span = mod.span(call);
  if (
    a.compositions.some((c) => c.span.file === span.file && c.span.start === span.start) ||
    a.failures.some((f) => !f.tool && f.failure.span.file === span.file && f.failure.span.start === span.start)
  )
    return true;
  const method = m[2];
  const traits = FRAMEWORKS[parent.framework].contractTraits?.(a.versionOf(parent.framework));
  const composition = traits?.composition;
  const release = traits?.release ?? FRAMEWORKS[parent.framework].name;
  const fail = (reason: string) => a.failures.push({ serverId: parent.id, file: mod.file, failure: { when: 'import', reason: `${reason}: the server lists no tools`, span } });
  if (!traits || !composition) {
    fail(`${release}'s server class has no ${method}() (server composition is standalone FastMCP's): AttributeError`);
    return true;
  }
  const args = kwargsWithNames(argsOf(child(call, 'ArgList')), mod.text);
  const positional = args.filter((x) => !x.name && !x.spread);
  const keyword = (k: string) => args.find((x) => x.name === k)?.value;
  if (args.some((x) => x.spread)) {
    fail(`${method}(${args.find((x) => x.spread)!.spread}...) arguments are not resolved`);
    return true;
  }
  const record = (c: Omit<Composition, 'span' | 'parent' | 'traits'>, node: SyntaxNode | undefined) =>
    composeInto(a, parent, node ? composedServer(a, scope, node) : { unseen: `${method}() without a server` }, { ...c, span, parent: toolServer(parent), traits }, node ?? call);
  let serverArg = positional[0]?.value ?? keyword('server') ?? keyword('provider');
  // `mount("prefix", server)`, the order before fastmcp 2.9 (swapped with a warning until 2.13).
  if (serverArg && (serverArg.name === 'String' || serverArg.name === 'FormatString') && (method === 'mount' || method === 'import_server')) {
    if (!composition.prefixFirst || positional.length < 2) {
      fail(`${release}'s ${method}() takes the server first: ${method}(prefix, server), the order before fastmcp 2.9, was dropped in 2.14 (AttributeError on the string)`);
      return true;
    }
    const [prefix, server] = [positional[0], positional[1]];
    positional.splice(0, 2, server, prefix);
    serverArg = server.value;
  }
  if (method === 'mount') {
    const params = composition.mountParameters;
    const bad = args.find((x) => x.name && x.name !== 'server' && !params.includes(x.name));
    if (bad || positional.length - 1 > params.length) {
      fail(`${release}'s mount() takes ${bad ? `no ${bad.name}= keyword` : `at most ${params.length + 1} positional arguments`} (it takes ${['server', ...params].join(', ')}): TypeError at import`);
      return true;
    }
    const bound = (p: string) => keyword(p) ?? (params.includes(p) ? positional[params.indexOf(p) + 1]?.value : undefined);
    const prefixNode = bound('namespace') ?? bound('prefix');
    const namesNode = bound('tool_names');
    const toolNames = namesNode && namesNode.name !== 'None' ? toolNamesMap(mod, namesNode, composition.toolNames) : undefined;
    record({ kind: 'mount', ...compositionPrefix(mod, prefixNode, 'mount prefix'), ...(toolNames ? { toolNames } : {}) }, serverArg);
  } else if (method === 'import_server') {
    if (!composition.importServer) fail(`${release} has no import_server() (removed in fastmcp 4.0 for mount()): AttributeError`);
    else if (args.some((x) => x.name && x.name !== 'server' && x.name !== 'prefix') || positional.length > 2) fail(`${release}'s import_server() takes (server, prefix): TypeError`);
    else record({ kind: 'import', ...compositionPrefix(mod, keyword('prefix') ?? positional[1]?.value, 'import prefix') }, serverArg);
  } else if (!composition.providers) {
    fail(`${release} has no ${method}() (providers and transforms came with fastmcp 3.0): AttributeError`);
  } else if (method === 'add_provider') {
    record({ kind: 'mount', ...compositionPrefix(mod, keyword('namespace'), 'provider namespace') }, serverArg);
  } else {
    transformComposition(a, parent, serverArg, span, traits);
  }
  return true;
}

/** `server.run(show_banner=False)` on a release whose run() hands its keywords to the stdio transport: TypeError at start. */
function runCall(a: PyAnalysis, call: SyntaxNode, scope: Scope): boolean {
  const { mod } = a;
  const callee = call.firstChild;
  const d = callee?.name === 'MemberExpression' ? dottedName(callee, mod.text) : undefined;
  const m = d ? /^([A-Za-z_][\w.]*)\.run$/.exec(d) : null;
  const server = m ? serverNamed(a, scope, m[1]) : undefined;
  if (!server) return false;
  const traits = FRAMEWORKS[server.framework].contractTraits?.(a.versionOf(server.framework));
  const banner = kwargsWithNames(argsOf(child(call, 'ArgList')), mod.text).find((x) => x.name === 'show_banner');
  if (!traits || traits.runShowBanner || !banner) return false;
  const span = mod.span(call);
  if (!a.failures.some((f) => !f.tool && f.failure.span.file === span.file && f.failure.span.start === span.start))
    a.failures.push({
      serverId: server.id,
      file: mod.file,
      failure: { when: 'import', reason: `${traits.release}'s run() has no show_banner= (it passes it to run_stdio_async: TypeError when the server starts): the server lists no tools`, span },
    });
  return true;
}

/**
 * Records that `parent` lists `target`'s tools. A server or provider whose tools are not seen becomes a stand-in
 * server holding one tool whose every part is unresolved (the reason), listed where that server's tools would be.
 */
function composeInto(a: PyAnalysis, parent: ServerVar, target: Composed, c: Omit<Composition, 'childId'>, node: SyntaxNode): void {
  if (!('unseen' in target) && target.server.framework === 'fastmcp') {
    a.compositions.push({ ...c, childId: target.server.id });
    return;
  }
  const reason = 'unseen' in target ? target.unseen : `${target.server.variable} is a ${FRAMEWORKS[target.server.framework].name} server: composing it into a FastMCP server is not modelled`;
  const standIn: ServerVar = { ...parent, id: `${parent.id}@${c.span.start}` };
  a.tools.push(lowLevelTool(a, standIn, node, reason));
  a.compositions.push({ ...c, childId: standIn.id });
}

/** `tool_names={"old": "new"}`: a dict literal of strings, else every name of that mount is unknown. */
function toolNamesMap(mod: PyModule, node: SyntaxNode, mode: 'replaces' | 'before-namespace'): NonNullable<Composition['toolNames']> {
  const v = literalValue(node, mod.text, (n) => mod.enumMemberValue(n));
  if (v.ok && v.value && typeof v.value === 'object' && !Array.isArray(v.value) && Object.values(v.value).every((x) => typeof x === 'string'))
    return { map: new Map(Object.entries(v.value as Record<string, string>)), mode };
  return {
    map: undefined,
    mode,
    unresolved: { part: 'name', reason: `tool_names=${mod.src(node).slice(0, 40)} is not a literal dict of names: the renamed tools are not known`, span: mod.span(node) },
  };
}

/** `Namespace("x")` renames every tool the server lists; another transform is named on each of them, not modelled. */
function transformComposition(a: PyAnalysis, parent: ServerVar, node: SyntaxNode | undefined, span: Span, traits: NonNullable<ReturnType<NonNullable<FrameworkProfile['contractTraits']>>>): void {
  const { mod } = a;
  const callee = node?.name === 'CallExpression' && node.firstChild ? (mod.qualify(node.firstChild) ?? '') : '';
  const args = node?.name === 'CallExpression' ? kwargsWithNames(argsOf(child(node, 'ArgList')), mod.text) : [];
  const prefixNode = args.find((x) => x.name === 'prefix')?.value ?? args.find((x) => !x.name && !x.spread)?.value;
  const base = { kind: 'namespace' as const, span, parent: toolServer(parent), traits };
  if (/(^|\.)Namespace$/.test(callee) && prefixNode) a.compositions.push({ ...base, ...compositionPrefix(mod, prefixNode, 'namespace') });
  else
    a.compositions.push({
      ...base,
      prefix: '',
      opaque: {
        part: 'contract',
        reason: `the transform ${node ? mod.src(node).slice(0, 60) : '?'} rewrites the tools the server lists at run time: not modelled`,
        span: node ? mod.span(node) : span,
      },
    });
}

/** `FastMCP(..., providers=[...], transforms=[...])`: composed like add_provider()/add_transform() calls, in order. */
function constructorCompositions(a: PyAnalysis, sv: ServerVar, value: SyntaxNode, scope: Scope): void {
  const { mod } = a;
  const args = kwargsWithNames(argsOf(child(value, 'ArgList')), mod.text).filter((x) => x.name === 'providers' || x.name === 'transforms');
  if (!args.length) return;
  const traits = FRAMEWORKS[sv.framework].contractTraits?.(a.versionOf(sv.framework));
  for (const arg of args) {
    const span = mod.span(arg.value);
    if (!traits?.composition?.providers) {
      a.failures.push({
        serverId: sv.id,
        file: mod.file,
        failure: {
          when: 'import',
          reason: `${traits?.release ?? FRAMEWORKS[sv.framework].name}'s server takes no ${arg.name}= (providers and transforms came with fastmcp 3.0): TypeError at import: the server lists no tools`,
          span,
        },
      });
      continue;
    }
    const items = arg.value.name === 'ArrayExpression' ? meaningful(arg.value) : undefined;
    if (!items) {
      a.compositions.push({
        kind: 'namespace',
        span,
        parent: toolServer(sv),
        traits,
        prefix: '',
        opaque: { part: 'contract', reason: `${arg.name}=${mod.src(arg.value).slice(0, 40)} is not a list literal: what it adds or changes is not known`, span },
      });
      continue;
    }
    for (const item of items) {
      const itemSpan = mod.span(item);
      if (arg.name === 'transforms') {
        transformComposition(a, sv, item, itemSpan, traits);
        continue;
      }
      if (!a.compositions.some((c) => c.span.file === itemSpan.file && c.span.start === itemSpan.start))
        composeInto(a, sv, composedServer(a, scope, item), { kind: 'mount', span: itemSpan, parent: toolServer(sv), prefix: '', traits }, item);
    }
  }
}

/** A decorator called with arguments on a nested def (`@register_tool("x")`, `@tools.reader("X")`): maybe a registration factory. */
const DECORATOR_CALL = /^[ \t]+@[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?\s*\(/m;

function containsToolRegistration(mod: PyModule, body: SyntaxNode): boolean {
  const src = mod.text.slice(body.from, body.to);
  return /\.(tool|add_tool)\b/.test(src) || mayRegisterSurfaces(src);
}

/** What ./surfaces.ts reads through this front-end: servers and functions by name in `scope`, a function's parameters and docstring. */
function surfaceHost(a: PyAnalysis, scope: Scope): SurfaceHost {
  return {
    mod: a.mod,
    serverNamed: (name) => serverNamed(a, scope, name),
    functionOf: (name) => functionOf(a, scope, name),
    readFunction: (fnMod, fn, framework, hasExplicitDescription, regSpan) => readFunction(a, fnMod, fn, framework, hasExplicitDescription, regSpan),
    versionOf: (fw) => a.versionOf(fw),
    pythonVersion: () => a.py().version,
  };
}

function addHandlerSurfaces(a: PyAnalysis, r: { prompts: PromptDefinition[]; resources: ResourceDefinition[] }): void {
  a.prompts.push(...r.prompts);
  a.resources.push(...r.resources);
}

function addSurface(a: PyAnalysis, r: SurfaceResult): void {
  if (r.prompt) a.prompts.push(r.prompt);
  if (r.resource) a.resources.push(r.resource);
  if (r.failure) a.surfaceFailures.push({ file: a.mod.file, failure: r.failure, entry: r.prompt ?? r.resource });
}

/** A prompt's or resource's function as buildTool reads a tool's: its parameters, docstring and published `__doc__`. */
function readFunction(a: PyAnalysis, fnMod: PyModule, fn: SyntaxNode, framework: Framework, hasExplicitDescription: boolean, regSpan: Span): FunctionRead {
  const profile = FRAMEWORKS[framework];
  const fnNameNode = child(fn, 'VariableName');
  const docs = docstringFacts(fnMod, fn);
  const params = parameters(fnMod, fn);
  const input = inputParams(params, profile);
  const published = publishedDoc(a, fnMod, docs.doc, profile.docstring === 'verbatim', hasExplicitDescription, regSpan);
  const unresolved = [...input.unresolved, ...(docs.unresolved ? [docs.unresolved] : []), ...(published.unresolved ? [published.unresolved] : [])];
  return {
    fnName: fnNameNode ? fnMod.src(fnNameNode) : '',
    fnNameSpan: fnNameNode ? fnMod.span(fnNameNode) : regSpan,
    params: input.specs,
    all: params.map((p) => ({
      name: p.name,
      hasDefault: p.default !== undefined || !!p.defaultUnresolved || !!p.defaultField?.default || !!p.defaultField?.defaultFactory,
      isContext: p.isContext,
      ...(p.kind === 'varargs' ? { variadic: 'args' as const } : p.kind === 'kwargs' ? { variadic: 'kwargs' as const } : {}),
      span: p.span,
      ...(p.type ? { type: p.type } : {}),
    })),
    rawDoc: published.rawDoc,
    parsedDoc: profile.docstring === 'parsed' && published.rawDoc !== undefined ? (cleandoc(published.rawDoc) ? docs.parsed : { args: [] }) : undefined,
    ...(docs.doc ? { docSpan: fnMod.span(docs.doc.node) } : {}),
    unresolved,
    stringAnnotations: /^from\s+__future__\s+import\s+[^\n]*\bannotations\b/m.test(fnMod.text),
  };
}

/** The server a factory function creates and returns (`def make(): s = MCPServer(); ...; return s`). */
function factoryServer(mod: PyModule, fn: SyntaxNode): ServerVar | undefined {
  const body = child(fn, 'Body');
  if (!body) return undefined;
  const fnName = child(fn, 'VariableName');
  let returned: string | undefined;
  const created = new Map<string, ServerVar>();
  for (const stmt of flattenBlocks(children(body))) {
    if (stmt.name === 'AssignStatement') {
      const parts = children(stmt);
      const value = parts[parts.length - 1];
      if (parts[0]?.name === 'VariableName' && value?.name === 'CallExpression' && value.firstChild) {
        const q = mod.qualify(value.firstChild);
        const fw = q ? frameworkOfConstructor(q) : undefined;
        if (fw) {
          const variable = mod.src(parts[0]);
          const args = kwargsWithNames(argsOf(child(value, 'ArgList')), mod.text);
          const nameArg = args.find((a) => a.name === 'name') ?? args.find((a) => !a.name && !a.spread);
          created.set(variable, {
            id: `${mod.file}#${fnName ? mod.src(fnName) : '<fn>'}.${variable}`,
            variable,
            framework: fw,
            name: nameArg ? stringValue(nameArg.value, mod.text) : undefined,
            span: mod.span(parts[0]),
            constructorSpan: mod.span(value),
          });
        }
      }
    } else if (stmt.name === 'ReturnStatement') {
      const v = meaningful(stmt).find((c) => c.name !== 'return');
      if (v?.name === 'VariableName') returned = mod.src(v);
    }
  }
  return returned ? created.get(returned) : undefined;
}

/** Statements of a block including those nested in if/try/with blocks (same scope in Python). */
function flattenBlocks(stmts: SyntaxNode[], depth = 0): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (const s of stmts) {
    if (depth < 10 && (s.name === 'IfStatement' || s.name === 'TryStatement' || s.name === 'WithStatement')) {
      for (const b of children(s).filter((c) => c.name === 'Body')) out.push(...flattenBlocks(children(b), depth + 1));
    } else out.push(s);
  }
  return out;
}

interface Registration {
  server: ServerVar;
  kind: 'decorator' | 'add_tool';
  calleeSpan: Span;
  /** Decorator / call argument list (undefined for a bare decorator). */
  argList?: SyntaxNode;
  decoratorCalled?: boolean;
  /** add_tool / direct call: the function argument. */
  fn?: SyntaxNode;
  /** The module defining `fn` when it is imported (`mcp.add_tool(search)` with `from .tools import search`). */
  fnMod?: PyModule;
  /** The module `args` are written in when not the registration's (a standalone `@tool(...)` on an imported function). */
  optionsMod?: PyModule;
  /** Arguments that configure the tool (name=, title=...), positional `name` included. */
  args: Arg[];
  /** FastMCP forms some releases lack: `add_tool(fn)` with a plain function, the standalone `@tool` decorator, `add_tool(Tool.from_function(fn))`. */
  form?: 'function' | 'standalone' | 'tool-object';
  /** A decorator factory's registration: what the names in `args` stand for (the factory's parameters, bound by the decorator call). */
  bindings?: Bindings;
  /** What the factory does that the analysis does not follow (each an unresolved part of the tool). */
  factoryUnresolved?: Unresolved[];
}

/** What a name stands for inside a function called with known arguments: the expression passed (or the default), where it is written. */
interface Bound {
  node: SyntaxNode;
  mod: PyModule;
  /** The names bound where `node` is written (a factory calling another with its own parameters). */
  bindings?: Bindings;
}
type Bindings = Map<string, Bound>;

/** An expression with its bound names followed to what they stand for (`name` -> the caller's `"search"`). */
function follow(node: SyntaxNode, mod: PyModule, bindings: Bindings | undefined): Bound {
  let cur: Bound = { node, mod, bindings };
  for (let i = 0; i < 10 && cur.node.name === 'VariableName'; i++) {
    const next = cur.bindings?.get(cur.mod.src(cur.node));
    if (!next) break;
    cur = next;
  }
  return cur;
}

/** The name resolver of `literalValue` where `bindings` hold: bound names first (also inside f-strings), then the module's constants. */
function resolverOf(mod: PyModule, bindings: Bindings | undefined): (n: SyntaxNode) => LiteralResult | undefined {
  return (n) => {
    if (n.name === 'VariableName' && bindings?.has(mod.src(n))) {
      const b = follow(n, mod, bindings);
      return literalValue(b.node, b.mod.text, resolverOf(b.mod, b.bindings));
    }
    return mod.enumMemberValue(n);
  };
}

/** The parameters of `fn` bound to a call's arguments (keyword or positional), else to their defaults; a `*args` spread stops the positional ones. */
function bindArguments(fnMod: PyModule, fn: SyntaxNode, argList: SyntaxNode | undefined, callerMod: PyModule, callerBindings: Bindings | undefined, boundMethod: boolean): Bindings {
  const params = fnParams(fnMod, fn).slice(boundMethod ? 1 : 0);
  const bindings: Bindings = new Map();
  for (const p of params) if (p.default) bindings.set(p.name, { node: p.default, mod: fnMod });
  let positional = true;
  kwargsWithNames(argsOf(argList), callerMod.text).forEach((x, i) => {
    if (x.spread) positional = false;
    else if (x.name) bindings.set(x.name, { node: x.value, mod: callerMod, bindings: callerBindings });
    else if (positional && params[i]) bindings.set(params[i].name, { node: x.value, mod: callerMod, bindings: callerBindings });
  });
  return bindings;
}

function decoratorRegistration(a: PyAnalysis, dec: SyntaxNode, scope: Scope): Registration | undefined {
  const { mod } = a;
  const parts = children(dec).filter((c) => c.name !== 'At');
  const names: SyntaxNode[] = [];
  let argList: SyntaxNode | undefined;
  for (const p of parts) {
    if (p.name === 'VariableName' || p.name === '.') names.push(p);
    else if (p.name === 'ArgList') argList = p;
    else return undefined;
  }
  const dotted = names.map((n) => (n.name === '.' ? '.' : mod.src(n))).join('');
  const m = /^([A-Za-z_][\w.]*)\.tool$/.exec(dotted);
  if (!m) return undefined;
  const server = serverNamed(a, scope, m[1]);
  if (!server) return undefined;
  const first = names[0];
  const last = names[names.length - 1];
  const args = argList ? kwargsWithNames(argsOf(argList), mod.text) : [];
  return { server, kind: 'decorator', calleeSpan: { file: mod.file, start: first.from, end: last.to }, argList, decoratorCalled: !!argList, args };
}

function callRegistration(a: PyAnalysis, call: SyntaxNode, scope: Scope): (Registration & { fn: SyntaxNode }) | undefined {
  const { mod } = a;
  const callee = call.firstChild;
  if (!callee) return undefined;
  if (callee.name === 'CallExpression') return curriedRegistration(a, call, callee, scope);
  const d = dottedName(callee, mod.text);
  const m = d ? /^([A-Za-z_][\w.]*)\.(add_tool|tool)$/.exec(d) : null;
  if (!m) return undefined;
  const server = serverNamed(a, scope, m[1]);
  if (!server) return undefined;
  const argList = child(call, 'ArgList');
  const args = kwargsWithNames(argsOf(argList), mod.text);
  const fnArg = args.find((a) => !a.name && !a.spread) ?? args.find((a) => a.name === 'fn' || a.name === 'name_or_fn');
  if (!fnArg) return undefined;
  let extraArgs = args.filter((a) => a !== fnArg);
  let value = fnArg.value;
  let toolObject = false;
  // FastMCP: add_tool(Tool.from_function(fn, name=...)).
  if (value.name === 'CallExpression' && value.firstChild && /(^|\.)Tool\.from_function$/.test(dottedName(value.firstChild, mod.text) ?? '')) {
    toolObject = m[2] === 'add_tool';
    const inner = kwargsWithNames(argsOf(child(value, 'ArgList')), mod.text);
    const innerFn = inner.find((a) => !a.name && !a.spread) ?? inner.find((a) => a.name === 'fn');
    if (!innerFn) return undefined;
    value = innerFn.value;
    extraArgs = inner.filter((a) => a !== innerFn);
  }
  const named = value.name === 'VariableName' ? functionOf(a, scope, mod.src(value)) : undefined;
  const found: { mod: PyModule; fn: SyntaxNode; cls?: SyntaxNode } | undefined = named ?? boundMethod(mod, value);
  // `@functools.wraps(other)`: the framework reads the signature and docstring of `other` (inspect follows __wrapped__).
  const fn = found ? (wrappedFunction(found.mod, found.fn, found.cls) ?? found) : undefined;
  if (!fn) return undefined;
  const marked = standaloneToolDecorator(fn.mod, fn.fn);
  // FastMCP's standalone `@tool(...)` carries the options of a function later given to add_tool.
  if (marked && m[2] === 'add_tool' && !extraArgs.length)
    return { server, kind: 'add_tool', calleeSpan: mod.span(callee), argList, fn: fn.fn, fnMod: fn.mod, args: marked, optionsMod: fn.mod, form: 'standalone' };
  const form = m[2] !== 'add_tool' ? undefined : toolObject ? ('tool-object' as const) : value === fnArg.value ? ('function' as const) : undefined;
  // For `mcp.tool(fn, ...)` the positional is the function; name is keyword-only then.
  return {
    server,
    kind: 'add_tool',
    calleeSpan: mod.span(callee),
    argList,
    fn: fn.fn,
    fnMod: fn.mod,
    args: extraArgs.map((x) => (x.name ? x : { ...x, name: '__positional__' })),
    ...(form ? { form } : {}),
  };
}

/**
 * `server.add_tool(fn)` / `server.add_tool(Tool.from_function(fn, name="x"))` / `server.tool(fn)` on a known server
 * whose function is not a def Toolsmith can find (a bound method, an attribute, a call's result): the tool is listed
 * with its literal `name=` when there is one, every other part unresolved with the reason — not dropped.
 */
function unresolvedFunctionRegistration(a: PyAnalysis, call: SyntaxNode, scope: Scope): ToolDefinition | undefined {
  const { mod } = a;
  const callee = call.firstChild;
  const d = callee && callee.name !== 'CallExpression' ? dottedName(callee, mod.text) : undefined;
  const m = d ? /^([A-Za-z_][\w.]*)\.(add_tool|tool)$/.exec(d) : null;
  const server = m ? serverNamed(a, scope, m[1]) : undefined;
  if (!m || !server) return undefined;
  let args = kwargsWithNames(argsOf(child(call, 'ArgList')), mod.text);
  let fnArg = args.find((x) => !x.name && !x.spread) ?? args.find((x) => x.name === 'fn' || x.name === 'name_or_fn');
  if (!fnArg) return undefined;
  const value = fnArg.value;
  // `def decorator(func): server.tool(func, ...)` inside a decorator factory: registered at each decorated def, read there.
  if (value.name === 'VariableName' && isEnclosingParameter(mod, call, mod.src(value))) return undefined;
  if (value.name === 'CallExpression' && value.firstChild && /(^|\.)Tool\.from_function$/.test(dottedName(value.firstChild, mod.text) ?? '')) {
    args = kwargsWithNames(argsOf(child(value, 'ArgList')), mod.text);
    fnArg = args.find((x) => !x.name && !x.spread) ?? args.find((x) => x.name === 'fn');
    if (!fnArg || (fnArg.value.name === 'VariableName' && isEnclosingParameter(mod, call, mod.src(fnArg.value)))) return undefined;
  } else if (m[2] === 'tool' && value.name !== 'VariableName' && value.name !== 'MemberExpression') return undefined;
  const fnText = mod.src(fnArg.value);
  const tool = lowLevelTool(
    a,
    server,
    call,
    `the function ${fnText.slice(0, 60)} given to ${d}() is not a def Toolsmith can find (a bound method, an attribute or a call's result): its parameters, description and schema are unknown`,
  );
  const nameArg = args.find((x) => x.name === 'name');
  const name = nameArg ? stringValue(nameArg.value, mod.text) : undefined;
  if (name !== undefined && nameArg) {
    tool.name = { value: name, span: mod.span(nameArg.value) };
    tool.contract = { name };
  }
  return tool;
}

/**
 * A bound method given as the function: `inst.method`, or a module name assigned it (`run = _queries.run`), where
 * `inst` is a module-level instance of a class of this or another workspace module (`_queries = Queries(...)`).
 * The framework reads the method's signature without `self`.
 */
function boundMethod(mod: PyModule, value: SyntaxNode): { mod: PyModule; fn: SyntaxNode; cls: SyntaxNode } | undefined {
  const member = value.name === 'VariableName' ? mod.assigns.get(mod.src(value)) : value;
  const parts = member?.name === 'MemberExpression' ? children(member) : [];
  if (parts.length !== 3 || parts[0].name !== 'VariableName' || parts[2].name !== 'PropertyName') return undefined;
  const made = mod.assigns.get(mod.src(parts[0]));
  const klass = made?.name === 'CallExpression' ? made.firstChild : undefined;
  if (klass?.name !== 'VariableName') return undefined;
  const className = mod.src(klass);
  const d = mod.classes.has(className) ? { mod, name: className } : importedDefinition(mod, className);
  const stmt = d?.mod.classes.get(d.name);
  const cls = stmt?.name === 'DecoratedStatement' ? stmt.lastChild : stmt;
  const fn = d && cls ? methodOf(d.mod, cls, mod.src(parts[2])) : undefined;
  return d && cls && fn ? { mod: d.mod, fn, cls } : undefined;
}

/** `@functools.wraps(other)` on `fn`: the def `other` names (a method of the same class body, or a module function). */
function wrappedFunction(mod: PyModule, fn: SyntaxNode, cls: SyntaxNode | undefined): { mod: PyModule; fn: SyntaxNode } | undefined {
  const decorated = fn.parent?.name === 'DecoratedStatement' ? fn.parent : undefined;
  for (const dec of decorated ? children(decorated).filter((c) => c.name === 'Decorator') : []) {
    if (mod.decoratorName(dec) !== 'functools.wraps') continue;
    const args = argsOf(child(dec, 'ArgList'));
    const target = args.length === 1 && !args[0].name && args[0].value.name === 'VariableName' ? mod.src(args[0].value) : undefined;
    const other = target ? ((cls ? methodOf(mod, cls, target) : undefined) ?? mod.functions.get(target)) : undefined;
    if (other && other !== fn) return { mod, fn: other };
  }
  return undefined;
}

/** Whether `name` is a parameter of the function `node` is written in. */
function isEnclosingParameter(mod: PyModule, node: SyntaxNode, name: string): boolean {
  let fn: SyntaxNode | null = node.parent;
  while (fn && fn.name !== 'FunctionDefinition') fn = fn.parent;
  return !!fn && parameterNodes(mod, fn).some((p) => p.name === name);
}

/** The standalone decorator fastmcp exports (`from fastmcp.tools import tool`). */
const STANDALONE_TOOL = new Set(['fastmcp.tools.tool', 'fastmcp.tools.function_tool.tool', 'fastmcp.tool']);

/** The arguments of a standalone `@tool` / `@tool(...)` on `fn` (empty for the bare form), undefined without one. */
function standaloneToolDecorator(mod: PyModule, fn: SyntaxNode): Arg[] | undefined {
  const decorated = fn.parent?.name === 'DecoratedStatement' ? fn.parent : undefined;
  for (const dec of decorated ? children(decorated).filter((c) => c.name === 'Decorator') : []) {
    if (!STANDALONE_TOOL.has(mod.decoratorName(dec) ?? '')) continue;
    const argList = child(dec, 'ArgList');
    return argList ? kwargsWithNames(argsOf(argList), mod.text) : [];
  }
  return undefined;
}

/** `mcp.tool(name="x")(fn)`: the decorator called by hand, its options in the first call, the function in the second. */
function curriedRegistration(a: PyAnalysis, call: SyntaxNode, decorator: SyntaxNode, scope: Scope): (Registration & { fn: SyntaxNode }) | undefined {
  const { mod } = a;
  const callee = decorator.firstChild;
  const d = callee ? dottedName(callee, mod.text) : undefined;
  const m = d ? /^([A-Za-z_][\w.]*)\.tool$/.exec(d) : null;
  const server = m ? serverNamed(a, scope, m[1]) : undefined;
  if (!server || !callee) return undefined;
  const fnArgs = kwargsWithNames(argsOf(child(call, 'ArgList')), mod.text);
  const only = fnArgs.length === 1 && !fnArgs[0].name && !fnArgs[0].spread ? fnArgs[0].value : undefined;
  const fn = only?.name === 'VariableName' ? functionOf(a, scope, mod.src(only)) : undefined;
  if (!fn) return undefined;
  const argList = child(decorator, 'ArgList');
  return { server, kind: 'decorator', calleeSpan: mod.span(callee), argList, decoratorCalled: true, fn: fn.fn, fnMod: fn.mod, args: kwargsWithNames(argsOf(argList), mod.text) };
}

/**
 * A project's own registration decorator: `@register_tool("search", schema)` where `register_tool(...)` (a function
 * in scope, or a method of a registry class a parameter is annotated with) returns an inner decorator that calls
 * `server.tool(func, ...)` — once per call (wikipedia-mcp registers every tool twice, under a prefixed alias too).
 * Each inner call is a registration of the decorated def, its arguments read with the factory's parameters bound to
 * the decorator's arguments (`name=name`, `f"wiki_{name}"`). What the inner decorator does besides registering is
 * an unresolved part of the tool; an inner call of another shape is a tool whose every part is unresolved.
 */
function customDecoratorTools(a: PyAnalysis, dec: SyntaxNode, scope: Scope, stmt: SyntaxNode, def: SyntaxNode): ToolDefinition[] {
  const { mod } = a;
  const m = /^@\s*([A-Za-z_]\w*)(?:\.([A-Za-z_]\w*))?\s*\(/.exec(mod.src(dec));
  if (!m) return [];
  const written = m[2] ? `${m[1]}.${m[2]}` : m[1];
  const factory: { mod: PyModule; fn: SyntaxNode; cls?: SyntaxNode } | undefined = m[2] ? registryMethod(a, dec, m[1], m[2]) : functionOf(a, scope, m[1]);
  if (!factory) return [];
  const argList = child(dec, 'ArgList');
  const bindings = bindArguments(factory.mod, factory.fn, argList, mod, undefined, !!m[2]);
  const decSpan = mod.span(dec);
  const calleeSpan: Span = { file: mod.file, start: dec.from + 1, end: argList ? argList.from : dec.to };
  return innerRegistrations(factory.mod, factory.fn, factory.cls, bindings, 0).map((r) => {
    const known = factory.mod === mod && !m[2] ? serverNamed(a, scope, r.variable) : undefined;
    const server: ServerVar = known ?? {
      id: `${factory.mod.file}#${written}.${r.variable}`,
      variable: r.variable,
      framework: frameworkOfImports(factory.mod) ?? frameworkOfImports(mod) ?? 'mcp',
      span: decSpan,
      constructorSpan: decSpan,
      unresolved: {
        part: 'contract',
        reason: `registered through the decorator ${written}() on ${r.variable}, a server Toolsmith does not see constructed: its framework is not known here`,
        span: decSpan,
      },
    };
    const reason = `registered through the decorator ${written}(), which calls ${r.variable}.tool(...) in a form Toolsmith does not follow`;
    if (!r.args) return lowLevelTool(a, server, dec, reason);
    const t = buildTool(a, { server, kind: 'add_tool', calleeSpan, args: r.args, fn: def, stmt, optionsMod: r.mod, bindings: r.bindings, factoryUnresolved: r.unresolved });
    return t ?? lowLevelTool(a, server, dec, reason);
  });
}

/** `@tools.reader("x")` where `tools` is a parameter annotated with a class (of this or another module): that method. */
function registryMethod(a: PyAnalysis, dec: SyntaxNode, param: string, method: string): { mod: PyModule; fn: SyntaxNode; cls: SyntaxNode } | undefined {
  const { mod } = a;
  let fn: SyntaxNode | null = dec.parent;
  while (fn && fn.name !== 'FunctionDefinition') fn = fn.parent;
  const params = fn ? child(fn, 'ParamList') : undefined;
  const annotation = params ? new RegExp(`(?:^|[(,\\s])${param}\\s*:\\s*([A-Za-z_][\\w.]*)`).exec(mod.src(params)) : null;
  if (!annotation) return undefined;
  const clsName = annotation[1];
  const local = mod.classes.get(clsName);
  const d = local ? { mod, name: clsName } : importedDefinition(mod, clsName);
  const stmt = d?.mod.classes.get(d.name);
  const cls = stmt?.name === 'DecoratedStatement' ? stmt.lastChild : stmt;
  const body = cls ? child(cls, 'Body') : undefined;
  if (!d || !cls || !body) return undefined;
  const target = methodOf(d.mod, cls, method);
  return target ? { mod: d.mod, fn: target, cls } : undefined;
}

function methodOf(mod: PyModule, cls: SyntaxNode, name: string): SyntaxNode | undefined {
  const body = child(cls, 'Body');
  for (const stmt of body ? flattenBlocks(children(body)) : []) {
    const f = stmt.name === 'DecoratedStatement' ? stmt.lastChild : stmt;
    const n = f?.name === 'FunctionDefinition' ? child(f, 'VariableName') : undefined;
    if (f && n && mod.src(n) === name) return f;
  }
  return undefined;
}

/** One registration inside a decorator factory's inner decorator. */
interface InnerRegistration {
  /** The server expression the inner call registers on (`server`, `self.server`). */
  variable: string;
  /** The module the inner call is written in. */
  mod: PyModule;
  /** Its options (the function argument left out); undefined when the call's shape is not followed. */
  args?: Arg[];
  bindings: Bindings;
  unresolved: Unresolved[];
  /** Where the inner call starts. */
  at: number;
}

/**
 * The registrations a decorator factory makes of the decorated function: each `X.tool(func, ...)`,
 * `X.add_tool(func, ...)` or `X.tool(...)(func)` in the decorator it defines (`func` its parameter), following
 * `return self.other(...)` / `return other(...)` to the factory that defines it, its parameters bound on the way.
 */
function innerRegistrations(mod: PyModule, fn: SyntaxNode, cls: SyntaxNode | undefined, bindings: Bindings, depth: number): InnerRegistration[] {
  const body = child(fn, 'Body');
  if (!body || depth > 3) return [];
  const out: InnerRegistration[] = [];
  for (const stmt of flattenBlocks(children(body))) {
    const inner = stmt.name === 'DecoratedStatement' ? stmt.lastChild : stmt;
    const innerBody = inner?.name === 'FunctionDefinition' ? child(inner, 'Body') : undefined;
    if (!inner || !innerBody || !/\.(?:tool|add_tool)\s*\(/.test(mod.text.slice(innerBody.from, innerBody.to))) continue;
    const fnParam = parameterNodes(mod, inner)[0]?.name;
    const found: InnerRegistration[] = [];
    const other: SyntaxNode[] = [];
    for (const s of flattenBlocks(meaningful(innerBody))) {
      const call = s.name === 'ExpressionStatement' && s.firstChild?.name === 'CallExpression' ? s.firstChild : undefined;
      const reg = call && fnParam ? innerCall(mod, call, fnParam, bindings) : undefined;
      if (reg) found.push(reg);
      else if (/([A-Za-z_][\w.]*)\.(?:tool|add_tool)\s*\(/.test(mod.src(s))) {
        for (const c of mod.src(s).matchAll(/([A-Za-z_][\w.]*)\.(?:tool|add_tool)\s*\(/g)) found.push({ variable: c[1], mod, bindings, unresolved: [], at: s.from });
      } else if (!isInert(mod, s, fnParam)) other.push(s);
    }
    // Code around the registration (a schema rewritten afterwards, a condition): named, not followed. The first
    // statement after a registration is named first (what rewrites the registered tool), else the first one before.
    const firstReg = found.length ? Math.min(...found.map((r) => r.at)) : 0;
    const named = other.find((x) => x.from > firstReg) ?? other[0];
    const unresolved: Unresolved[] = named
      ? [
          {
            part: 'contract',
            reason: `the decorator also runs \`${mod.src(named).split('\n')[0].trim().slice(0, 80)}\` around the registration: what that changes in the published tool is not followed`,
            span: mod.span(named),
          },
        ]
      : [];
    for (const r of found) out.push({ ...r, unresolved: [...r.unresolved, ...unresolved] });
  }
  if (out.length) return out;
  for (const r of mod.text.slice(body.from, body.to).matchAll(/\breturn\s+(self\.)?([A-Za-z_]\w*)\s*\(/g)) {
    const next = r[1] ? (cls ? methodOf(mod, cls, r[2]) : undefined) : mod.functions.get(r[2]);
    if (!next || next === fn) continue;
    const ret = returnCall(body, r.index + body.from);
    const nextBindings = bindArguments(mod, next, ret ? child(ret, 'ArgList') : undefined, mod, bindings, !!r[1]);
    return innerRegistrations(mod, next, r[1] ? cls : undefined, nextBindings, depth + 1);
  }
  return out;
}
/** One statement of an inner decorator: a registration of its function parameter `fnParam`, read with `bindings`. */
function innerCall(mod: PyModule, call: SyntaxNode, fnParam: string, bindings: Bindings): InnerRegistration | undefined {
  const callee = call.firstChild;
  if (!callee) return undefined;
  const curried = callee.name === 'CallExpression';
  const d = dottedName(curried ? callee.firstChild! : callee, mod.text);
  const m = d ? (curried ? /^([A-Za-z_][\w.]*)\.tool$/ : /^([A-Za-z_][\w.]*)\.(?:tool|add_tool)$/).exec(d) : null;
  if (!m) return undefined;
  const callArgs = kwargsWithNames(argsOf(child(call, 'ArgList')), mod.text);
  // `X.tool(...)(func)`: options in the first call; `X.tool(func, ...)` / `X.add_tool(func, ...)`: the function first.
  const fnArg = curried
    ? callArgs.length === 1 && !callArgs[0].name
      ? callArgs[0]
      : undefined
    : (callArgs.find((x) => !x.name && !x.spread) ?? callArgs.find((x) => x.name === 'fn' || x.name === 'name_or_fn'));
  if (!fnArg) return undefined;
  let options = curried ? kwargsWithNames(argsOf(child(callee, 'ArgList')), mod.text) : callArgs.filter((x) => x !== fnArg).map((x) => (x.name || x.spread ? x : { ...x, name: '__positional__' }));
  const unresolved: Unresolved[] = [];
  let value = fnArg.value;
  // FastMCP: `X.add_tool(Tool.from_function(func, name=...))`: the options are from_function's.
  if (!curried && value.name === 'CallExpression' && value.firstChild && /(^|\.)Tool\.from_function$/.test(dottedName(value.firstChild, mod.text) ?? '')) {
    const inner = kwargsWithNames(argsOf(child(value, 'ArgList')), mod.text);
    const innerFn = inner.find((x) => !x.name && !x.spread) ?? inner.find((x) => x.name === 'fn');
    if (!innerFn) return undefined;
    value = innerFn.value;
    options = inner.filter((x) => x !== innerFn);
  }
  if (value.name !== 'VariableName' || mod.src(value) !== fnParam) {
    // `X.tool(...)(wrap(func))`: the framework reads the wrapper's signature (functools.wraps hands it the function's, a wrapper need not).
    const wraps = value.name === 'CallExpression' && argsOf(child(value, 'ArgList')).some((x) => x.value.name === 'VariableName' && mod.src(x.value) === fnParam);
    if (!wraps) return undefined;
    unresolved.push({
      part: 'contract',
      reason: `the decorated function is registered through \`${mod.src(value).slice(0, 60)}\`: the signature and docstring the framework reads are that wrapper's, not followed`,
      span: mod.span(value),
    });
  }
  return { variable: m[1], mod, args: options, bindings, unresolved, at: call.from };
}

/** A statement of an inner decorator that changes nothing the framework publishes (`return func`, a docstring, `pass`). */
function isInert(mod: PyModule, stmt: SyntaxNode, fnParam: string | undefined): boolean {
  if (stmt.name === 'Comment' || stmt.name === 'PassStatement' || stmt.name === ':' || stmt.type.isError) return true;
  if (stmt.name === 'ExpressionStatement') return stmt.firstChild?.name === 'String' || stmt.firstChild?.name === 'ContinuedString';
  if (stmt.name !== 'ReturnStatement') return false;
  const value = meaningful(stmt).filter((c) => c.name !== 'return');
  return value.length === 0 || (value.length === 1 && value[0].name === 'VariableName' && mod.src(value[0]) === fnParam);
}

/** The call a `return f(...)` statement of `body` at `pos` returns. */
function returnCall(body: SyntaxNode, pos: number): SyntaxNode | undefined {
  for (const stmt of flattenBlocks(children(body))) {
    if (stmt.name !== 'ReturnStatement' || stmt.from > pos || stmt.to <= pos) continue;
    const value = meaningful(stmt).find((c) => c.name !== 'return');
    return value?.name === 'CallExpression' ? value : undefined;
  }
  return undefined;
}

interface BuildInput extends Registration {
  stmt: SyntaxNode;
  fn?: SyntaxNode;
}

function locatedValue<T extends JsonValue>(mod: PyModule, node: SyntaxNode, part: string, check: (v: JsonValue) => v is T, bindings?: Bindings): Located<T> {
  const span = mod.span(node);
  const v = literalValue(node, mod.text, resolverOf(mod, bindings));
  if (v.ok && check(v.value)) return { value: v.value, span };
  return { value: undefined, span, unresolved: { part, reason: v.ok ? `${part} is not of the expected type` : v.reason, span } };
}

const isString = (v: JsonValue): v is string => typeof v === 'string';

function withoutKey(contract: JsonSchema, key: string): JsonSchema {
  const out: JsonSchema = {};
  for (const k of Object.keys(contract)) if (k !== key) out[k] = contract[k];
  return out;
}

function withoutDescription(contract: JsonSchema): JsonSchema {
  return withoutKey(contract, 'description');
}

/** What the registration call's arguments say (`@mcp.tool(name=..., title=..., annotations=...)`). */
interface RegistrationOptions {
  name: Located<string>;
  title?: Located<string>;
  explicitDescription?: Located<string>;
  annotations?: ToolDefinition['annotations'];
  annotationsJson?: { [k: string]: JsonValue };
  structuredOutput?: boolean;
  tags?: string[];
  meta?: { [k: string]: JsonValue };
  /** FastMCP `version=`: a string, or an int (stored as its str()). */
  version?: Located<string>;
  outputSchemaOverride?: PyToolSpec['outputSchemaOverride'];
  /** Arguments the analyser cannot model (each an unresolved part of the contract). */
  unresolvedArgs: Unresolved[];
}

/** FastMCP registration options that change how the tool runs, not what tools/list publishes. */
const RUNTIME_ONLY_OPTIONS = new Set(['timeout', 'run_in_thread', 'auth', 'enabled']);

function registrationOptions(argsMod: PyModule, args: Arg[], framework: Framework, fnName: Located<string>, bindings?: Bindings): RegistrationOptions {
  const o: RegistrationOptions = { name: fnName, unresolvedArgs: [] };
  const unresolvedArgs = o.unresolvedArgs;
  args.forEach((written, i) => {
    // A decorator factory's `name=name`: the caller's expression, read in its own module.
    const bound = follow(written.value, argsMod, bindings);
    const a = { ...written, value: bound.node };
    const mod = bound.mod;
    const read = <T extends JsonValue>(part: string, check: (v: JsonValue) => v is T) => locatedValue(mod, a.value, part, check, bound.bindings);
    const evaluate = () => literalValue(a.value, mod.text, resolverOf(mod, bound.bindings));
    if (a.spread) {
      unresolvedArgs.push({ part: 'registration', reason: `${a.spread}${mod.src(a.value)} arguments are not resolved`, span: mod.span(a.value) });
      return;
    }
    const key = a.name === '__positional__' ? `#${i}` : (a.name ?? (i === 0 ? 'name' : `#${i}`));
    if (key === 'name' || key === 'name_or_fn') {
      if (a.value.name === 'None') return;
      o.name = read('name', isString);
    } else if (key === 'title') {
      if (a.value.name !== 'None') o.title = read('title', isString);
    } else if (key === 'description') {
      if (a.value.name !== 'None') o.explicitDescription = read('description', isString);
    } else if (key === 'annotations') {
      const r = annotationEntries(mod, a.value, framework);
      o.annotations = { span: mod.span(a.value), entries: r.entries };
      o.annotationsJson = r.json;
      if (r.unresolved) unresolvedArgs.push(r.unresolved);
    } else if (key === 'structured_output' && acceptsToolOption(framework, key)) {
      const v = read('structured_output', (x): x is boolean | null => x === null || typeof x === 'boolean');
      if (v.unresolved) unresolvedArgs.push({ ...v.unresolved, part: 'outputSchema' });
      else o.structuredOutput = v.value === null ? undefined : v.value;
    } else if (key === 'tags' && acceptsToolOption(framework, key)) {
      const v = evaluate();
      if (v.ok && Array.isArray(v.value) && v.value.every((x) => typeof x === 'string')) o.tags = v.value;
      else if (!(v.ok && v.value === null)) unresolvedArgs.push({ part: '_meta', reason: 'tags= is not a literal set of strings', span: mod.span(a.value) });
    } else if (key === 'version' && acceptsToolOption(framework, key)) {
      if (a.value.name === 'None') return;
      // FastMCP stores str(version): an int literal is its digits; anything else is read as a string.
      if (a.value.name === 'Number' && /^[0-9]+$/.test(mod.src(a.value))) o.version = { value: String(Number(mod.src(a.value))), span: mod.span(a.value) };
      else {
        o.version = read('version', isString);
        if (o.version.unresolved) unresolvedArgs.push({ ...o.version.unresolved, part: '_meta' });
      }
    } else if (key === 'meta') {
      const v = evaluate();
      if (v.ok && v.value && typeof v.value === 'object' && !Array.isArray(v.value)) o.meta = v.value;
      else if (!(v.ok && v.value === null)) unresolvedArgs.push({ part: '_meta', reason: 'meta= is not a literal dict', span: mod.span(a.value) });
    } else if (key === 'output_schema' && acceptsToolOption(framework, key)) {
      const v = evaluate();
      const model = v.ok ? undefined : modelJsonSchemaOf(mod, a.value, bound.bindings, 0);
      if (v.ok && (v.value === null || (typeof v.value === 'object' && !Array.isArray(v.value)))) o.outputSchemaOverride = { value: v.value };
      else if (model) o.outputSchemaOverride = { model };
      else unresolvedArgs.push({ part: 'outputSchema', reason: 'output_schema= is neither a literal nor Model.model_json_schema()', span: mod.span(a.value) });
    } else if (RUNTIME_ONLY_OPTIONS.has(key) && acceptsToolOption(framework, key)) {
      // Runtime behaviour only: not part of the listed contract.
    } else if (key === 'icons') {
      if (a.value.name !== 'None') unresolvedArgs.push({ part: 'icons', reason: 'icons= is not modelled', span: mod.span(a.value) });
    } else {
      unresolvedArgs.push({ part: 'registration', reason: `argument ${key}= is not modelled by the analyser`, span: mod.span(a.value) });
    }
  });
  return o;
}

/**
 * `output_schema=Model.model_json_schema()`, or a helper whose body returns that for its parameter
 * (`def model_output_schema(model): return model.model_json_schema()`): the model's type, read where it is named.
 */
function modelJsonSchemaOf(mod: PyModule, node: SyntaxNode, bindings: Bindings | undefined, depth: number): PyType | undefined {
  if (node.name !== 'CallExpression' || !node.firstChild || depth > 3) return undefined;
  const args = kwargsWithNames(argsOf(child(node, 'ArgList')), mod.text);
  const callee = node.firstChild;
  if (callee.name === 'MemberExpression') {
    const parts = children(callee);
    const method = parts[parts.length - 1];
    if (args.length || method?.name !== 'PropertyName' || mod.src(method) !== 'model_json_schema' || !parts[0]) return undefined;
    const cls = follow(parts[0], mod, bindings);
    return cls.node.name === 'VariableName' || cls.node.name === 'MemberExpression' ? cls.mod.resolveType(cls.node) : undefined;
  }
  if (callee.name !== 'VariableName') return undefined;
  const local = mod.functions.get(mod.src(callee));
  const helper = local ? { mod, fn: local } : importedFunction(mod, mod.src(callee), 0);
  const body = helper ? child(helper.fn, 'Body') : undefined;
  const stmts = body ? meaningful(body).filter((c) => c.name !== 'Comment' && !(c.name === 'ExpressionStatement' && c.firstChild?.name === 'String')) : [];
  const ret = stmts.length === 1 && stmts[0].name === 'ReturnStatement' ? meaningful(stmts[0]).find((c) => c.name !== 'return') : undefined;
  if (!helper || !ret) return undefined;
  return modelJsonSchemaOf(helper.mod, ret, bindArguments(helper.mod, helper.fn, child(node, 'ArgList'), mod, bindings, false), depth + 1);
}

/** The function's docstring as written, with its Args: entries located in the source. */
interface DocstringFacts {
  doc?: DocstringInfo;
  docstring?: ToolDefinition['docstring'];
  parsed?: ParsedDocstring;
  /** Set when the first statement is a string the analyser cannot read (an f-string...). */
  unresolved?: Unresolved;
}

function docstringFacts(mod: PyModule, fn: SyntaxNode): DocstringFacts {
  const body = child(fn, 'Body');
  const doc = docstringOf(body, mod.text);
  if (doc) {
    const lines = cleandocLines(doc.value);
    const parsed = parseDocstring(lines.map((l) => l.text).join('\n'));
    const docstring: ToolDefinition['docstring'] = {
      raw: doc.value,
      span: mod.span(doc.node),
      args: parsed.args.map((a) => ({ name: a.name, description: a.description, span: cleanLineSpan(doc, lines, a.line, a.endLine, mod.file) })),
      ...(parsed.argsSection ? { argsSectionSpan: cleanLineSpan(doc, lines, parsed.argsSection.startLine, parsed.argsSection.endLine, mod.file) } : {}),
    };
    return { doc, docstring, parsed };
  }
  const first = body ? meaningful(body)[0] : undefined;
  const e = first?.name === 'ExpressionStatement' ? first.firstChild : undefined;
  if (e && (e.name === 'FormatString' || ((e.name === 'String' || e.name === 'ContinuedString') && stringValue(e, mod.text) === undefined)))
    return { unresolved: { part: 'description', reason: 'the docstring is not a plain string literal', span: mod.span(e) } };
  return {};
}

/** The parameters that reach inputSchema; the ones the framework refuses or the analyser cannot model are unresolved. */
function inputParams(params: ParamFact[], profile: FrameworkProfile): { specs: PyParamSpec[]; unresolved: Unresolved[] } {
  const specs: PyParamSpec[] = [];
  const unresolved: Unresolved[] = [];
  for (const p of params) {
    if (p.isContext) continue;
    if (p.kind === 'varargs' || p.kind === 'kwargs') {
      unresolved.push({
        part: `inputSchema.properties.${p.name}`,
        reason: profile.refusesVariadicParams ? `${profile.name} refuses *args/**kwargs tools` : `*${p.kind === 'kwargs' ? '*' : ''}${p.name} parameters are not modelled`,
        span: p.span,
      });
      continue;
    }
    if (p.name.startsWith('_') && profile.rejectsUnderscoreParams) {
      unresolved.push({ part: `inputSchema.properties.${p.name}`, reason: `parameter ${p.name} starts with "_": the SDK raises InvalidSignature`, span: p.nameSpan });
      continue;
    }
    specs.push({ name: p.name, type: p.type, fields: p.defaultField ? [p.defaultField] : [], default: p.default, defaultUnresolved: p.defaultUnresolved, span: p.span });
  }
  return { specs, unresolved };
}

/**
 * The `__doc__` the running Python stores (3.13+ strips the docstring's indentation). A framework that publishes it
 * verbatim gets an unresolved description when the workspace does not say which Python runs.
 */
function publishedDoc(
  a: PyAnalysis,
  fnMod: PyModule,
  doc: DocstringInfo | undefined,
  verbatim: boolean,
  hasExplicitDescription: boolean,
  fallback: Span,
): { rawDoc?: string; unresolved?: Unresolved } {
  const rawDoc = doc?.value;
  if (rawDoc === undefined || compilerCleanDoc(rawDoc) === rawDoc) return { rawDoc };
  const fact = a.py();
  if (fact.docSemantics === '3.13+') return { rawDoc: compilerCleanDoc(rawDoc) };
  if (fact.docSemantics !== 'unknown' || !verbatim || hasExplicitDescription) return { rawDoc };
  return {
    rawDoc,
    unresolved: {
      part: 'description',
      reason:
        `the published docstring depends on the Python version (3.13+ strips its indentation, older versions keep it) and ` +
        (fact.source ? `${fact.source} admits both` : 'the workspace does not say which runs (.python-version, pyproject requires-python, or a .venv)'),
      span: doc ? fnMod.span(doc.node) : fallback,
    },
  };
}

function descriptionFact(mod: PyModule, options: RegistrationOptions, docs: DocstringFacts, published: string | undefined, profile: FrameworkProfile): ToolDefinition['description'] {
  if (options.explicitDescription) return { ...options.explicitDescription, origin: 'explicit' };
  const { doc, parsed } = docs;
  if (!doc) return undefined;
  const description: ToolDefinition['description'] = { value: published, span: mod.span(doc.node), origin: 'docstring' };
  if (profile.docstring === 'parsed' && parsed?.unsupportedStyle)
    description.unresolved = { part: 'description', reason: `${parsed.unsupportedStyle}-style docstring is not parsed`, span: mod.span(doc.node) };
  return description;
}

/** Every visible parameter with its published schema, where its description comes from, and its constraints. */
function parameterDefinitions(mod: PyModule, params: ParamFact[], built: PyContractResult, docs: DocstringFacts, profile: FrameworkProfile): ParameterDefinition[] {
  const docArgs = new Map((docs.docstring?.args ?? []).map((a) => [a.name, a]));
  const readsDocArgs = profile.docstring === 'parsed' && !docs.parsed?.unsupportedStyle;
  const out: ParameterDefinition[] = [];
  for (const p of params) {
    if (p.isContext || p.kind === 'varargs' || p.kind === 'kwargs') continue;
    const schema = built.properties.get(p.name);
    const fieldDesc = [...p.annotatedFields, ...(p.defaultField ? [p.defaultField] : [])].reverse().find((f) => f.description)?.description;
    const annotatedText =
      profile.readsAnnotatedStringDescription && p.type?.kind === 'annotated' && p.type.fields.length === 0 && p.type.descriptions.length === 1 ? p.type.descriptions[0] : undefined;
    let pdesc: ParameterDefinition['description'];
    if (fieldDesc) pdesc = { value: fieldDesc.value, span: fieldDesc.span, origin: 'field' };
    else if (annotatedText !== undefined && p.typeSpan) pdesc = { value: annotatedText, span: p.typeSpan, origin: 'other' };
    else if (readsDocArgs && docArgs.has(p.name)) {
      const a = docArgs.get(p.name)!;
      pdesc = { value: a.description, span: a.span, origin: 'docstring' };
    }
    const constraints: ConstraintFact[] = [];
    for (const f of [...p.annotatedFields, ...(p.defaultField ? [p.defaultField] : [])]) {
      for (const c of f.constraints) constraints.push({ keyword: CONSTRAINT_KEYWORD[c.key] ?? c.key, value: c.value, span: c.span });
      if (f.description) constraints.push({ keyword: 'description', value: f.description.value, span: f.description.span });
      if (f.title) constraints.push({ keyword: 'title', value: f.title.value, span: f.title.span });
      if (f.examples) constraints.push({ keyword: 'examples', value: f.examples.value, span: f.examples.span });
      if (f.default) constraints.push({ keyword: 'default', value: f.default.value, span: f.default.span });
    }
    out.push({
      name: p.name,
      nameSpan: p.nameSpan,
      span: p.span,
      ...(p.typeSpan ? { typeSpan: p.typeSpan, typeText: mod.src({ from: p.typeSpan.start, to: p.typeSpan.end }) } : {}),
      ...(schema ? { schema } : {}),
      required: p.default === undefined && !p.defaultUnresolved && !(p.defaultField && (p.defaultField.default || p.defaultField.defaultFactory)),
      ...(pdesc ? { description: pdesc } : {}),
      constraints,
      ...(p.defaultLocated ? { defaultValue: p.defaultLocated } : {}),
      untyped: !p.type || p.type.kind === 'any',
      pythonKind: p.kind,
    });
  }
  return out;
}

function buildTool(a: PyAnalysis, reg: BuildInput): ToolDefinition | undefined {
  const fn = reg.fn;
  if (!fn) return undefined;
  // The registration is read in this module, the function in the one defining it (the same one unless imported).
  const { mod } = a;
  const fnMod = reg.fnMod ?? mod;
  const framework = reg.server.framework;
  const profile = FRAMEWORKS[framework];
  const fnNameNode = child(fn, 'VariableName');
  const fnName = fnNameNode ? fnMod.src(fnNameNode) : '';
  const regSpan = mod.span(reg.stmt);
  const unresolved: Unresolved[] = reg.server.unresolved ? [reg.server.unresolved] : [];

  if (reg.factoryUnresolved) unresolved.push(...reg.factoryUnresolved);
  const options = registrationOptions(reg.optionsMod ?? mod, reg.args, framework, { value: fnName, span: fnNameNode ? fnMod.span(fnNameNode) : regSpan }, reg.bindings);
  for (const loc of [options.name, options.title, options.explicitDescription]) if (loc?.unresolved) unresolved.push(loc.unresolved);
  const docs = docstringFacts(fnMod, fn);
  if (docs.unresolved) unresolved.push(docs.unresolved);
  const params = parameters(fnMod, fn);
  const input = inputParams(params, profile);
  unresolved.push(...input.unresolved);
  const retTypeDef = children(fn).find((c) => c.name === 'TypeDef');
  const retNode = retTypeDef ? meaningful(retTypeDef)[0] : undefined;
  const version = a.versionOf(framework);
  const traits = profile.contractTraits?.(version);
  const verbatimDoc = profile.docstring === 'verbatim' || traits?.docstringDescription === 'raw';
  const published = publishedDoc(a, fnMod, docs.doc, verbatimDoc, !!options.explicitDescription, regSpan);
  const pythonVersion = profile.contractTraits ? a.py().version : undefined;

  const spec: PyToolSpec = {
    framework,
    ...(version !== undefined ? { version } : {}),
    ...(pythonVersion ? { pythonVersion } : {}),
    fnName,
    name: options.name.value ?? fnName,
    title: options.title?.value,
    explicitDescription: options.explicitDescription?.value,
    rawDoc: published.rawDoc,
    parsedDoc: profile.docstring === 'parsed' && published.rawDoc !== undefined ? (cleandoc(published.rawDoc) ? docs.parsed : { args: [] }) : undefined,
    params: input.specs,
    returnType: retNode ? fnMod.resolveType(retNode) : undefined,
    structuredOutput: options.structuredOutput,
    outputSchemaOverride: options.outputSchemaOverride,
    annotations: options.annotationsJson,
    meta: options.meta,
    tags: options.tags,
    ...(options.version?.value !== undefined ? { toolVersion: options.version.value } : {}),
    unresolvedArgs: options.unresolvedArgs,
    span: regSpan,
  };
  const built = buildPythonContract(spec);
  unresolved.push(...built.unresolved);
  if (published.unresolved) unresolved.push(published.unresolved);
  const caveat = profile.versionCaveat(version);
  if (caveat) unresolved.push({ part: 'contract', reason: caveat, span: reg.server.constructorSpan });
  let failure = built.serverFailure;
  if (traits) {
    const missing = traits.missingToolOptions.find((k) => reg.args.some((x) => x.name === k));
    if (missing)
      failure ??= {
        when: 'import',
        reason: `${traits.release}'s ${reg.kind === 'decorator' ? 'tool' : 'add_tool'}() has no ${missing}= keyword: registering raises TypeError and the server lists no tools`,
        span: regSpan,
      };
    // `@server.tool` or `server.tool(fn, ...)`: the function lands in tool()'s `name` parameter.
    const functionAsName = (reg.kind === 'decorator' && reg.decoratorCalled === false) || (reg.kind === 'add_tool' && /\.tool$/.test(a.mod.text.slice(reg.calleeSpan.start, reg.calleeSpan.end)));
    if (functionAsName && !traits.bareToolDecorator)
      failure ??= {
        when: 'import',
        reason: `${traits.release}'s tool() is a decorator factory: a bare @tool receives the function as its name (TypeError "The @tool decorator was used incorrectly") and the server lists no tools`,
        span: regSpan,
      };
    if (reg.form === 'standalone' ? !traits.standaloneTool : reg.form === 'function' ? !traits.addToolTakesFunction : reg.form === 'tool-object' && !traits.addToolTakesTool)
      failure ??= {
        when: 'import',
        reason:
          reg.form === 'standalone'
            ? `${traits.release} has no standalone @tool decorator (fastmcp.tools.tool is a module there): the server fails at import`
            : reg.form === 'function'
              ? `${traits.release}'s add_tool() takes a Tool, not a function (AttributeError): the server fails at import`
              : `${traits.release}'s add_tool() takes the function, not a Tool (TypeError: the Tool is not callable): the server fails at import`,
        span: regSpan,
      };
    const ctx = params.find((p) => p.isContext && p.type?.kind !== 'context');
    if (traits.contextOnlyBare && ctx)
      unresolved.push({
        part: `inputSchema.properties.${ctx.name}`,
        reason: `${traits.release} finds the Context parameter only when it is annotated bare (\`${ctx.name}: Context\`): this one is published as a parameter with Context's own schema (not modelled)`,
        span: ctx.span,
      });
  }
  if (failure) unresolved.push({ part: 'contract', reason: failure.reason, span: failure.span });

  const docDescription = typeof built.contract.description === 'string' ? built.contract.description : undefined;
  const description = descriptionFact(fnMod, options, docs, docDescription, profile);
  // Never guessed: the tool keeps its docstring text for the rules, but the contract leaves an unresolved description
  // out. Rebuilt rather than `delete`d: a deleted key turns the object into a slow dictionary for every rule reading it.
  let contract = published.unresolved ? withoutDescription(built.contract) : built.contract;
  // An unresolved `name=` is not the function's name: the contract carries no name rather than a made-up one.
  if (options.name.unresolved) contract = withoutKey(contract, 'name');
  // Likewise an unresolved `title=` / `description=` is not the default title or the docstring the contract would fall back to.
  if (options.title?.unresolved) contract = withoutKey(contract, 'title');
  if (options.explicitDescription?.unresolved) contract = withoutDescription(contract);
  const paramList = child(fn, 'ParamList');
  // An `if` around the registration (or an early `return` before it): listed only when it holds.
  const guard = guardOf(reg.stmt, mod.text);
  const tool: ToolDefinition = {
    language: 'python',
    framework,
    // What the workspace pins (rules about the pin read it); the contract is the installed release's when there is one.
    ...(a.pinnedVersionOf(framework) ? { frameworkVersion: a.pinnedVersionOf(framework) } : {}),
    file: mod.file,
    server: { id: reg.server.id, variable: reg.server.variable, ...(reg.server.name !== undefined ? { name: reg.server.name } : {}), span: reg.server.span },
    registration: {
      kind: reg.kind,
      span: regSpan,
      calleeSpan: reg.calleeSpan,
      ...(reg.kind === 'decorator' ? { decoratorCalled: !!reg.decoratorCalled } : {}),
      ...(reg.argList ? { configSpan: mod.span(reg.argList) } : {}),
      ...(guard ? { condition: { text: guard.text, span: mod.span(guard.at) } } : {}),
      ...(guard?.arms.length ? { arms: guard.arms.map((a) => ({ statement: `${mod.file}:${a.at}`, arm: String(a.arm) })) } : {}),
    },
    name: options.name,
    ...(options.version ? { version: options.version } : {}),
    ...(options.title ? { title: options.title } : {}),
    ...(description ? { description } : {}),
    ...(docs.docstring ? { docstring: docs.docstring } : {}),
    parameters: parameterDefinitions(fnMod, params, built, docs, profile),
    ...(paramList ? { inputSchemaSpan: fnMod.span(paramList) } : {}),
    ...(retNode ? { outputSchemaSpan: fnMod.span(retNode) } : {}),
    ...(options.annotations ? { annotations: options.annotations } : {}),
    handler: handlerFacts(
      fnMod,
      fn,
      params.filter((p) => !p.isContext).map((p) => p.name),
    ),
    contract,
    unresolved,
    unrepresentable: [],
  };
  if (failure) a.failures.push({ tool, serverId: tool.server.id, file: tool.file, failure });
  return tool;
}

const CONSTRAINT_KEYWORD: Record<string, string> = {
  ge: 'minimum',
  le: 'maximum',
  gt: 'exclusiveMinimum',
  lt: 'exclusiveMaximum',
  multiple_of: 'multipleOf',
  min_length: 'minLength',
  max_length: 'maxLength',
  pattern: 'pattern',
};

/**
 * mcp 2.x's ToolAnnotations has snake_case fields with camelCase aliases and publishes the aliases
 * (`read_only_hint=True` -> `"readOnlyHint": true`); 1.x's fields are the camelCase names and a snake_case keyword is
 * an extra field, published as written. The mcp 1.x import (`mcp-v1`) is the only framework here that runs on 1.x.
 */
function publishedAnnotationKey(key: string, framework: Framework): string {
  return framework === 'mcp-v1' ? key : key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/**
 * `annotations=writes(destructive=False, idempotent=True)`: a module function whose body is `return ToolAnnotations(...)`,
 * its parameters bound to the call's literal arguments (keyword or positional, else their defaults).
 */
function annotationsHelper(mod: PyModule, call: SyntaxNode): { body: SyntaxNode; bindings: Map<string, SyntaxNode> } | undefined {
  const callee = call.firstChild;
  const fn = callee?.name === 'VariableName' ? mod.functions.get(mod.src(callee)) : undefined;
  const body = fn ? child(fn, 'Body') : undefined;
  const stmts = body ? meaningful(body).filter((c) => c.name !== 'Comment') : [];
  const ret = stmts.length === 1 && stmts[0].name === 'ReturnStatement' ? meaningful(stmts[0]).find((c) => c.name !== 'return') : undefined;
  if (!fn || ret?.name !== 'CallExpression') return undefined;
  const bindings = new Map<string, SyntaxNode>();
  const params = fnParams(mod, fn);
  const args = kwargsWithNames(argsOf(child(call, 'ArgList')), mod.text);
  if (args.some((x) => x.spread)) return undefined;
  args.filter((x) => !x.name).forEach((x, i) => params[i] && bindings.set(params[i].name, x.value));
  for (const x of args) if (x.name) bindings.set(x.name, x.value);
  for (const p of params) if (!bindings.has(p.name) && p.default) bindings.set(p.name, p.default);
  return { body: ret, bindings };
}

/** A def's parameter names with their default expressions, in order (`*` and `/` markers skipped). */
function fnParams(mod: PyModule, fn: SyntaxNode): { name: string; default?: SyntaxNode }[] {
  const list = child(fn, 'ParamList');
  const out: { name: string; default?: SyntaxNode }[] = [];
  const parts = list ? children(list) : [];
  for (let i = 0; i < parts.length; i++) {
    if (parts[i].name !== 'VariableName') continue;
    let j = i + 1;
    if (parts[j]?.name === 'TypeDef') j++;
    const d = parts[j]?.name === 'AssignOp' ? parts[j + 1] : undefined;
    out.push({ name: mod.src(parts[i]), ...(d ? { default: d } : {}) });
  }
  return out;
}

function annotationEntries(
  mod: PyModule,
  node: SyntaxNode,
  framework: Framework,
  depth = 0,
  bindings?: Map<string, SyntaxNode>,
): { entries: AnnotationEntry[]; json?: { [k: string]: JsonValue }; unresolved?: Unresolved } {
  const entries: AnnotationEntry[] = [];
  const json: { [k: string]: JsonValue } = {};
  let bad: Unresolved | undefined;
  if (node.name === 'None') return { entries };
  // `annotations=READ_ONLY`: a module-level constant holding the ToolAnnotations(...) call or dict.
  if (node.name === 'VariableName' && depth < 5) {
    const assigned = mod.assigns.get(mod.src(node));
    if (assigned) return annotationEntries(mod, assigned, framework, depth + 1);
  }
  const helper = node.name === 'CallExpression' && depth < 5 && !bindings ? annotationsHelper(mod, node) : undefined;
  if (helper) return annotationEntries(mod, helper.body, framework, depth + 1, helper.bindings);
  if (node.name === 'CallExpression' && node.firstChild && /(^|\.)ToolAnnotations$/.test(mod.qualify(node.firstChild) ?? '')) {
    for (const a of kwargsWithNames(argsOf(child(node, 'ArgList')), mod.text)) {
      if (!a.name || !a.nameNode) {
        bad = { part: 'annotations', reason: 'positional ToolAnnotations argument', span: mod.span(a.value) };
        continue;
      }
      const bound = a.value.name === 'VariableName' ? bindings?.get(mod.src(a.value)) : undefined;
      const v = literalValue(bound ?? a.value, mod.text);
      // span: the whole `key=value` entry (what a fix removes); keySpan the key; valueSpan the value (what a fix flips).
      entries.push({ key: a.name, value: v.ok ? v.value : undefined, span: { file: mod.file, start: a.nameNode.from, end: a.value.to }, keySpan: mod.span(a.nameNode), valueSpan: mod.span(a.value) });
      if (!v.ok) bad = { part: `annotations.${a.name}`, reason: v.reason, span: mod.span(a.value) };
      else if (v.value !== null) json[publishedAnnotationKey(a.name, framework)] = v.value;
    }
    return { entries, json, unresolved: bad };
  }
  if (node.name === 'DictionaryExpression') {
    const parts = children(node).filter((c) => c.name !== '{' && c.name !== '}' && c.name !== ',');
    for (let i = 0; i + 2 < parts.length + 1; i += 3) {
      const k = parts[i];
      const v = parts[i + 2];
      if (!k || parts[i + 1]?.name !== ':' || !v) {
        bad = { part: 'annotations', reason: 'dict entry not understood', span: mod.span(k ?? node) };
        break;
      }
      const key = stringValue(k, mod.text);
      const val = literalValue(v, mod.text);
      if (key === undefined) {
        bad = { part: 'annotations', reason: 'non-literal annotation key', span: mod.span(k) };
        continue;
      }
      entries.push({ key, value: val.ok ? val.value : undefined, span: { file: mod.file, start: k.from, end: v.to }, keySpan: mod.span(k), valueSpan: mod.span(v) });
      if (!val.ok) bad = { part: `annotations.${key}`, reason: val.reason, span: mod.span(v) };
      else if (val.value !== null) json[publishedAnnotationKey(key, framework)] = val.value;
    }
    return { entries, json, unresolved: bad };
  }
  return { entries, unresolved: { part: 'annotations', reason: 'annotations= is neither ToolAnnotations(...) nor a dict literal', span: mod.span(node) } };
}

interface ParamFact {
  name: string;
  nameSpan: Span;
  span: Span;
  kind: 'positional' | 'keyword' | 'varargs' | 'kwargs';
  type?: PyType;
  typeSpan?: Span;
  /** Field() infos from Annotated[...] (top level). */
  annotatedFields: FieldInfo[];
  /** `= Field(...)` as the default. */
  defaultField?: FieldInfo;
  default?: { value: JsonValue; python?: 'tuple' | 'set' };
  defaultUnresolved?: { reason: string; span: Span };
  defaultLocated?: Located<JsonValue>;
  isContext: boolean;
}

function isContextType(t: PyType | undefined): boolean {
  if (!t) return false;
  if (t.kind === 'context') return true;
  if (t.kind === 'annotated') return isContextType(t.base);
  if (t.kind === 'union') return t.members.some(isContextType);
  return false;
}

function parameters(mod: PyModule, fn: SyntaxNode): ParamFact[] {
  const list = child(fn, 'ParamList');
  if (!list) return [];
  const out: ParamFact[] = [];
  let keywordOnly = false;
  let group: SyntaxNode[] = [];
  const flush = () => {
    const g = group;
    group = [];
    if (!g.length) return;
    if (g.length === 1 && g[0].name === '*') {
      keywordOnly = true;
      return;
    }
    if (g.length === 1 && g[0].name === '/') return;
    if (g.length === 1 && mod.src(g[0]) === '/') return;
    let kind: ParamFact['kind'] = keywordOnly ? 'keyword' : 'positional';
    let i = 0;
    if (g[0].name === '*') {
      kind = 'varargs';
      keywordOnly = true;
      i = 1;
    } else if (g[0].name === '**') {
      kind = 'kwargs';
      i = 1;
    }
    const nameNode = g[i];
    if (!nameNode || nameNode.name !== 'VariableName') return;
    const name = mod.src(nameNode);
    if (out.length === 0 && (name === 'self' || name === 'cls') && kind === 'positional') return;
    const typeDef = g.find((n) => n.name === 'TypeDef');
    const annNode = typeDef ? meaningful(typeDef)[0] : undefined;
    const opIdx = g.findIndex((n) => n.name === 'AssignOp');
    const defNode = opIdx >= 0 ? g[opIdx + 1] : undefined;
    const type = annNode ? mod.resolveType(annNode) : undefined;
    const annotatedFields: FieldInfo[] = [];
    for (let t = type; t && t.kind === 'annotated'; t = t.base) annotatedFields.push(...t.fields);
    const fact: ParamFact = {
      name,
      nameSpan: mod.span(nameNode),
      span: { file: mod.file, start: g[0].from, end: g[g.length - 1].to },
      kind,
      type,
      typeSpan: annNode ? mod.span(annNode) : undefined,
      annotatedFields,
      isContext: isContextType(type),
    };
    if (defNode) {
      const isField = defNode.name === 'CallExpression' && defNode.firstChild && /(^|\.)Field$/.test(mod.qualify(defNode.firstChild) ?? '');
      if (isField) {
        fact.defaultField = mod.fieldInfo(defNode);
        if (fact.defaultField.default) fact.defaultLocated = { value: fact.defaultField.default.value, span: fact.defaultField.default.span };
      } else {
        const v = literalValue(defNode, mod.text, (n) => mod.enumMemberValue(n));
        if (v.ok) {
          fact.default = { value: v.value, python: v.python };
          fact.defaultLocated = { value: v.value, span: mod.span(defNode) };
        } else {
          fact.defaultUnresolved = { reason: v.reason, span: mod.span(defNode) };
          fact.defaultLocated = { value: undefined, span: mod.span(defNode), unresolved: { part: `inputSchema.properties.${name}.default`, reason: v.reason, span: mod.span(defNode) } };
        }
      }
    }
    out.push(fact);
  };
  for (const c of children(list)) {
    if (c.name === '(' || c.name === ')') continue;
    if (c.name === ',') flush();
    // Comments inside a parameter list are not parameters (they used to swallow every parameter after them).
    else if (!c.type.isError && c.name !== 'Comment') group.push(c);
  }
  flush();
  return out;
}
