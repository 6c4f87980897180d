/**
 * Python front-end: @lezer/python syntax tree -> ToolDefinition[] for the official SDK (`mcp` 2.x MCPServer),
 * the removed 1.x import (`mcp.server.fastmcp.FastMCP`) and standalone FastMCP. Error tolerant: half-typed code
 * yields the tools it can; what cannot be resolved is listed in `unresolved`, never guessed.
 */
import type { SyntaxNode } from '@lezer/common';
import type {
  AnalysisResult, AnnotationEntry, ConstraintFact, FileFacts, FileHost, Framework, JsonSchema, JsonValue, Located,
  ParameterDefinition, Span, ToolDefinition, Unresolved,
} from '../model';
import { PyModule, PyProgram } from './module';
import type { FieldInfo, PyType } from './pytypes';
import { argsOf, child, children, dottedName, kwargsWithNames, literalValue, meaningful, stringValue, type Arg } from './syntax';
import { cleandoc, cleandocLines, cleanLineSpan, compilerCleanDoc, docstringOf, parseDocstring } from './docstring';
import { handlerFacts } from './handler';
import { frameworkVersion, majorOf, pythonVersion, type PythonVersionFact } from './versions';
import { buildPythonContract, type PyParamSpec, type PyToolSpec } from '../../contract/python';

const CONSTRUCTORS: Record<string, Framework> = {
  'mcp.server.MCPServer': 'mcp',
  'mcp.server.mcpserver.MCPServer': 'mcp',
  'mcp.server.mcpserver.server.MCPServer': 'mcp',
  'mcp.server.fastmcp.FastMCP': 'mcp-v1',
  'mcp.server.fastmcp.server.FastMCP': 'mcp-v1',
  'fastmcp.FastMCP': 'fastmcp',
  'fastmcp.server.FastMCP': 'fastmcp',
  'fastmcp.server.server.FastMCP': 'fastmcp',
};

interface ServerVar {
  id: string;
  variable: string;
  framework: Framework;
  name?: string;
  span: Span;
  constructorSpan: Span;
}

/** Scope: the servers and functions visible by name (module scope, or a factory function's body). */
interface Scope {
  servers: Map<string, ServerVar>;
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
        facts.syntaxErrors.push({ message: n.from >= text.length ? 'unexpected end of file' : `syntax error near ${JSON.stringify(text.slice(start, Math.min(end, start + 20)))}`, span: { file, start, end } });
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

