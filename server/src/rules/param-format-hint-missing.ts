import type { Edit, Fix, Rule, RuleFinding } from './types';
import { finding, toolLabel } from './util/finding';
import { replacePythonType } from './util/python-edits';
import { addPythonImports } from './util/python-imports';
import { enumValues, hasKeyword, inputSchemaOf, mainType, paramDescription } from './util/json-schema';
import { insertAt } from './util/source';
import { usesZod3, zodBase } from './util/zod';
import { schemaLibraryOf } from './util/schema-library';

type Kind = 'date-time' | 'date' | 'email' | 'url' | 'uuid';

/** What format the description (or an unmistakable name) promises. */
export function promisedFormat(name: string, description: string | undefined): Kind | undefined {
  const d = description ?? '';
  // "Message shown to the user before opening the URL", "Column header or field, e.g. 'Months (Date)' for a date
  // group": the description says what the parameter is first, a text or a name, and the format word is only what it
  // talks about.
  if (TEXT_OR_NAME.test(d)) return undefined;
  if (/\b(date[- ]?time|timestamp|horodatage)\b|\bISO[- ]?8601\b[^.]*\b(time|heure|T\d|\d{2}:\d{2})|\d{4}-\d{2}-\d{2}T\d{2}|\bdate (and|et) (time|heure)\b/i.test(d)) return 'date-time';
  if (/\b(date|YYYY-MM-DD|ISO[- ]?8601)\b/i.test(d)) return 'date';
  if (/\b(e-?mail( address)?|courriel|adresse (e-?mail|électronique))\b/i.test(d) || /^e-?mail$/i.test(name)) return 'email';
  if (/\b(url|uri|https?:\/\/|web address|link)\b/i.test(d) || /^(url|uri)$/i.test(name) || /_url$|Url$/.test(name)) return 'url';
  if (/\b(uuid|guid)\b/i.test(d) || /^uuid$/i.test(name)) return 'uuid';
  return undefined;
}

const TEXT_OR_NAME = /^\s*(the |a |an )?(message|text|title|name|column|field|header|label|comment|note|caption|body|prompt|instructions?)\b/i;

const ZOD4: Record<Kind, string> = { 'date-time': 'iso.datetime()', date: 'iso.date()', email: 'email()', url: 'url()', uuid: 'uuid()' };
const ZOD3: Record<Kind, string> = { 'date-time': '.datetime()', date: '.date()', email: '.email()', url: '.url()', uuid: '.uuid()' };
// The same formats in the other Standard Schema libraries SDK v2 takes, and in raw JSON Schema (fromJsonSchema).
const OTHER: Record<'arktype' | 'valibot' | 'json-schema', Record<Kind, string>> = {
  // ArkType's "string.url" is a predicate with no JSON Schema form (toJsonSchema throws): a regex publishes a pattern.
  arktype: { 'date-time': '"string.date.iso"', date: '"string.date.iso"', email: '"string.email"', url: 'a regex such as /^https?:\\/\\//', uuid: '"string.uuid"' },
  valibot: { 'date-time': 'v.isoTimestamp()', date: 'v.isoDate()', email: 'v.email()', url: 'v.url()', uuid: 'v.uuid()' },
  'json-schema': { 'date-time': '"format": "date-time"', date: '"format": "date"', email: '"format": "email"', url: '"format": "uri"', uuid: '"format": "uuid"' },
};
const PY: Record<Kind, [string, string, string]> = {
  'date-time': ['datetime', 'datetime', 'datetime'],
  date: ['date', 'datetime', 'date'],
  email: ['EmailStr', 'pydantic', 'EmailStr'],
  url: ['AnyUrl', 'pydantic', 'AnyUrl'],
  uuid: ['UUID', 'uuid', 'UUID'],
};

const LABEL: Record<Kind, string> = { 'date-time': 'a date-time', date: 'a date', email: 'an email address', url: 'a URL', uuid: 'a UUID' };
const SLIPS: Record<Kind, string> = {
  'date-time': '"tomorrow at 7pm" or "15 avril 19h30"',
  date: '"tomorrow", "04/05/2026" or "15 avril"',
  email: '"bob" or "bob at example dot com"',
  url: 'a bare domain or a relative path',
  uuid: '"ticket 12" or a truncated id',
};

export const paramFormatHintMissing: Rule = {
  id: 'param-format-hint-missing',
  defaultSeverity: 'info',
  preset: 'strict',
  languages: ['typescript', 'python'],
  summary: 'The description promises a date, date-time, email, URL or UUID but the schema has no format.',
  checkTool(tool, ctx) {
    const out: RuleFinding[] = [];
    const root = inputSchemaOf(tool);
    for (const p of tool.parameters) {
      if (mainType(p.schema, root) !== 'string' || enumValues(p, root)) continue;
      if (hasKeyword(p.schema, 'format', root) || hasKeyword(p.schema, 'pattern', root)) continue;
      const kind = promisedFormat(p.name, paramDescription(p));
      if (!kind) continue;
      const fixes: Fix[] = [];
      let spelled: string;
      if (tool.language === 'typescript') {
        const base = zodBase(ctx, p);
        const v3 = usesZod3(ctx, p.nameSpan.file);
        const lib = schemaLibraryOf(tool, ctx);
        spelled = lib !== 'zod' ? OTHER[lib][kind] : v3 ? `z.string()${ZOD3[kind]}` : `z.${ZOD4[kind]}`;
        if (base && base.kind === 'string') {
          const edit: Edit = v3 ? insertAt(p.typeSpan!.file, base.end, ZOD3[kind]) : { span: { file: p.typeSpan!.file, start: base.start, end: base.end }, newText: `${base.ns}.${ZOD4[kind]}` };
          fixes.push({ title: `Use ${v3 ? `${base.ns}.string()${ZOD3[kind]}` : `${base.ns}.${ZOD4[kind]}`}`, edits: [edit], safe: false });
        }
      } else {
        const [type, module, name] = PY[kind];
        spelled = type;
        // String constraints (max_length, pattern...) do not apply to a parsed type: no automatic rewrite then.
        const stringConstraints = /\b(max_length|min_length|pattern|strip_whitespace|to_lower|to_upper)\s*=/.test(p.typeText ?? '');
        const e = stringConstraints ? undefined : replacePythonType(ctx, p, 'str', type);
        const text = ctx.textOf(p.nameSpan.file);
        if (e && text !== undefined) fixes.push({ title: `Use ${type}`, edits: [e, ...addPythonImports(p.nameSpan.file, text, [[module, name]])], safe: false });
      }
      const extra = tool.language === 'python' && kind === 'email' ? ' (EmailStr needs the email-validator package)' : '';
      const handler = tool.language === 'python' && (kind === 'date-time' || kind === 'date' || kind === 'uuid' || kind === 'url') ? ' Your handler then receives a parsed value, not a str.' : '';
      out.push(
        finding(
          tool,
          p.nameSpan,
          `Parameter "${p.name}" of ${toolLabel(tool)} is described as ${LABEL[kind]} but its schema is a plain string: ` +
            `the model may send ${SLIPS[kind]}, and only your code finds out. ` +
            `Declare the format (${spelled})${extra}.${handler}`,
          fixes,
        ),
      );
    }
    return out;
  },
};
