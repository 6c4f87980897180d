import type { Rule, RuleFinding } from './types';
import { finding, toolLabel } from './util/finding';
import { descriptionText, isPlaceholder } from './util/description';
import { overlappingSiblings, type Overlap } from './util/sibling-names';
import { hasUsageGuidance } from './util/text-heuristics';

const OVERLAP: Record<Overlap, string> = {
  name: 'name the same action on the same object',
  description: "are described alike (one description is the other's with a condition added, and needs what the other needs)",
  target: 'do the same kind of thing (an update, a run) and need the same parameters',
};

export const descriptionNoUsageGuidance: Rule = {
  id: 'description-no-usage-guidance',
  defaultSeverity: 'info',
  preset: 'strict',
  languages: ['typescript', 'python'],
  summary: 'Tools that do the same thing (by name, description or parameters), and the description never says when to use this one.',
  // Only where the model has to choose: on the labelled real-world set, 0 of 149 descriptions of a tool that no
  // sibling resembles needed a "use when" sentence (the description says what it does, that is enough).
  // Siblings: util/sibling-names.ts#overlappingSiblings.
  checkServer(tools) {
    const out: RuleFinding[] = [];
    const siblings = overlappingSiblings(tools);
    for (const tool of tools) {
      const others = siblings.get(tool);
      if (!others) continue;
      const text = descriptionText(tool);
      if (text === undefined || isPlaceholder(tool) || hasUsageGuidance(text)) continue;
      // Naming a sibling ("unlike add_footnote_robust, ...") is the guidance.
      if (others.some((s) => text.includes(s.tool.name.value!))) continue;
      const names = others.map((s) => `"${s.tool.name.value!}"`);
      const list = names.length > 3 ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more` : names.join(', ');
      out.push(
        finding(
          tool,
          tool.description!.span,
          `Tools ${toolLabel(tool)} and ${list} ${OVERLAP[others[0].why]}, and its description ` +
            'never says when to use it rather than them: the model picks between them by guesswork. Add a sentence such as ' +
            `"Use when …; for … use ${others[0].tool.name.value!}".`,
        ),
      );
    }
    return out;
  },
};