  const tools: ToolDefinition[] = [];
  const versions = new Map<Framework, string | undefined>();
  const versionOf = (fw: Framework) => {
    if (!versions.has(fw)) versions.set(fw, fw === 'fastmcp' ? frameworkVersion(host, file, 'fastmcp') : frameworkVersion(host, file, 'mcp'));
    return versions.get(fw);
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

  const moduleScope: Scope = { servers: new Map(), functions: new Map() };
  walkScope(mod, children(mod.tree.topNode), moduleScope, '', facts, tools, versionOf, py, 0);

  const frameworks = new Set(facts.servers.map((s) => CONSTRUCTORS_BY_ID.get(s.id)).filter(Boolean) as Framework[]);
  if (frameworks.size === 1) facts.framework = [...frameworks][0];
  else if (!frameworks.size) {
    const fromImports = mod.importList.map((i) => CONSTRUCTORS[i.qualified]).find(Boolean);
    if (fromImports) facts.framework = fromImports;
  } else facts.framework = tools[0]?.framework;
  CONSTRUCTORS_BY_ID.clear();
  facts.dependencies = [...program.dependencies];
  return { tools, files: [facts] };
}

const CONSTRUCTORS_BY_ID = new Map<string, Framework>();

function findAncestor(mod: PyModule, pos: number, name: string): SyntaxNode | undefined {
  for (let n: SyntaxNode | null = mod.tree.resolveInner(pos, 1); n; n = n.parent) if (n.name === name) return n;
  return undefined;
}

function walkScope(
  mod: PyModule,
  stmts: SyntaxNode[],
  scope: Scope,
  scopeName: string,
  facts: FileFacts,
  tools: ToolDefinition[],
  versionOf: (fw: Framework) => string | undefined,
  py: () => PythonVersionFact,
  depth: number,
): void {
  if (depth > 20) return;
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
        const q = mod.qualify(value.firstChild);
        const fw = q ? CONSTRUCTORS[q] : undefined;
        const variable = mod.src(target);
        if (fw) {
          const args = kwargsWithNames(argsOf(child(value, 'ArgList')), mod.text);
          const nameArg = args.find((a) => a.name === 'name') ?? args.find((a) => !a.name && !a.spread);
          const name = nameArg ? stringValue(nameArg.value, mod.text) : undefined;
          const id = `${mod.file}#${scopeName ? scopeName + '.' : ''}${variable}`;
          const sv: ServerVar = { id, variable, framework: fw, name, span: mod.span(target), constructorSpan: mod.span(value) };
          scope.servers.set(variable, sv);
          CONSTRUCTORS_BY_ID.set(id, fw);
          facts.servers.push({ id, variable, name, span: sv.span, constructorSpan: sv.constructorSpan });
        } else if (value.firstChild.name === 'VariableName') {
          // `mcp = create_server()` where the factory returns a server it built: alias the factory's server.
          const factory = lookup(scope, (s) => s.functions, mod.src(value.firstChild));
          const returned = factory ? factoryServer(mod, factory) : undefined;
          if (returned) scope.servers.set(variable, { ...returned, variable });
        } else scope.servers.delete(variable);
      }
    }
  }
  for (const stmt of flat) {
    if (stmt.name === 'DecoratedStatement') {
      const def = stmt.lastChild;
      if (def?.name !== 'FunctionDefinition') continue;
      for (const dec of children(stmt).filter((c) => c.name === 'Decorator')) {
        const reg = decoratorRegistration(mod, dec, scope);
        if (reg) {
          const t = buildTool(mod, { ...reg, stmt, fn: def }, versionOf, py);
          if (t) tools.push(t);
        }
      }
    } else if (stmt.name === 'ExpressionStatement') {
      const call = stmt.firstChild;
      if (call?.name === 'CallExpression') {
        const reg = callRegistration(mod, call, scope);
        if (reg) {
          const t = buildTool(mod, { ...reg, stmt: call }, versionOf, py);
          if (t) tools.push(t);
        }
      }
    }
  }
  // Factories: functions that build a server and register tools on it.
  for (const stmt of flat) {
    const def = stmt.name === 'DecoratedStatement' ? stmt.lastChild : stmt;
    if (def?.name !== 'FunctionDefinition') continue;
    const body = child(def, 'Body');
    if (!body || !containsToolRegistration(mod, body)) continue;
    const n = child(def, 'VariableName');
    const inner: Scope = { servers: new Map(), functions: new Map(), parent: scope };
    walkScope(mod, children(body), inner, `${scopeName ? scopeName + '.' : ''}${n ? mod.src(n) : '<fn>'}`, facts, tools, versionOf, py, depth + 1);
  }
}

function containsToolRegistration(mod: PyModule, body: SyntaxNode): boolean {
  const src = mod.text.slice(body.from, body.to);
  return /\.(tool|add_tool)\b/.test(src);
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
        const fw = q ? CONSTRUCTORS[q] : undefined;
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
  /** Arguments that configure the tool (name=, title=...), positional `name` included. */
  args: Arg[];
}

function decoratorRegistration(mod: PyModule, dec: SyntaxNode, scope: Scope): Registration | undefined {
  const parts = children(dec).filter((c) => c.name !== 'At');
  const names: SyntaxNode[] = [];
  let argList: SyntaxNode | undefined;
  for (const p of parts) {
    if (p.name === 'VariableName' || p.name === '.') names.push(p);
    else if (p.name === 'ArgList') argList = p;
    else return undefined;
  }
  const dotted = names.map((n) => (n.name === '.' ? '.' : mod.src(n))).join('');
  const m = /^([A-Za-z_]\w*)\.tool$/.exec(dotted);
  if (!m) return undefined;
  const server = lookup(scope, (s) => s.servers, m[1]);
  if (!server) return undefined;
  const first = names[0];
  const last = names[names.length - 1];
  const args = argList ? kwargsWithNames(argsOf(argList), mod.text) : [];
  return { server, kind: 'decorator', calleeSpan: { file: mod.file, start: first.from, end: last.to }, argList, decoratorCalled: !!argList, args };
}

