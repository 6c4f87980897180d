import type { Rule } from './types';
import { finding, toolLabel } from './util/finding';
import { descriptionText } from './util/description';

/**
 * `n.toLocaleString('en-US')` for a whole number (1500 -> "1,500") without ICU: the first locale-aware call of a
 * process loads ICU's number formatting, ~10 ms of CPU (and its data from disk) in a `toolsmith check` that meets
 * one long description.
 */
export function withThousands(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  let out = '';
  for (let i = 0; i < digits.length; i++) out += (i > 0 && (digits.length - i) % 3 === 0 ? ',' : '') + digits[i];
  return n < 0 ? `-${out}` : out;
}

export const descriptionTooLong: Rule = {
  id: 'description-too-long',
  defaultSeverity: 'info',
  languages: ['typescript', 'python'],
  summary: 'Description over toolsmith.thresholds.descriptionMaxLength characters (1,500).',
  checkTool(tool, ctx) {
    const text = descriptionText(tool);
    const max = ctx.settings.thresholds.descriptionMaxLength;
    if (text === undefined || text.length <= max) return [];
    return [
      finding(
        tool,
        tool.description!.span,
        `The description of ${toolLabel(tool)} is ${withThousands(text.length)} characters (over ${withThousands(max)}): ` +
          'it is sent with every request and costs context on every turn, and the key sentences drown. Keep what it does, ' +
          "when to use it and what it returns; move parameter details into the parameters' own descriptions.",
      ),
    ];
  },
};
