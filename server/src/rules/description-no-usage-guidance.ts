import type { Rule, RuleFinding } from './types';
import { finding, toolLabel } from './util/finding';
import { descriptionText, isPlaceholder } from './util/description';
import { overlappingSiblings } from './util/sibling-names';
import { hasUsageGuidance } from './util/text-heuristics';

export const descriptionNoUsageGuidance: Rule = {
  id: 'description-no-usage-guidance',
  defaultSeverity: 'info',
  preset: 'strict',
  languages: ['typescript', 'python'],
  summary: 'Tools that name the same action on the same object, and the description never says when to use this one.',
  // Only where the model has to choose: on the labelled real-world set, 0 of 149 descriptions of a tool that no
  // sibling resembles needed a "use when" sentence (the description says what it does, that is enough).
  checkServer(tools) {
    const out: RuleFinding[] = [];
    const siblings = overlappingSiblings(tools);
    for (const tool of tools) {
      const others = siblings.get(tool);
      if (!others) continue;
      const text = descriptionText(tool);
      if (text === undefined || isPlaceholder(tool) || hasUsageGuidance(text)) continue;
      // Naming a sibling ("unlike add_footnote_robust, ...") is the guidance.
      if (others.some((s) => text.includes(s.name.value!))) continue;
      const names = others.map((s) => `"${s.name.value!}"`);
      const list = names.length > 3 ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more` : names.join(', ');
      out.push(
        finding(
          tool,
          tool.description!.span,
          `Tools ${toolLabel(tool)} and ${list} name the same action on the same object, and its description ` +
            'never says when to use it rather than them: the model picks between them by guesswork. Add a sentence such as ' +
            `"Use when …; for … use ${others[0].name.value!}".`,
        ),
      );
    }
    return out;
  },
};