function callRegistration(mod: PyModule, call: SyntaxNode, scope: Scope): (Registration & { fn: SyntaxNode }) | undefined {
  const callee = call.firstChild;
  if (!callee) return undefined;
  const d = dottedName(callee, mod.text);
  const m = d ? /^([A-Za-z_]\w*)\.(add_tool|tool)$/.exec(d) : null;
  if (!m) return undefined;
  const server = lookup(scope, (s) => s.servers, m[1]);
  if (!server) return undefined;
  const argList = child(call, 'ArgList');
  const args = kwargsWithNames(argsOf(argList), mod.text);
  const fnArg = args.find((a) => !a.name && !a.spread) ?? args.find((a) => a.name === 'fn' || a.name === 'name_or_fn');
  if (!fnArg) return undefined;
  let fnNode: SyntaxNode | undefined;
  let extraArgs = args.filter((a) => a !== fnArg);
  let value = fnArg.value;
  // FastMCP: add_tool(Tool.from_function(fn, name=...)).
  if (value.name === 'CallExpression' && value.firstChild && /(^|\.)Tool\.from_function$/.test(dottedName(value.firstChild, mod.text) ?? '')) {
    const inner = kwargsWithNames(argsOf(child(value, 'ArgList')), mod.text);
    const innerFn = inner.find((a) => !a.name && !a.spread) ?? inner.find((a) => a.name === 'fn');
    if (!innerFn) return undefined;
    value = innerFn.value;
    extraArgs = inner.filter((a) => a !== innerFn);
  }
  if (value.name === 'VariableName') fnNode = lookup(scope, (s) => s.functions, mod.src(value));
  if (!fnNode) return undefined;
  // For `mcp.tool(fn, ...)` the positional is the function; name is keyword-only then.
  return { server, kind: 'add_tool', calleeSpan: mod.span(callee), argList, fn: fnNode, args: extraArgs.map((a) => (a.name ? a : { ...a, name: '__positional__' })) };
}

interface BuildInput extends Registration {
  stmt: SyntaxNode;
  fn?: SyntaxNode;
}

function located<T extends JsonValue>(mod: PyModule, node: SyntaxNode, part: string, check: (v: JsonValue) => v is T): Located<T> {
  const span = mod.span(node);
  const v = literalValue(node, mod.text, (n) => mod.enumMemberValue(n));
  if (v.ok && check(v.value)) return { value: v.value, span };
  return { value: undefined, span, unresolved: { part, reason: v.ok ? `${part} is not of the expected type` : v.reason, span } };
}

const isString = (v: JsonValue): v is string => typeof v === 'string';

function withoutDescription(contract: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const k of Object.keys(contract)) if (k !== 'description') out[k] = contract[k];
  return out;
}

