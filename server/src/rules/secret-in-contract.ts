import type { JsonValue, Span, ToolDefinition } from '../analysis/model';
import type { Rule, RuleContext, RuleFinding } from './types';
import { finding } from './util/finding';

/** Well-known credential formats, then a generic `key=value` with a long random-looking value. */
const PATTERNS: [string, RegExp][] = [
  ['an Anthropic API key', /\bsk-ant-[A-Za-z0-9_-]{20,}/],
  ['an OpenAI-style API key', /\bsk-(proj-)?[A-Za-z0-9_-]{20,}/],
  ['a GitHub token', /\b(gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/],
  ['an AWS access key id', /\b(AKIA|ASIA)[0-9A-Z]{16}\b/],
  ['a Slack token', /\bxox[abposr]-[A-Za-z0-9-]{10,}/],
  ['a Google API key', /\bAIza[0-9A-Za-z_-]{35}/],
  ['a Stripe key', /\b(sk|rk|pk)_(live|test)_[0-9A-Za-z]{16,}/],
  ['a JSON Web Token', /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/],
  ['a private key', /-----BEGIN [A-Z ]*PRIVATE KEY-----/],
  ['a credential', /\b(api[_-]?key|apikey|access[_-]?token|auth[_-]?token|secret|password|passwd|bearer)\b["']?\s*[:=]?\s*["']?([A-Za-z0-9_\-+/]{20,})/i],
];

/** Placeholders (`sk-xxxxxxxx...`, `your-api-key`) are documentation, not secrets. */
function looksReal(token: string): boolean {
  if (/x{6,}|X{6,}|\*{4,}|\.{3}|<|your|example|placeholder|dummy|redacted|changeme/i.test(token)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/].filter((r) => r.test(token)).length;
  return classes >= 2 && new Set(token).size >= 10;
}

/**
 * Every pattern above needs a run of 10+ token characters or the private-key banner: most descriptions have
 * neither, and one scan says so instead of ten.
 */
const MAY_HOLD_SECRET = /[A-Za-z0-9_\-+/]{10,}|-----BEGIN/;

function findSecret(text: string): { what: string; match: string } | undefined {
  if (!MAY_HOLD_SECRET.test(text)) return undefined;
  for (const [what, re] of PATTERNS) {
    const m = re.exec(text);
    if (!m) continue;
    const token = what === 'a credential' ? m[2] : m[0];
    if (what === 'a private key' || looksReal(token)) return { what, match: token };
  }
  return undefined;
}

/** Every string in `v`, depth first (arrays in order, objects by key order), appended to `out`. */
function strings(v: JsonValue | undefined, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (let i = 0; i < v.length; i++) strings(v[i], out);
  else if (v && typeof v === 'object') for (const k of Object.keys(v)) strings(v[k], out);
  return out;
}

/** Narrows a literal's span to the secret when the source spells it as is. */
function narrow(ctx: RuleContext, span: Span, match: string): Span {
  const text = ctx.textOf(span.file);
  const i = text === undefined ? -1 : text.slice(span.start, span.end).indexOf(match);
  return i < 0 ? span : { file: span.file, start: span.start + i, end: span.start + i + match.length };
}

function whereOf(place: { where: string; param?: string }): string {
  if (place.param === undefined) return place.where;
  if (place.where === 'schema') return `the schema of \`${place.param}\` (examples, enum, const)`;
  return `the ${place.where} of \`${place.param}\``;
}

export const secretInContract: Rule = {
  id: 'secret-in-contract',
  defaultSeverity: 'error',
  languages: ['typescript', 'python'],
  summary: 'An API key or token literal in a description, default or example the model reads.',
  checkTool(tool: ToolDefinition, ctx: RuleContext) {
    // `where` is spelled out only for a place that holds a secret (almost none do): a fixed text or a parameter's.
    const places: { where: string; param?: string; values: string[]; span: Span }[] = [];
    if (tool.description?.value) places.push({ where: 'the tool description', values: [tool.description.value], span: tool.description.span });
    if (tool.title?.value) places.push({ where: 'the title', values: [tool.title.value], span: tool.title.span });
    for (const p of tool.parameters) {
      if (p.description?.value) places.push({ where: 'description', param: p.name, values: [p.description.value], span: p.description.span });
      if (p.defaultValue?.value !== undefined) places.push({ where: 'default', param: p.name, values: strings(p.defaultValue.value), span: p.defaultValue.span });
      const s = p.schema;
      if (s) {
        const values: string[] = [];
        for (const v of [s.examples, s.enum, s.const, s.example]) if (v !== undefined) strings(v, values);
        places.push({ where: 'schema', param: p.name, values, span: p.typeSpan ?? p.span });
      }
    }
    const outSchema = tool.contract.outputSchema;
    if (outSchema !== undefined && tool.outputSchemaSpan) places.push({ where: 'the outputSchema', values: strings(outSchema), span: tool.outputSchemaSpan });
    const out: RuleFinding[] = [];
    const seen = new Set<string>();
    for (const place of places) {
      for (const v of place.values) {
        const found = findSecret(v);
        if (!found || seen.has(found.match)) continue;
        seen.add(found.match);
        out.push(
          finding(
            tool,
            narrow(ctx, place.span, found.match),
            `${whereOf(place)} contains what looks like ${found.what}. Every client that lists this server's tools receives it, and the model ` +
              'reads it on every turn and may repeat it. Revoke that key, remove it from the contract, and read secrets from the environment in the handler.',
          ),
        );
      }
    }
    return out;
  },
};
