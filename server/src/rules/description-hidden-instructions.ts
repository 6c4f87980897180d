import type { Span } from '../analysis/model';
import type { Edit, Rule, RuleContext, RuleFinding } from './types';
import { finding, toolLabel } from './util/finding';
import { codePointName, hiddenCharacters, HIDDEN_CHARS, injectionPhrases } from './util/text-heuristics';
import { spanText } from './util/source';

/** Hidden characters as written in the source: raw, or as \uXXXX / \u{XXXX} / \UXXXXXXXX / surrogate-pair escapes. */
function hiddenInSource(ctx: RuleContext, span: Span): Edit[] {
  const src = spanText(ctx, span);
  if (src === undefined) return [];
  const edits: Edit[] = [];
  const re = /\\u([dD][bB]40)\\u([dD][cC][0-7][0-9a-fA-F])|\\u\{([0-9a-fA-F]{1,6})\}|\\U([0-9a-fA-F]{8})|\\u([0-9a-fA-F]{4})|\\N\{([A-Z -]+)\}/g;
  for (const m of src.matchAll(re)) {
    let ch = '';
    if (m[1]) ch = String.fromCharCode(parseInt(m[1], 16), parseInt(m[2], 16));
    else if (m[3] || m[4] || m[5]) ch = String.fromCodePoint(parseInt(m[3] ?? m[4] ?? m[5], 16));
    else if (m[6] && /^(ZERO WIDTH|RIGHT-TO-LEFT|LEFT-TO-RIGHT|WORD JOINER|SOFT HYPHEN|INVISIBLE|POP DIRECTIONAL|FIRST STRONG)/.test(m[6])) ch = '\u200B';
    if (ch && new RegExp(HIDDEN_CHARS.source).test(ch)) {
      // A backslash before the escape makes it a literal backslash-u, not a character.
      const before = /\\*$/.exec(src.slice(0, m.index))![0].length;
      if (before % 2 === 0) edits.push({ span: { file: span.file, start: span.start + m.index, end: span.start + m.index + m[0].length }, newText: '' });
    }
  }
  for (const h of hiddenCharacters(src)) {
    edits.push({ span: { file: span.file, start: span.start + h.index, end: span.start + h.index + h.char.length }, newText: '' });
  }
  return edits.sort((a, b) => a.span.start - b.span.start);
}

export const descriptionHiddenInstructions: Rule = {
  id: 'description-hidden-instructions',
  defaultSeverity: 'error',
  languages: ['typescript', 'python'],
  summary: 'Zero-width / bidi characters or injection phrasing in any text the model reads.',
  checkTool(tool, ctx) {
    // What each text is, spelled out only for a finding (almost no text has one).
    const texts: { what: 'description' | 'title' | 'parameter'; param?: string; value: string | undefined; span: Span }[] = [];
    if (tool.description) texts.push({ what: 'description', value: tool.description.value, span: tool.description.span });
    if (tool.title) texts.push({ what: 'title', value: tool.title.value, span: tool.title.span });
    for (const p of tool.parameters) {
      if (p.description) texts.push({ what: 'parameter', param: p.name, value: p.description.value, span: p.description.span });
    }
    const whatOf = (t: (typeof texts)[number]): string => (t.what === 'parameter' ? `the description of parameter "${t.param}"` : `the ${t.what} of ${toolLabel(tool)}`);
    const out: RuleFinding[] = [];
    for (const t of texts) {
      if (t.value === undefined) continue;
      const hidden = hiddenCharacters(t.value);
      if (hidden.length > 0) {
        const names = [...new Set(hidden.map((h) => codePointName(h.char)))].join(', ');
        const edits = hiddenInSource(ctx, t.span);
        const first = edits[0]?.span ?? t.span;
        out.push(
          finding(
            tool,
            first,
            `${capitalize(whatOf(t))} contains ${hidden.length} invisible character${hidden.length > 1 ? 's' : ''} (${names}): ` +
              'a reviewer cannot see them but the model reads them — the usual way to smuggle instructions or to make text ' +
              'read differently than it looks. Remove them.',
            edits.length ? [{ title: 'Remove invisible characters', edits, safe: true }] : [],
          ),
        );
      }
      const phrases = injectionPhrases(t.value);
      if (phrases.length > 0) {
        const what = phrases.map((p) => `${p.what} ("${p.match.trim()}")`).join('; ');
        out.push(
          finding(
            tool,
            t.span,
            `${capitalize(whatOf(t))} reads like a prompt injection: it ${what}. Text the model reads as part of the tool contract ` +
              'must describe the tool, not instruct the model — clients flag such tools and users lose trust. Describe what ' +
              'the tool does and let the host decide what the model may do.',
          ),
        );
      }
    }
    return out;
  },
};

function capitalize(s: string): string {
  return s[0].toUpperCase() + s.slice(1);
}
