/**
 * Preview view-model: turns one predicted tool contract (+ its findings, unresolved parts and the server's other
 * tools) into what the Preview Contract webview shows. Pure data in, pure data out — no `vscode`, no DOM — so the
 * extension host builds it, unit tests check it, and the webview only renders it (as text, never as HTML).
 */
import type { JsonSchema, JsonValue, Language } from './json';
import { FRAMEWORKS, type Framework } from './frameworks';
import type { LspRange, PromptSummary, ResourceSummary, ToolFinding } from './protocol';
import type { ContractDiff } from './contract-diff';
import { assessRisk, type RiskAssessment, type RiskLevel } from './risk';

/** The part of a ToolSummary (common/protocol.ts) the preview needs. */
export interface PreviewTool {
  name: string | undefined;
  language: Language;
  framework: Framework;
  frameworkVersion?: string;
  uri: string;
  range: LspRange;
  contract: JsonSchema;
  unresolved: { part: string; reason: string; uri: string; range: LspRange }[];
  serverId: string;
  /** The guard the registration runs under (ToolSummary.condition): listed only when it holds. */
  condition?: { text: string; uri: string; range: LspRange };
}

export interface PreviewInput {
  tool: PreviewTool;
  /** Contracts of every tool published by the same server (including this one), in registration order. */
  serverContracts: JsonSchema[];
  findings: ToolFinding[];
  /**
   * The language server's risk assessment (server/src/rules/util/risk.ts: declared hints, else inferred from the name
   * and the handler). Absent => assessRisk() reads the published annotations with the spec defaults.
   */
  risk?: RiskAssessment;
  /** A real tokenizer (see client/src/preview/tokens.ts); absent => token figures are not shown. */
  tokenizer?: { encoding: string; count(text: string): number };
  /** The prompts and resources of the tool's file; those registered on the tool's server are shown. */
  prompts?: PromptSummary[];
  resources?: ResourceSummary[];
}

/** A risk assessment (common/risk.ts) with what its level implies for an agent and a client. */
export interface RiskView {
  level: RiskLevel;
  /** Why this level: one line per fact used, saying whether it was declared, inferred or assumed. */
  reasons: string[];
  autonomy: string;
  confirmation: string;
  /** True when at least one hint the level depends on was not declared. */
  assumed: boolean;
}

export interface FieldView {
  /** Property name as the model sees it. */
  name: string;
  /** Dotted contract path, e.g. inputSchema.properties.limit (used to mark unresolved parts). */
  path: string;
  type: string;
  constraints: string[];
  /** JSON text of the default, when there is one. */
  defaultValue?: string;
  required: boolean;
  description?: string;
  /** Why this field is not fully known statically, when it is not. */
  unresolved?: string;
  /** Properties of a nested object (or of the object items of an array). */
  children: FieldView[];
}

export interface AnnotationView {
  key: string;
  /** JSON text of the value as published, or undefined when not declared. */
  value?: string;
  /** What a client reads from it (with the spec default when not declared). */
  meaning: string;
  declared: boolean;
}

export interface FindingView {
  ruleId: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  uri: string;
  range: LspRange;
  /** "file.ts:12:5" for display. */
  location: string;
  hasFix: boolean;
  docsUrl: string;
}

export interface UnresolvedView {
  part: string;
  reason: string;
  uri: string;
  range: LspRange;
  location: string;
}

/** A prompt of the tool's server as prompts/list publishes it (what a client shows in its prompt picker). */
export interface PromptView {
  name: string | undefined;
  title?: string;
  description?: string;
  arguments: { name: string; required: boolean; description?: string }[];
  unresolved: UnresolvedView[];
  uri: string;
  range: LspRange;
  location: string;
}

/** A resource (resources/list) or resource template (resources/templates/list) of the tool's server. */
export interface ResourceView {
  kind: 'resource' | 'template';
  /** The URI, or the URI template; undefined when not resolved. */
  address: string | undefined;
  name: string | undefined;
  title?: string;
  mimeType?: string;
  description?: string;
  unresolved: UnresolvedView[];
  uri: string;
  range: LspRange;
  location: string;
}

