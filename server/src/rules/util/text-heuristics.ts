/** Heuristics over text the model reads (tool and parameter descriptions). English and French, as in the seeds. */
import { nameTokens } from './names';

// prettier-ignore
const USAGE = [
  /\buse (this|it|me)\b/i, /\buse (only )?(when|if|before|after|for|to)\b/i, /\b(only )?(use|call|invoke)\b[^.]{0,40}\b(when|if|before|after|instead)\b/i,
  /\bwhen (the )?(user|you|a user|someone|asked)\b/i, /\b(do not|don't|never) (use|call)\b/i, /\binstead of\b/i,
  /\bprefer(red)? (this|over)\b/i, /\buseful (for|when)\b/i, /\bcall (this|it) (when|before|after|to|if)\b/i,
  /\b(before|after) (calling|using|answering|replying|responding)\b/i, /\bintended for\b/i, /\bmeant for\b/i,
  /\bfor (questions|requests) about\b/i,
  /\bà utiliser\b/i, /\butilise[rz]? (ce tool|cet outil|ce tool|quand|lorsque|avant|après)\b/i, /\bquand l'utilisateur\b/i,
  /\blorsque\b/i, /\bavant de (répondre|l'appeler|appeler)\b/i, /\bne pas utiliser\b/i, /\bn'utilise[rz]? pas\b/i,
  /\bplutôt que\b/i, /\bvérifier [^.]{0,60} avant\b/i,
];

/** The description says when (or when not) to use the tool. */
export function hasUsageGuidance(text: string): boolean {
  return USAGE.some((re) => re.test(text));
}

// prettier-ignore
const RETURNS = [
  /\breturn(s|ing|ed)?\b/i, /\byields?\b/i, /\brespond(s)? with\b/i, /\boutputs?\b/i, /\bgives? back\b/i,
  /\bresult(s)? (is|are|contains?|includes?)\b/i, /\bthe (response|result|output) (is|contains|lists|includes)\b/i,
  /\b(renvoie|retourne|renvoyé|retourné)s?\b/i, /\ble résultat\b/i, /→/, /\bprovides? (a|an|the) (list|summary|count|url|link|id)\b/i,
];

/** The description says what comes back. */
export function hasReturnInfo(text: string): boolean {
  return RETURNS.some((re) => re.test(text));
}

// prettier-ignore
const PLACEHOLDER = [
  /\b(TODO|FIXME|TBD|XXX)\b/, /^\s*(\.{2,}|…)\s*$/, /^\s*(tool )?description\.?\s*$/i, /^\s*(a |the )?tool\.?\s*$/i,
  /\blorem ipsum\b/i, /\bplaceholder\b/i, /\b(add|write|insert) (a |the )?description (here)?\b/i, /^\s*(description|desc) here\b/i,
  // <what it does>, <your key>: a template slot has words; <id>, <revision> in a worked example is syntax.
  /<[a-z][a-z,/'-]* [a-z ,/'-]*>/, /^\s*(n\/a|none|null|undefined|test|tbd|-+)\s*\.?$/i,
];

// prettier-ignore
const FILLER = new Set(['the', 'a', 'an', 'this', 'tool', 'function', 'to', 'for', 'of', 'and', 'it', 'does', 'that', 'is', 'will', 'method', 'api', 'endpoint', 'mcp', 'le', 'la', 'les', 'un', 'une', 'des', 'outil']);

/** Why a description is a placeholder, or undefined when it is a real description. */
export function placeholderReason(description: string, toolName: string | undefined): string | undefined {
  // Asked by four description rules per tool: answered once per (name, description).
  let byDescription = placeholderCache.get(toolName);
  if (!byDescription) {
    if (placeholderCache.size >= 2000) placeholderCache.clear();
    placeholderCache.set(toolName, (byDescription = new Map<string, string | undefined>()));
  }
  if (byDescription.has(description)) return byDescription.get(description);
  const reason = computePlaceholderReason(description, toolName);
  if (byDescription.size >= 50) byDescription.clear();
  byDescription.set(description, reason);
  return reason;
}

const placeholderCache = new Map<string | undefined, Map<string, string | undefined>>();

function computePlaceholderReason(description: string, toolName: string | undefined): string | undefined {
  for (const re of PLACEHOLDER) {
    const m = re.exec(description);
    if (m) return `it contains the placeholder "${m[0].trim()}"`;
  }
  if (toolName) {
    const nameWords = new Set(nameTokens(toolName).flatMap((w) => [w, w + 's', w.replace(/s$/, '')]));
    const words = (description.toLowerCase().match(/[a-z0-9à-ÿ]+/g) ?? []).filter((w) => !FILLER.has(w));
    if (words.length > 0 && words.length <= 6 && words.every((w) => nameWords.has(w) || nameWords.has(w.replace(/(es|s)$/, '')) || nameWords.has(w.replace(/(ing|ed|es|s)$/, '')))) {
      return 'it only repeats the tool name';
    }
  }
  return undefined;
}

/**
 * Characters a human reviewer cannot see but the model reads: zero-width characters, bidirectional controls,
 * invisible Unicode tags (U+E0000..E007F), soft hyphens, the BOM.
 */
export const HIDDEN_CHARS = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]|\uDB40[\uDC00-\uDC7F]/g;

export function hiddenCharacters(text: string): { index: number; char: string }[] {
  const out: { index: number; char: string }[] = [];
  for (const m of text.matchAll(HIDDEN_CHARS)) out.push({ index: m.index ?? 0, char: m[0] });
  return out;
}

export function codePointName(char: string): string {
  const cp = char.codePointAt(0) ?? 0;
  return 'U+' + cp.toString(16).toUpperCase().padStart(4, '0');
}

const SECRETS = /\b(read|send|include|pass|upload)\b[^.\n]{0,40}(~\/\.ssh|id_rsa|\.env\b|api[_ ]?keys?|passwords?|credentials|private keys?)/i;

const INJECTION: [RegExp, string][] = [
  [
    /\b(ignore|disregard|forget)\b[^.\n]{0,30}\b(previous|prior|above|earlier|all|other|system)\b[^.\n]{0,20}\b(instructions?|prompts?|rules|messages?|directives?)\b/i,
    'asks the model to ignore its instructions',
  ],
  [
    /\bbefore (calling|using|invoking|running) (this|the|any)\b[^.\n]{0,40}\b(send|read|pass|include|provide|fetch|call|upload|post|share|give)\b/i,
    'tells the model to do something before calling the tool',
  ],
  [/\b(do not|don't|never)\b[^.\n]{0,20}\b(tell|inform|mention|reveal|show|notify|alert)\b[^.\n]{0,20}\b(the )?user\b/i, 'tells the model to hide something from the user'],
  [/<\s*\/?\s*(IMPORTANT|SYSTEM|INSTRUCTIONS?|ADMIN|SECRET)\s*>/i, 'contains a pseudo-tag the model may take as an instruction'],
  [/\b(system prompt|hidden instruction|as an ai|you are now|new instructions)\b/i, 'addresses the model with instructions'],
  [SECRETS, 'asks the model to move secrets or private files'],
  [/\b(ignore[rz]?|oublie[rz]?)\b[^.\n]{0,30}\binstructions?\b[^.\n]{0,20}\b(précédentes|antérieures)\b/i, 'asks the model to ignore its instructions'],
  [/\bavant d'appeler (cet|ce) (outil|tool)\b[^.\n]{0,40}\b(envoie|lis|transmets|inclus|fournis)/i, 'tells the model to do something before calling the tool'],
  [/\bne (dis|dites|préviens|prévenez|mentionne|mentionnez|révèle|révélez) (rien|pas)\b[^.\n]{0,30}\butilisateur\b/i, 'tells the model to hide something from the user'],
];

/** Injection phrasing found in the text: the matched text and what it does. */
export function injectionPhrases(text: string): { index: number; match: string; what: string }[] {
  const out: { index: number; match: string; what: string }[] = [];
  for (const [re, what] of INJECTION) {
    const m = re.exec(text);
    if (m && !(re === SECRETS && describesOwnOutput(text, m))) out.push({ index: m.index, match: m[0], what });
  }
  return out;
}

/**
 * "If true, include the created password in the response" (a password manager's flag) says what the tool sends
 * back, not where the model should carry a secret: a named secret whose destination is the tool's own response.
 * A file (~/.ssh, id_rsa, .env) is never the tool's output.
 */
function describesOwnOutput(text: string, m: RegExpExecArray): boolean {
  if (/~\/\.ssh|id_rsa|\.env\b/i.test(m[0])) return false;
  return /^[^.\n]{0,20}?\bin (the|its) (response|result|output|reply)\b/i.test(text.slice(m.index + m[0].length));
}
