import type { ParameterDefinition } from '../analysis/model';
import type { Edit, Fix, Rule, RuleContext, RuleFinding } from './types';
import { schemaLibraryOf, spell } from './util/schema-library';
import { finding, toolLabel } from './util/finding';
import { enumValues, inputSchemaOf, mainType, paramDescription } from './util/json-schema';
import { replacePythonType } from './util/python-edits';
import { addPythonImports } from './util/python-imports';
import { zodBase } from './util/zod';

const TOKEN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,29}$/;
const NOT_VALUES = new Set(['the', 'a', 'an', 'and', 'any', 'all', 'other', 'others', 'more', 'etc', 'both', 'none', 'not', 'it', 'this', 'that', 'is', 'are']);
const SEP = String.raw`(?:\s*,\s*(?:or\s+|ou\s+)?|\s*\|\s*|\s*/\s*|\s+or\s+|\s+ou\s+)`;
const ITEM = String.raw`["'\x60]?[A-Za-z0-9][A-Za-z0-9_.-]{0,29}["'\x60]?`;
const LIST = `(${ITEM}(?:${SEP}${ITEM})+)`;

// Compiled once: listedValues runs on every string parameter's description.
const SEP_RE = new RegExp(SEP);
const WHOLE_SEP_RE = new RegExp(`^${SEP}$`);
// "e.g.," has no word boundary after its dot: the abbreviations end at the dot.
const EXAMPLES_RE = /\b(e\.g\.|i\.e\.|ex\.)|\b(eg|for example|for instance|such as|like|par exemple|comme)\b/i;
const ONE_OF_RE = new RegExp(String.raw`\b(?:one of|either|must be one of|parmi)\s*:?\s*` + LIST, 'i');
const QUOTED_RE = /["'`]([A-Za-z0-9][A-Za-z0-9_.-]{0,29})["'`]/g;
const LIST_PATTERNS = [
  new RegExp(
    String.raw`\b(?:one of|either|must be|can be|allowed(?: values)?|valid(?: values)?|possible values|options|values|choices?|accepted|parmi|choix|valeurs?(?: possibles)?)\s*:?\s*` +
      LIST +
      String.raw`\s*(?:[.;)(]|$)`,
    'i',
  ),
  new RegExp(String.raw`:\s*` + LIST + String.raw`\s*(?:[.;(]|$)`),
  new RegExp(String.raw`\(\s*` + LIST + String.raw`\s*\)`),
  new RegExp(String.raw`^\s*` + LIST + String.raw`\s*\.?\s*$`),
];

function splitList(list: string): string[] {
  return (
    list
      .split(SEP_RE)
      // A sentence's full stop is not part of its last value ("asc or desc." -> desc).
      .map((s) =>
        s
          .trim()
          .replace(/\.$/, '')
          .replace(/^["'`]|["'`]$/g, ''),
      )
      .filter(Boolean)
  );
}

/** Words that say what kind of thing a value is, not a value: "Repository owner (username or organization)". */
// prettier-ignore
const KINDS = new Set(['username', 'user', 'organization', 'organisation', 'org', 'team', 'group', 'account', 'name', 'id', 'email', 'path', 'url', 'uri', 'handle', 'number', 'string', 'slug']);

function valid(values: string[]): string[] | undefined {
  const uniq = [...new Set(values)];
  if (uniq.length < 2 || uniq.length > 20) return undefined;
  if (uniq.every((v) => KINDS.has(v.toLowerCase()))) return undefined;
  if (!uniq.every((v) => TOKEN.test(v) && !NOT_VALUES.has(v.toLowerCase()))) return undefined;
  return uniq;
}

/** The allowed values a description lists ("one of a, b, c", "Units: metric or imperial", "(asc|desc)"). */
export function listedValues(description: string): string[] | undefined {
  if (EXAMPLES_RE.test(description)) {
    // Examples are not an exhaustive list; only trust an explicit "one of".
    const m = ONE_OF_RE.exec(description);
    return m ? valid(splitList(m[1])) : undefined;
  }
  const quoted = [...description.matchAll(QUOTED_RE)];
  if (quoted.length >= 2) {
    const between = quoted.slice(1).map((q, i) => description.slice(quoted[i].index + quoted[i][0].length, q.index));
    if (between.every((b) => WHOLE_SEP_RE.test(b) || /^\s*,\s*$/.test(b))) return valid(quoted.map((q) => q[1]));
  }
  for (const re of LIST_PATTERNS) {
    const m = re.exec(description);
    const values = m ? valid(splitList(m[1])) : undefined;
    if (values) return values;
  }
  return undefined;
}

const STRING_ONLY = new Set([
  'min',
  'max',
  'length',
  'regex',
  'email',
  'url',
  'uuid',
  'trim',
  'toLowerCase',
  'toUpperCase',
  'startsWith',
  'endsWith',
  'includes',
  'nonempty',
  'datetime',
  'date',
  'time',
  'ip',
  'cuid',
  'cuid2',
  'ulid',
  'base64',
  'emoji',
  'nanoid',
  'lowercase',
  'uppercase',
  'normalize',
]);

function enumFix(ctx: RuleContext, p: ParameterDefinition, values: string[], language: string): Fix | undefined {
  if (language === 'typescript') {
    const base = zodBase(ctx, p);
    if (!base || base.kind !== 'string' || base.chain.some((m) => STRING_ONLY.has(m))) return undefined;
    const text = `${base.ns}.enum([${values.map((v) => JSON.stringify(v)).join(', ')}])`;
    return { title: `Use ${text}`, edits: [{ span: { file: p.typeSpan!.file, start: base.start, end: base.end }, newText: text }], safe: false };
  }
  const literal = `Literal[${values.map((v) => JSON.stringify(v)).join(', ')}]`;
  const e = replacePythonType(ctx, p, 'str', literal);
  const text = ctx.textOf(p.nameSpan.file);
  if (!e || text === undefined) return undefined;
  const edits: Edit[] = [e, ...addPythonImports(p.nameSpan.file, text, [['typing', 'Literal']])];
  return { title: `Use ${literal}`, edits, safe: false };
}

export const paramEnumInDescription: Rule = {
  id: 'param-enum-in-description',
  defaultSeverity: 'info',
  // Strict only: on the labelled real-world set every finding was a kill ("(username or organization)" reads as a list).
  preset: 'strict',
  languages: ['typescript', 'python'],
  summary: 'A free string whose description lists its allowed values.',
  checkTool(tool, ctx) {
    const out: RuleFinding[] = [];
    const root = inputSchemaOf(tool);
    for (const p of tool.parameters) {
      if (mainType(p.schema, root) !== 'string' || enumValues(p, root)) continue;
      const d = paramDescription(p);
      const values = d ? listedValues(d) : undefined;
      if (!values) continue;
      const fix = enumFix(ctx, p, values, tool.language);
      const spelled = tool.language === 'typescript' ? spell(schemaLibraryOf(tool, ctx), { kind: 'enum', values }) : `Literal[${values.map((v) => JSON.stringify(v)).join(', ')}]`;
      out.push(
        finding(
          tool,
          p.nameSpan,
          `Parameter "${p.name}" of ${toolLabel(tool)} is a free string but its description lists the allowed values (${values.join(', ')}): ` +
            `the model may send a near miss ("${values[0].toUpperCase()}", a translation) and nothing rejects it. Declare them in the schema: ${spelled}.`,
          fix ? [fix] : [],
        ),
      );
    }
    return out;
  },
};