export interface TokenView {
  encoding: string;
  /** Tokens of this tool's tools/list entry (compact JSON, as sent on the wire). */
  tool: number;
  /** Tokens of the whole server's tools/list `tools` array. */
  server: number;
  serverToolCount: number;
}

export interface PreviewView {
  /** Stable identity of what is shown (uri + tool name): the webview keeps its scroll position while it is unchanged. */
  key: string;
  name: string | undefined;
  title?: string;
  description?: string;
  /** Set when the description could not be resolved statically. */
  descriptionUnresolved?: string;
  language: Language;
  framework: Framework;
  frameworkLabel: string;
  file: string;
  /** The exact tools/list entry, pretty-printed: what "Copy JSON" copies. */
  json: string;
  parameters: FieldView[];
  inputSchemaNote?: string;
  output: { declared: boolean; fields: FieldView[]; note?: string };
  annotations: AnnotationView[];
  risk: RiskView;
  findings: FindingView[];
  tokens?: TokenView;
  unresolved: UnresolvedView[];
  /**
   * Set when the tool is registered under a guard: the server lists it only when `text` (as written) holds at run
   * time, so a running server may not list it. The contract itself is unaffected.
   */
  condition?: { text: string; uri: string; range: LspRange; location: string };
  /** Top-level contract keys the reading does not cover (execution, icons, _meta...), as JSON text. */
  otherFields: { key: string; value: string }[];
  /** The live comparison, when a server was asked. */
  live?: LiveView;
  /** The prompts and resources registered on the same server in the same file (absent: none). */
  prompts?: PromptView[];
  resources?: ResourceView[];
}

/** The live half of the view (built by buildLiveView from a ContractDiff). */
export interface LiveView {
  state: 'idle' | 'starting' | 'running' | 'error';
  /** One sentence for the header: "matches the running server", "3 fields differ", the error text... */
  summary: string;
  diff?: ContractDiff;
  /** When the live server was started, ISO text (for "started at"). */
  startedAt?: string;
  /** Actions the view may offer. */
  canRestart: boolean;
  canStart: boolean;
}

const DOCS_BASE = 'https://github.com/toolsmith/toolsmith/blob/main/docs/rules/';

