/**
 * What `UriTemplate.parse(template)` of the Python SDK (mcp 2.0–2.3, mcp/shared/uri_template.py, the same file in
 * every 2.x release) refuses, and the variables it finds: `MCPServer.resource(uri)` parses the URI with it at
 * decoration time, so an error here is an `InvalidUriTemplate` at import and the server does not start. Ported check
 * by check (the messages are the SDK's); matching and expansion are not needed and not ported.
 */

type Operator = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';
interface Variable {
  name: string;
  operator: Operator;
  explode: boolean;
}
type Part = string | { operator: Operator; variables: Variable[] };

const OPERATORS = new Set(['+', '#', '.', '/', ';', '?', '&']);
const VARNAME = /^[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*$/;
const MAX_LENGTH = 8_192;
const MAX_VARIABLES = 256;
/** `_OPERATOR_SPECS`: the first variable's lead, the separator between the next ones, and whether it is emitted as `name=`. */
const SPECS: Record<Operator, { prefix: string; separator: string; named: boolean }> = {
  '': { prefix: '', separator: ',', named: false },
  '+': { prefix: '', separator: ',', named: false },
  '#': { prefix: '#', separator: ',', named: false },
  '.': { prefix: '.', separator: '.', named: false },
  '/': { prefix: '/', separator: '/', named: false },
  ';': { prefix: ';', separator: ';', named: true },
  '?': { prefix: '?', separator: '&', named: true },
  '&': { prefix: '&', separator: '&', named: true },
};

class InvalidUriTemplate extends Error {}

function parseExpression(body: string, pos: number): { operator: Operator; variables: Variable[] } {
  if (!body) throw new InvalidUriTemplate(`Empty expression at position ${pos}`);
  let operator: Operator = '';
  if (OPERATORS.has(body[0])) {
    operator = body[0] as Operator;
    body = body.slice(1);
    if (!body) throw new InvalidUriTemplate(`Expression has operator but no variables at position ${pos}`);
  }
  const variables: Variable[] = [];
  for (const spec of body.split(',')) {
    if (spec.includes(':')) throw new InvalidUriTemplate(`Prefix modifier {var:N} is not supported (in '${spec}' at position ${pos})`);
    const explode = spec.endsWith('*');
    const name = explode ? spec.slice(0, -1) : spec;
    if (!VARNAME.test(name)) throw new InvalidUriTemplate(`Invalid variable name '${name}' at position ${pos}`);
    if (explode && ['', '+', '#', '?', '&'].includes(operator)) throw new InvalidUriTemplate(`Explode modifier on {${operator}${name}*} is not supported for matching`);
    variables.push({ name, operator, explode });
  }
  return { operator, variables };
}

function parse(template: string): { parts: Part[]; variables: Variable[] } {
  if (template.length > MAX_LENGTH) throw new InvalidUriTemplate(`Template exceeds maximum length of ${MAX_LENGTH}`);
  const parts: Part[] = [];
  const variables: Variable[] = [];
  let i = 0;
  while (i < template.length) {
    const brace = template.indexOf('{', i);
    if (brace === -1) {
      parts.push(template.slice(i));
      break;
    }
    if (brace > i) parts.push(template.slice(i, brace));
    const end = template.indexOf('}', brace);
    if (end === -1) throw new InvalidUriTemplate(`Unclosed expression at position ${brace}`);
    const expr = parseExpression(template.slice(brace + 1, end), brace);
    parts.push(expr);
    variables.push(...expr.variables);
    if (variables.length > MAX_VARIABLES) throw new InvalidUriTemplate(`Template exceeds maximum of ${MAX_VARIABLES} variables`);
    i = end + 1;
  }
  const seen = new Set<string>();
  for (const v of variables) {
    if (seen.has(v.name)) throw new InvalidUriTemplate(`Variable '${v.name}' appears more than once; repeated variables are not supported`);
    seen.add(v.name);
  }
  if (parts.filter((p) => typeof p !== 'string' && p.operator === '?').length > 1)
    throw new InvalidUriTemplate('Template contains more than one {?...} expression; use {?a,b} or {?a}{&b} for multiple query parameters');
  return { parts, variables };
}

/** `_split_query_tail`: a trailing run of `{?...}`/`{&...}` expressions, matched leniently as the query. */
function splitQueryTail(parts: Part[]): { path: Part[]; query: Variable[] } {
  let split = parts.length;
  for (let i = parts.length - 1; i >= 0; i--) {
    const p = parts[i];
    if (typeof p !== 'string' && (p.operator === '?' || p.operator === '&')) split = i;
    else break;
  }
  const first = parts[split];
  if (split === parts.length || typeof first === 'string' || first.operator !== '?') return { path: parts, query: [] };
  for (const p of parts.slice(0, split)) {
    if (typeof p === 'string' ? p.includes('?') || p.includes('#') : p.operator === '?' || p.operator === '#') return { path: parts, query: [] };
  }
  return { path: parts.slice(0, split), query: parts.slice(split).flatMap((p) => (typeof p === 'string' ? [] : p.variables)) };
}

/** `_flatten` + `_partition_greedy`'s checks: no two captures without a literal between them, at most one multi-segment variable. */
function checkCaptures(path: Part[]): void {
  type Atom = { lit: string } | { cap: Variable };
  const atoms: Atom[] = [];
  const lit = (text: string) => {
    if (!text) return;
    const last = atoms[atoms.length - 1];
    if (last && 'lit' in last) last.lit += text;
    else atoms.push({ lit: text });
  };
  for (const p of path) {
    if (typeof p === 'string') {
      lit(p);
      continue;
    }
    const spec = SPECS[p.operator];
    p.variables.forEach((v, i) => {
      const lead = i === 0 ? spec.prefix : spec.separator;
      if (v.explode) atoms.push({ cap: v });
      else {
        lit(spec.named ? (p.operator === ';' ? `${lead}${v.name}` : `${lead}${v.name}=`) : lead);
        atoms.push({ cap: v });
      }
    });
  }
  let greedy = false;
  let prev: Atom | undefined;
  for (const atom of atoms) {
    if ('cap' in atom) {
      if (prev && 'cap' in prev)
        throw new InvalidUriTemplate(
          `Variables '${prev.cap.name}' and '${atom.cap.name}' are adjacent with no literal separator; matching cannot determine where one ends and the other begins. Add a literal between them or use a single variable.`,
        );
      if (atom.cap.explode || atom.cap.operator === '+' || atom.cap.operator === '#') {
        if (greedy) throw new InvalidUriTemplate('Template contains more than one multi-segment variable ({+var}, {#var}, or explode modifier); matching would be ambiguous');
        greedy = true;
      }
    }
    prev = atom;
  }
}

/** The SDK's message when `UriTemplate.parse(template)` raises, else undefined. */
export function pythonUriTemplateError(template: string): string | undefined {
  try {
    const { parts } = parse(template);
    checkCaptures(splitQueryTail(parts).path);
    return undefined;
  } catch (e) {
    if (e instanceof InvalidUriTemplate) return e.message;
    throw e;
  }
}

/** The variable names of a template that parses, and those matched leniently as query parameters (`query_variable_names`). */
export function pythonUriTemplateVariables(template: string): { names: string[]; query: Set<string> } {
  const { parts, variables } = parse(template);
  return { names: variables.map((v) => v.name), query: new Set(splitQueryTail(parts).query.map((v) => v.name)) };
}