function buildTool(mod: PyModule, reg: BuildInput, versionOf: (fw: Framework) => string | undefined, py: () => PythonVersionFact): ToolDefinition | undefined {
  const fn = reg.fn;
  if (!fn) return undefined;
  const framework = reg.server.framework;
  const fnNameNode = child(fn, 'VariableName');
  const fnName = fnNameNode ? mod.src(fnNameNode) : '';
  const unresolved: Unresolved[] = [];
  const regSpan = mod.span(reg.stmt);

  // ---- registration arguments
  let nameLoc: Located<string> = { value: fnName, span: fnNameNode ? mod.span(fnNameNode) : regSpan };
  let title: Located<string> | undefined;
  let explicitDescription: Located<string> | undefined;
  let annotations: ToolDefinition['annotations'];
  let annotationsJson: { [k: string]: JsonValue } | undefined;
  let structuredOutput: boolean | undefined;
  let tags: string[] | undefined;
  let meta: { [k: string]: JsonValue } | undefined;
  let outputSchemaOverride: PyToolSpec['outputSchemaOverride'];
  const unresolvedArgs: Unresolved[] = [];
  reg.args.forEach((a, i) => {
    if (a.spread) {
      unresolvedArgs.push({ part: 'registration', reason: `${a.spread}${mod.src(a.value)} arguments are not resolved`, span: mod.span(a.value) });
      return;
    }
    const key = a.name === '__positional__' ? `#${i}` : a.name ?? (i === 0 ? 'name' : `#${i}`);
    if (key === 'name' || key === 'name_or_fn') {
      if (a.value.name === 'None') return;
      nameLoc = located(mod, a.value, 'name', isString);
    } else if (key === 'title') {
      if (a.value.name !== 'None') title = located(mod, a.value, 'title', isString);
    } else if (key === 'description') {
      if (a.value.name !== 'None') explicitDescription = located(mod, a.value, 'description', isString);
    } else if (key === 'annotations') {
      const r = annotationEntries(mod, a.value);
      annotations = { span: mod.span(a.value), entries: r.entries };
      annotationsJson = r.json;
      if (r.unresolved) unresolvedArgs.push(r.unresolved);
    } else if (key === 'structured_output' && framework !== 'fastmcp') {
      const v = located(mod, a.value, 'structured_output', (x): x is boolean | null => x === null || typeof x === 'boolean');
      if (v.unresolved) unresolvedArgs.push({ ...v.unresolved, part: 'outputSchema' });
      else structuredOutput = v.value === null ? undefined : v.value;
    } else if (key === 'tags' && framework === 'fastmcp') {
      const v = literalValue(a.value, mod.text);
      if (v.ok && Array.isArray(v.value) && v.value.every((x) => typeof x === 'string')) tags = v.value;
      else if (!(v.ok && v.value === null)) unresolvedArgs.push({ part: '_meta', reason: 'tags= is not a literal set of strings', span: mod.span(a.value) });
    } else if (key === 'meta') {
      const v = literalValue(a.value, mod.text);
      if (v.ok && v.value && typeof v.value === 'object' && !Array.isArray(v.value)) meta = v.value;
      else if (!(v.ok && v.value === null)) unresolvedArgs.push({ part: '_meta', reason: 'meta= is not a literal dict', span: mod.span(a.value) });
    } else if (key === 'output_schema' && framework === 'fastmcp') {
      const v = literalValue(a.value, mod.text);
      if (v.ok && (v.value === null || (typeof v.value === 'object' && !Array.isArray(v.value)))) outputSchemaOverride = { value: v.value };
      else unresolvedArgs.push({ part: 'outputSchema', reason: 'output_schema= is not a literal', span: mod.span(a.value) });
    } else if (['timeout', 'run_in_thread', 'auth', 'enabled'].includes(key) && framework === 'fastmcp') {
      // Runtime behaviour only: not part of the listed contract.
    } else if (key === 'icons') {
      if (a.value.name !== 'None') unresolvedArgs.push({ part: 'icons', reason: 'icons= is not modelled', span: mod.span(a.value) });
    } else {
      unresolvedArgs.push({ part: 'registration', reason: `argument ${key}= is not modelled by the analyser`, span: mod.span(a.value) });
    }
  });
  if (nameLoc.unresolved) unresolved.push(nameLoc.unresolved);
  if (title?.unresolved) unresolved.push(title.unresolved);
  if (explicitDescription?.unresolved) unresolved.push(explicitDescription.unresolved);

  // ---- docstring
  const body = child(fn, 'Body');
  const doc = docstringOf(body, mod.text);
  let docstring: ToolDefinition['docstring'];
  let parsed: ReturnType<typeof parseDocstring> | undefined;
  if (doc) {
    const lines = cleandocLines(doc.value);
    parsed = parseDocstring(lines.map((l) => l.text).join('\n'));
    docstring = {
      raw: doc.value,
      span: mod.span(doc.node),
      args: parsed.args.map((a) => ({ name: a.name, description: a.description, span: cleanLineSpan(doc, lines, a.line, a.endLine, mod.file) })),
      ...(parsed.argsSection ? { argsSectionSpan: cleanLineSpan(doc, lines, parsed.argsSection.startLine, parsed.argsSection.endLine, mod.file) } : {}),
    };
  } else if (body) {
    const first = meaningful(body)[0];
    const e = first?.name === 'ExpressionStatement' ? first.firstChild : undefined;
    if (e && (e.name === 'FormatString' || ((e.name === 'String' || e.name === 'ContinuedString') && stringValue(e, mod.text) === undefined)))
      unresolved.push({ part: 'description', reason: 'the docstring is not a plain string literal', span: mod.span(e) });
  }

  // ---- parameters
  const params = parameters(mod, fn);
  const paramSpecs: PyParamSpec[] = [];
  for (const p of params) {
    if (p.isContext) continue;
    if (p.kind === 'varargs' || p.kind === 'kwargs') {
      unresolved.push({ part: `inputSchema.properties.${p.name}`, reason: framework === 'fastmcp' ? `FastMCP refuses *args/**kwargs tools` : `*${p.kind === 'kwargs' ? '*' : ''}${p.name} parameters are not modelled`, span: p.span });
      continue;
    }
    if (p.name.startsWith('_') && framework !== 'fastmcp') {
      unresolved.push({ part: `inputSchema.properties.${p.name}`, reason: `parameter ${p.name} starts with "_": the SDK raises InvalidSignature`, span: p.nameSpan });
      continue;
    }
    paramSpecs.push({ name: p.name, type: p.type, fields: p.defaultField ? [p.defaultField] : [], default: p.default, defaultUnresolved: p.defaultUnresolved, span: p.span });
  }

  const retTypeDef = children(fn).find((c) => c.name === 'TypeDef');
  const retNode = retTypeDef ? meaningful(retTypeDef)[0] : undefined;
  const returnType: PyType | undefined = retNode ? mod.resolveType(retNode) : undefined;

  // ---- docstring semantics per framework and Python version
  let rawDoc = doc?.value;
  /** The official SDK publishes `__doc__` verbatim, and what `__doc__` holds depends on the Python version. */
  let docUnresolved: Unresolved | undefined;
  if (rawDoc !== undefined && compilerCleanDoc(rawDoc) !== rawDoc) {
    const fact = py();
    if (fact.docSemantics === '3.13+') rawDoc = compilerCleanDoc(rawDoc);
    else if (fact.docSemantics === 'unknown' && framework !== 'fastmcp' && !explicitDescription)
      docUnresolved = {
        part: 'description',
        reason:
          `the published docstring depends on the Python version (3.13+ strips its indentation, older versions keep it) and ` +
          (fact.source ? `${fact.source} admits both` : 'the workspace does not say which runs (.python-version, pyproject requires-python, or a .venv)'),
        span: doc ? mod.span(doc.node) : regSpan,
      };
  }
  const spec: PyToolSpec = {
    framework,
    fnName,
    name: nameLoc.value ?? fnName,
    title: title?.value,
    explicitDescription: explicitDescription?.value,
    rawDoc,
    parsedDoc: framework === 'fastmcp' && rawDoc !== undefined ? (cleandoc(rawDoc) ? parsed : { args: [] }) : undefined,
    params: paramSpecs,
    returnType,
    structuredOutput,
    outputSchemaOverride,
    annotations: annotationsJson,
    meta,
    tags,
    unresolvedArgs,
    span: regSpan,
  };
  const version = versionOf(framework);
  const built = buildPythonContract(spec);
  unresolved.push(...built.unresolved);
  // Never guessed: the tool keeps its docstring text for the rules, but the contract leaves the description out.
  const docDescription = typeof built.contract.description === 'string' ? built.contract.description : undefined;
  if (docUnresolved) {
    unresolved.push(docUnresolved);
  }
  if (framework === 'fastmcp' && majorOf(version) !== undefined && majorOf(version)! < 4)
    unresolved.push({ part: 'contract', reason: `the workspace pins fastmcp ${version}; the contract is predicted for fastmcp 4.x (titles, docstring parsing and schema post-processing changed across majors)`, span: reg.server.constructorSpan });

  if (framework === 'mcp-v1') {
    const u = mcp1Unverified(version);
    if (u) unresolved.push({ part: 'contract', reason: u, span: reg.server.constructorSpan });
  }

  // ---- description fact
  let description: ToolDefinition['description'];
  if (explicitDescription) description = { ...explicitDescription, origin: 'explicit' };
  else if (doc) {
    description = { value: docDescription, span: mod.span(doc.node), origin: 'docstring' };
    if (framework === 'fastmcp' && parsed?.unsupportedStyle) description.unresolved = { part: 'description', reason: `${parsed.unsupportedStyle}-style docstring is not parsed`, span: mod.span(doc.node) };
  }

  // ---- parameter definitions
  const docArgs = new Map((docstring?.args ?? []).map((a) => [a.name, a]));
  const parameters_: ParameterDefinition[] = [];
  for (const p of params) {
    if (p.isContext || p.kind === 'varargs' || p.kind === 'kwargs') continue;
    const schema = built.properties.get(p.name);
    const fieldDesc = [...p.annotatedFields, ...(p.defaultField ? [p.defaultField] : [])].reverse().find((f) => f.description)?.description;
    const annotatedText = framework === 'fastmcp' && p.type?.kind === 'annotated' && p.type.fields.length === 0 && p.type.descriptions.length === 1 ? p.type.descriptions[0] : undefined;
    let pdesc: ParameterDefinition['description'];
    if (fieldDesc) pdesc = { value: fieldDesc.value, span: fieldDesc.span, origin: 'field' };
    else if (annotatedText !== undefined && p.typeSpan) pdesc = { value: annotatedText, span: p.typeSpan, origin: 'other' };
    else if (framework === 'fastmcp' && docArgs.has(p.name) && !parsed?.unsupportedStyle) {
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
    parameters_.push({
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

  // Rebuilt rather than `delete`d: a deleted key turns the object into a slow dictionary for every rule reading it.
  const contract = docUnresolved ? withoutDescription(built.contract) : built.contract;
  const handler = handlerFacts(mod, fn, params.filter((p) => !p.isContext).map((p) => p.name));
  const paramList = child(fn, 'ParamList');
  return {
    language: 'python',
    framework,
    ...(versionOf(framework) ? { frameworkVersion: versionOf(framework) } : {}),
    file: mod.file,
    server: { id: reg.server.id, variable: reg.server.variable, ...(reg.server.name !== undefined ? { name: reg.server.name } : {}), span: reg.server.span },
    registration: {
      kind: reg.kind,
      span: regSpan,
      calleeSpan: reg.calleeSpan,
      ...(reg.kind === 'decorator' ? { decoratorCalled: !!reg.decoratorCalled } : {}),
      ...(reg.argList ? { configSpan: mod.span(reg.argList) } : {}),
    },
    name: nameLoc,
    ...(title ? { title } : {}),
    ...(description ? { description } : {}),
    ...(docstring ? { docstring } : {}),
    parameters: parameters_,
    ...(paramList ? { inputSchemaSpan: mod.span(paramList) } : {}),
    ...(retNode ? { outputSchemaSpan: mod.span(retNode) } : {}),
    ...(annotations ? { annotations } : {}),
    handler,
    contract,
    unresolved,
    unrepresentable: [],
  };
}

/**
 * mcp 1.x versions whose `mcp.server.fastmcp` contracts were compared live with the prediction (test/fidelity/python.test.ts,
 * .cache/venv-mcp1): a workspace pinning one of these gets exact contracts; any other 1.x stays an unverified prediction.
 */
export const MCP1_VERIFIED = new Set(['1.30.0']);

function mcp1Unverified(version: string | undefined): string | undefined {
  if (version !== undefined && MCP1_VERIFIED.has(version)) return undefined;
  const major = majorOf(version);
  if (major !== undefined && major >= 2)
    return `the workspace pins mcp ${version}, which has no mcp.server.fastmcp module: this server fails at import (ModuleNotFoundError) and lists no tools`;
  const proven = [...MCP1_VERIFIED].join(', ');
  return version === undefined
    ? `mcp 1.x (mcp.server.fastmcp) with no pinned version in the workspace: predicted as mcp ${proven} publishes it; other 1.x releases differ (structured output, titles)`
    : `the workspace pins mcp ${version}: predicted as mcp ${proven} publishes it (the only 1.x version verified live); not verified for ${version}`;
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

function annotationEntries(mod: PyModule, node: SyntaxNode): { entries: AnnotationEntry[]; json?: { [k: string]: JsonValue }; unresolved?: Unresolved } {
  const entries: AnnotationEntry[] = [];
  const json: { [k: string]: JsonValue } = {};
  let bad: Unresolved | undefined;
  if (node.name === 'None') return { entries };
  if (node.name === 'CallExpression' && node.firstChild && /(^|\.)ToolAnnotations$/.test(mod.qualify(node.firstChild) ?? '')) {
    for (const a of kwargsWithNames(argsOf(child(node, 'ArgList')), mod.text)) {
      if (!a.name || !a.nameNode) {
        bad = { part: 'annotations', reason: 'positional ToolAnnotations argument', span: mod.span(a.value) };
        continue;
      }
      const v = literalValue(a.value, mod.text);
      // span: the whole `key=value` entry (what a fix removes); keySpan the key; valueSpan the value (what a fix flips).
      entries.push({ key: a.name, value: v.ok ? v.value : undefined, span: { file: mod.file, start: a.nameNode.from, end: a.value.to }, keySpan: mod.span(a.nameNode), valueSpan: mod.span(a.value) });
      if (!v.ok) bad = { part: `annotations.${a.name}`, reason: v.reason, span: mod.span(a.value) };
      else if (v.value !== null) json[a.name] = v.value;
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
      else if (val.value !== null) json[key] = val.value;
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
