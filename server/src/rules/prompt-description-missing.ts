import type { Rule } from './types';
import { finding } from './util/finding';

export const promptDescriptionMissing: Rule = {
  id: 'prompt-description-missing',
  defaultSeverity: 'warning',
  languages: ['typescript', 'python'],
  summary: 'A prompt (registerPrompt / prompt(), Python @server.prompt) with no description in prompts/list.',
  checkPrompt(prompt) {
    const d = prompt.description;
    if (d && (d.value === undefined || d.value.trim() !== '')) return [];
    // A config the analysis could not read (spread from a parameter, built by a call) may well hold one.
    // So may an entry not read, or a list a low-level handler builds at run time (`prompts`).
    if (prompt.unresolved.some((u) => ['config', 'description', 'prompt', 'contract', 'prompts'].includes(u.part))) return [];
    const label = prompt.name.value !== undefined ? `"${prompt.name.value}"` : 'this prompt';
    const how =
      prompt.registration.kind === 'handler'
        ? 'Add `description` to its entry in the prompts/list handler: what the prompt produces and when to pick it.'
        : prompt.language === 'python'
          ? 'Give the function a docstring (or pass `description=` to the decorator): what the prompt produces and when to pick it.'
          : prompt.registration.kind === 'registerPrompt'
            ? 'Add `description` to its config: what the prompt produces and when to pick it.'
            : 'Pass the description as the second argument of prompt(), or use registerPrompt with a `description`.';
    // Python's official SDK publishes `description or __doc__ or ""`: an empty description there is no description written.
    const empty = d && prompt.language !== 'python';
    const message =
      `Prompt ${label} has ${empty ? 'an empty' : 'no'} description: clients list prompts for the user to pick (a slash-command menu) ` +
      `with their title and description, so the user sees only its name and cannot tell what it does or which arguments mean what. ${how}`;
    // No fix: the words have to come from the author (a template would be published as is).
    return [finding(null, d?.span ?? prompt.name.span, message)];
  },
};
