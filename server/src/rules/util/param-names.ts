/** Parameter-name classifications shared by the parameter rules. */
import { nameTokens } from './names';

const COUNT_WORDS = new Set([
  'limit',
  'count',
  'page',
  'pages',
  'size',
  'days',
  'hours',
  'minutes',
  'weeks',
  'months',
  'years',
  'max',
  'num',
  'top',
  'k',
  'n',
  'results',
  'retries',
  'depth',
  'quantity',
  'offset',
  'skip',
  'take',
  'per',
  'rows',
  'lines',
  'attempts',
  'batch',
  'limite',
  'nombre',
  'jours',
]);

/** limit, count, page, page_size, maxResults, top_k, days, num_items... */
export function isCountLike(name: string, siblings: readonly string[] = []): boolean {
  const t = nameTokens(name);
  if (t.length === 0) return false;
  if (t[0] === 'max' || t[0] === 'num' || t[0] === 'min') return true;
  const last = t[t.length - 1];
  // font_size, icon_size: a dimension, not how many results; `top` next to `bottom`/`left`: a side (padding, margin).
  if (last === 'size' && t.length > 1 && DIMENSION_OF.has(t[t.length - 2])) return false;
  if (name === 'top' && siblings.some((s) => /^(bottom|left|right)$/.test(s))) return false;
  return COUNT_WORDS.has(last);
}

// prettier-ignore
const DIMENSION_OF = new Set(['font', 'icon', 'image', 'img', 'text', 'point', 'pt', 'border', 'marker', 'symbol', 'line', 'brush', 'pen', 'tile', 'thumbnail', 'cell', 'paper']);

/**
 * The bounds a parameter's description states ("between 1 and 20", "up to 3600", "max 500", "at least 1",
 * "(3600-43200)"): a proposed bound must not contradict them.
 */
export function statedBounds(description: string | undefined): { min?: number; max?: number } {
  if (!description) return {};
  const d = description.replace(/(\d),(\d{3})\b/g, '$1$2');
  // "between 1 and 20", "from 0 to 100", and a bare range opening parentheses: "duration in seconds (3600-43200)",
  // "Number of results (1-20, default 10)".
  const between = /\b(?:between|from)\s+(-?\d+(?:\.\d+)?)\s+(?:and|to|-)\s+(-?\d+(?:\.\d+)?)/i.exec(d) ?? /\((-?\d+(?:\.\d+)?)\s*(?:-|–|to)\s*(-?\d+(?:\.\d+)?)\s*[,;)]/i.exec(d);
  const max = /\b(?:up to|at most|max(?:imum)?(?: of| is)?|no more than|<=?|≤)\s*:?\s*(\d+(?:\.\d+)?)/i.exec(d);
  const min = /\b(?:at least|min(?:imum)?(?: of| is)?|no less than|>=?|≥)\s*:?\s*(-?\d+(?:\.\d+)?)/i.exec(d);
  const out: { min?: number; max?: number } = {};
  if (between) {
    out.min = Number(between[1]);
    out.max = Number(between[2]);
  }
  if (max) out.max = Number(max[1]);
  if (min) out.min = Number(min[1]);
  return out;
}

/** Lower bound proposed for a count-like parameter (offsets start at 0, everything else at 1). */
export function countMinimum(name: string): number {
  const t = nameTokens(name);
  return t.includes('offset') || t.includes('skip') ? 0 : 1;
}

/** Upper bound proposed for a count-like parameter, by what it counts. */
export function countMaximum(name: string): number {
  const t = nameTokens(name);
  if (t.includes('days') || t.includes('jours')) return 365;
  if (t.includes('hours')) return 168;
  if (t.includes('minutes')) return 1440;
  if (t.includes('page') || t.includes('pages')) return t.includes('size') || t.includes('per') ? 100 : 1000;
  if (t.includes('offset') || t.includes('skip')) return 10000;
  if (t.includes('retries') || t.includes('attempts')) return 10;
  if (t.includes('depth')) return 10;
  return 100;
}

const SHORT_TEXT = new Set(['query', 'q', 'name', 'title', 'search', 'keyword', 'keywords', 'term', 'terms', 'subject', 'label', 'recherche', 'nom', 'titre', 'question', 'username', 'topic']);
const LONG_TEXT = new Set([
  'text',
  'body',
  'content',
  'message',
  'description',
  'comment',
  'prompt',
  'note',
  'notes',
  'summary',
  'answer',
  'instructions',
  'reason',
  'bio',
  'caption',
  'texte',
  'contenu',
  'commentaire',
  'markdown',
  'html',
  'input',
]);

/** A string the model writes freely (a query, a message body...), as opposed to an id, a code or a path. */
export function freeTextKind(name: string): 'short' | 'long' | undefined {
  const t = nameTokens(name);
  const last = t[t.length - 1];
  if (last === undefined) return undefined;
  if (SHORT_TEXT.has(last)) return 'short';
  if (LONG_TEXT.has(last)) return 'long';
  return undefined;
}

export function stringMaximum(kind: 'short' | 'long'): number {
  return kind === 'short' ? 200 : 5000;
}