function isObject(v: JsonValue | undefined): v is { [key: string]: JsonValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function json(v: JsonValue | undefined): string {
  return v === undefined ? 'undefined' : JSON.stringify(v);
}

export function basename(uriOrPath: string): string {
  const clean = uriOrPath.replace(/[?#].*$/, '');
  const parts = clean.split(/[\\/]/);
  return decodeURIComponent(parts[parts.length - 1] || clean);
}

function locationOf(uri: string, range: LspRange): string {
  return `${basename(uri)}:${range.start.line + 1}:${range.start.character + 1}`;
}

/** Follows a local `$ref` ("#/$defs/Color") against the root schema; other refs are returned unchanged. */
function deref(schema: JsonValue, root: JsonValue | undefined): { schema: JsonValue; refName?: string } {
  let current = schema;
  let refName: string | undefined;
  for (let i = 0; i < 8 && isObject(current) && typeof current.$ref === 'string' && current.$ref.startsWith('#/'); i++) {
    const pathParts = current.$ref
      .slice(2)
      .split('/')
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    refName = pathParts[pathParts.length - 1];
    let target: JsonValue | undefined = root;
    for (const p of pathParts) target = isObject(target) ? target[p] : undefined;
    if (target === undefined) break;
    // Sibling keywords next to $ref (description, default) still apply.
    const { $ref: _ref, ...siblings } = current;
    current = isObject(target) ? { ...target, ...siblings } : target;
  }
  return { schema: current, refName };
}

/** The branches of anyOf/oneOf, and whether one of them is `null` (pydantic's Optional[T]). */
function unionBranches(schema: { [key: string]: JsonValue }): JsonValue[] | undefined {
  const u = schema.anyOf ?? schema.oneOf;
  return Array.isArray(u) ? u : undefined;
}

/** A short type label as a person reads it: `string`, `integer | null`, `array of string`, `"a" | "b"`, `Color ("red" | "blue")`. */
export function typeLabel(schemaIn: JsonValue | undefined, root?: JsonValue, depth = 0): string {
  if (schemaIn === undefined) return 'unknown';
  if (schemaIn === true || (isObject(schemaIn) && Object.keys(schemaIn).length === 0)) return 'any';
  if (schemaIn === false) return 'never';
  const { schema, refName } = deref(schemaIn, root);
  if (!isObject(schema)) return 'any';
  if (depth > 4) return '…';
  let label: string;
  if (Array.isArray(schema.enum)) label = schema.enum.map((v) => json(v)).join(' | ');
  else if (schema.const !== undefined) label = json(schema.const);
  else if (unionBranches(schema))
    label = unionBranches(schema)!
      .map((b) => typeLabel(b, root, depth + 1))
      .join(' | ');
  else if (Array.isArray(schema.allOf) && schema.allOf.length === 1) label = typeLabel(schema.allOf[0], root, depth + 1);
  else if (Array.isArray(schema.type)) label = schema.type.map((t) => (t === 'array' ? arrayLabel(schema, root, depth) : String(t))).join(' | ');
  else if (schema.type === 'array') label = arrayLabel(schema, root, depth);
  else if (typeof schema.type === 'string') label = schema.type;
  else if (isObject(schema.properties)) label = 'object';
  else label = 'any';
  return refName && !label.startsWith(refName) ? `${refName} (${label})` : label;
}

function arrayLabel(schema: { [key: string]: JsonValue }, root: JsonValue | undefined, depth: number): string {
  if (Array.isArray(schema.prefixItems)) return `[${schema.prefixItems.map((s) => typeLabel(s, root, depth + 1)).join(', ')}]`;
  if (schema.items === undefined) return 'array';
  const inner = typeLabel(schema.items, root, depth + 1);
  return `array of ${inner.includes(' | ') ? `(${inner})` : inner}`;
}

/** Constraints as short human phrases, read from the schema itself (and from the non-null branch of Optional[T]). */
export function constraintsOf(schemaIn: JsonValue | undefined, root?: JsonValue): string[] {
  if (!isObject(schemaIn)) return [];
  const { schema } = deref(schemaIn, root);
  if (!isObject(schema)) return [];
  const out: string[] = [];
  const add = (s: { [key: string]: JsonValue }) => {
    const n = (k: string) => (typeof s[k] === 'number' || typeof s[k] === 'string' ? String(s[k]) : undefined);
    if (n('minimum') !== undefined) out.push(`≥ ${n('minimum')}`);
    if (n('exclusiveMinimum') !== undefined) out.push(`> ${n('exclusiveMinimum')}`);
    if (n('maximum') !== undefined) out.push(`≤ ${n('maximum')}`);
    if (n('exclusiveMaximum') !== undefined) out.push(`< ${n('exclusiveMaximum')}`);
    if (n('multipleOf') !== undefined) out.push(`multiple of ${n('multipleOf')}`);
    if (n('minLength') !== undefined) out.push(`length ≥ ${n('minLength')}`);
    if (n('maxLength') !== undefined) out.push(`length ≤ ${n('maxLength')}`);
    if (typeof s.pattern === 'string') out.push(`matches /${s.pattern}/`);
    if (typeof s.format === 'string') out.push(`format: ${s.format}`);
    if (n('minItems') !== undefined) out.push(`items ≥ ${n('minItems')}`);
    if (n('maxItems') !== undefined) out.push(`items ≤ ${n('maxItems')}`);
    if (s.uniqueItems === true) out.push('unique items');
    if (n('minProperties') !== undefined) out.push(`keys ≥ ${n('minProperties')}`);
    if (n('maxProperties') !== undefined) out.push(`keys ≤ ${n('maxProperties')}`);
    if (s.additionalProperties === false && isObject(s.properties)) out.push('no other keys');
  };
  add(schema);
  const branches = unionBranches(schema);
  if (branches) {
    const nonNull = branches.filter((b) => !(isObject(b) && b.type === 'null'));
    if (nonNull.length === 1) {
      const { schema: inner } = deref(nonNull[0], root);
      if (isObject(inner)) add(inner);
    }
  }
  return out;
}

/** Nested object properties of a schema (the object itself, its array items, or the non-null branch of Optional). */
function nestedObject(schemaIn: JsonValue | undefined, root: JsonValue | undefined): { [key: string]: JsonValue } | undefined {
  if (!isObject(schemaIn)) return undefined;
  const { schema } = deref(schemaIn, root);
  if (!isObject(schema)) return undefined;
  if (isObject(schema.properties)) return schema;
  if (schema.items !== undefined) return nestedObject(schema.items, root);
  const branches = unionBranches(schema);
  if (branches) {
    const nonNull = branches.filter((b) => !(isObject(b) && b.type === 'null'));
    if (nonNull.length === 1) return nestedObject(nonNull[0], root);
  }
  return undefined;
}

/** Finds the unresolved entry that covers `path` (the part itself, one of its parents, or one of its children). */
function unresolvedFor(path: string, unresolved: PreviewTool['unresolved']): string | undefined {
  const hits = unresolved.filter((u) => u.part === path || path.startsWith(u.part + '.') || u.part.startsWith(path + '.'));
  return hits.length ? hits.map((h) => (h.part === path ? h.reason : `${h.part}: ${h.reason}`)).join('; ') : undefined;
}

/** Reads `properties` + `required` of an object schema into fields, depth-limited. */
export function readFields(objectSchema: JsonValue | undefined, basePath: string, root: JsonValue | undefined, unresolved: PreviewTool['unresolved'], depth = 0): FieldView[] {
  if (!isObject(objectSchema)) return [];
  const props = objectSchema.properties;
  if (!isObject(props)) return [];
  const required = Array.isArray(objectSchema.required) ? objectSchema.required.filter((r): r is string => typeof r === 'string') : [];
  return Object.entries(props).map(([name, prop]) => {
    const path = `${basePath}.properties.${name}`;
    const { schema: resolved } = deref(prop, root);
    const nested = depth < 4 ? nestedObject(prop, root) : undefined;
    const descriptionSource =
      isObject(prop) && typeof prop.description === 'string' ? prop.description : isObject(resolved) && typeof resolved.description === 'string' ? resolved.description : undefined;
    const field: FieldView = {
      name,
      path,
      type: typeLabel(prop, root),
      constraints: constraintsOf(prop, root),
      required: required.includes(name),
      children: nested ? readFields(nested, path, root, unresolved, depth + 1) : [],
    };
    if (isObject(prop) && prop.default !== undefined) field.defaultValue = json(prop.default);
    else if (isObject(resolved) && resolved.default !== undefined) field.defaultValue = json(resolved.default);
    if (descriptionSource !== undefined) field.description = descriptionSource;
    const u = unresolvedFor(path, unresolved);
    if (u) field.unresolved = u;
    return field;
  });
}

// Meaning of each annotation with its MCP default (spec: readOnly false, destructive true, idempotent false, openWorld true).
const ANNOTATION_INFO: { key: string; yes: string; no: string; fallback: boolean | undefined }[] = [
  { key: 'readOnlyHint', yes: 'does not modify its environment', no: 'may modify its environment', fallback: false },
  { key: 'destructiveHint', yes: 'may delete or overwrite data', no: 'only adds data, never destroys', fallback: true },
  { key: 'idempotentHint', yes: 'calling again with the same arguments has no further effect', no: 'repeated calls may have repeated effects', fallback: false },
  { key: 'openWorldHint', yes: 'reaches an open, external world (web, e-mail, other users)', no: 'works in a closed domain', fallback: true },
];

export function readAnnotations(contract: JsonSchema): AnnotationView[] {
  const ann = isObject(contract.annotations) ? contract.annotations : {};
  const out: AnnotationView[] = [];
  if (ann.title !== undefined) out.push({ key: 'title', value: json(ann.title), meaning: 'display name for people (the model reads the tool title or name)', declared: true });
  for (const info of ANNOTATION_INFO) {
    const v = ann[info.key];
    if (v === undefined) {
      const irrelevant = info.key !== 'readOnlyHint' && ann.readOnlyHint === true && (info.key === 'destructiveHint' || info.key === 'idempotentHint');
      out.push({
        key: info.key,
        declared: false,
        meaning: irrelevant ? 'not declared — meaningless for a read-only tool' : `not declared — clients assume ${String(info.fallback)}: ${info.fallback ? info.yes : info.no}`,
      });
    } else {
      out.push({ key: info.key, value: json(v), declared: true, meaning: v === true ? info.yes : v === false ? info.no : 'not a boolean: clients ignore it' });
    }
  }
  for (const [k, v] of Object.entries(ann)) {
    if (k !== 'title' && !ANNOTATION_INFO.some((i) => i.key === k)) out.push({ key: k, value: json(v), declared: true, meaning: 'not an MCP annotation: clients ignore it' });
  }
  return out;
}

const RISK_IMPLICATIONS: Record<RiskLevel, { autonomy: string; confirmation: string }> = {
  Low: {
    autonomy: 'An agent may call it on its own.',
    confirmation: 'No confirmation needed: read-only tools can be allowed without interruption.',
  },
  Medium: {
    autonomy: 'An agent may call it on its own when the scope is clear from the task.',
    confirmation: 'Ask for confirmation when the context is ambiguous.',
  },
  High: {
    autonomy: 'An agent must not call it silently.',
    confirmation: 'Expect clients to ask the user to confirm each call.',
  },
  Critical: {
    autonomy: 'No autonomous execution.',
    confirmation: 'Always requires explicit confirmation (often stronger authentication); offer a dry run.',
  },
};

/** The preview's risk section: the level and reasons of the one risk model, with what the level implies. */
function riskView(risk: RiskAssessment): RiskView {
  return { level: risk.level, reasons: risk.reasons, assumed: risk.undeclared.length > 0, ...RISK_IMPLICATIONS[risk.level] };
}

function findingViews(findings: ToolFinding[]): FindingView[] {
  const order = { error: 0, warning: 1, info: 2 } as const;
  return [...findings]
    .sort((a, b) => order[a.severity] - order[b.severity] || a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character)
    .map((f) => ({
      ruleId: f.ruleId,
      severity: f.severity,
      message: f.message,
      uri: f.uri,
      range: f.range,
      location: locationOf(f.uri, f.range),
      hasFix: f.hasFix,
      docsUrl: `${DOCS_BASE}${encodeURIComponent(f.ruleId)}.md`,
    }));
}

const READ_KEYS = new Set(['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations']);

export function previewKey(tool: Pick<PreviewTool, 'uri' | 'name' | 'serverId'>): string {
  return `${tool.uri}#${tool.serverId}#${tool.name ?? ''}`;
}

function text(v: JsonValue | undefined): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function unresolvedViews(rows: PreviewTool['unresolved']): UnresolvedView[] {
  return rows.map((u) => ({ ...u, location: locationOf(u.uri, u.range) }));
}

/** The prompts/list entry of a prompt as the preview lists it. */
export function promptView(p: PromptSummary): PromptView {
  const c = p.contract;
  const args = Array.isArray(c.arguments) ? c.arguments.filter(isObject) : [];
  const view: PromptView = {
    name: text(c.name) ?? p.name,
    arguments: args.map((a) => {
      const arg: PromptView['arguments'][number] = { name: String(a.name), required: a.required === true };
      if (typeof a.description === 'string') arg.description = a.description;
      return arg;
    }),
    unresolved: unresolvedViews(p.unresolved),
    uri: p.uri,
    range: p.range,
    location: locationOf(p.uri, p.range),
  };
  if (text(c.title) !== undefined) view.title = text(c.title);
  if (text(c.description) !== undefined) view.description = text(c.description);
  return view;
}

/** The resources/list (or resources/templates/list) entry of a resource as the preview lists it. */
export function resourceView(r: ResourceSummary): ResourceView {
  const c = r.contract;
  const view: ResourceView = {
    kind: r.kind,
    address: text(r.kind === 'resource' ? c.uri : c.uriTemplate),
    name: text(c.name) ?? r.name,
    unresolved: unresolvedViews(r.unresolved),
    uri: r.uri,
    range: r.range,
    location: locationOf(r.uri, r.range),
  };
  for (const key of ['title', 'mimeType', 'description'] as const) if (text(c[key]) !== undefined) view[key] = text(c[key]);
  return view;
}

export function buildPreview(input: PreviewInput): PreviewView {
  const { tool } = input;
  const c = tool.contract;
  const unresolved = tool.unresolved;
  const input_ = c.inputSchema;
  const output = c.outputSchema;
  const view: PreviewView = {
    key: previewKey(tool),
    name: typeof c.name === 'string' ? c.name : tool.name,
    language: tool.language,
    framework: tool.framework,
    frameworkLabel: FRAMEWORKS[tool.framework].label + (tool.frameworkVersion ? ` ${tool.frameworkVersion}` : ''),
    file: tool.uri,
    json: JSON.stringify(c, null, 2),
    parameters: readFields(input_, 'inputSchema', input_, unresolved),
    output: { declared: output !== undefined, fields: readFields(output, 'outputSchema', output, unresolved) },
    annotations: readAnnotations(c),
    risk: riskView(input.risk ?? assessRisk(c.annotations)),
    findings: findingViews(input.findings),
    unresolved: unresolved.map((u) => ({ ...u, location: locationOf(u.uri, u.range) })),
    otherFields: Object.entries(c)
      .filter(([k]) => !READ_KEYS.has(k))
      .map(([key, value]) => ({ key, value: JSON.stringify(value, null, 2) })),
  };
  if (typeof c.title === 'string') view.title = c.title;
  if (typeof c.description === 'string') view.description = c.description;
  if (tool.condition) view.condition = { ...tool.condition, location: locationOf(tool.condition.uri, tool.condition.range) };
  const prompts = (input.prompts ?? []).filter((p) => p.serverId === tool.serverId);
  if (prompts.length) view.prompts = prompts.map(promptView);
  const resources = (input.resources ?? []).filter((r) => r.serverId === tool.serverId);
  if (resources.length) view.resources = resources.map(resourceView);
  const descUnresolved = unresolved.find((u) => u.part === 'description');
  if (descUnresolved) view.descriptionUnresolved = descUnresolved.reason;
  if (!isObject(input_)) {
    view.inputSchemaNote = unresolvedFor('inputSchema', unresolved) ?? 'no inputSchema in the contract';
  } else if (view.parameters.length === 0) {
    view.inputSchemaNote = unresolvedFor('inputSchema', unresolved) ?? 'takes no parameters';
  }
  if (output === undefined) {
    view.output.note = unresolvedFor('outputSchema', unresolved) ?? 'no outputSchema: the model learns the result shape only from the description';
  } else if (!isObject(output) || !isObject(output.properties)) {
    view.output.note = `result type: ${typeLabel(output, output)}`;
  }
  if (input.tokenizer) {
    const server = input.serverContracts.length ? input.serverContracts : [c];
    view.tokens = {
      encoding: input.tokenizer.encoding,
      tool: input.tokenizer.count(JSON.stringify(c)),
      server: input.tokenizer.count(JSON.stringify({ tools: server })),
      serverToolCount: server.length,
    };
  }
  return view;
}
