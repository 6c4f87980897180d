import type { Rule } from './types';
import { finding, toolLabel } from './util/finding';

export const descriptionMissing: Rule = {
  id: 'description-missing',
  defaultSeverity: 'error',
  languages: ['typescript', 'python'],
  summary: 'No description (TS) / no docstring and no description= (Py).',
  checkTool(tool) {
    const d = tool.description;
    if (d && (d.value === undefined || d.value.trim() !== '')) return [];
    // A tool the analysis could not read (a list_tools entry built by a call, a config spread from a helper's
    // parameter as in a bundled registerAppTool) may well have one: unresolved, not missing.
    // An unresolved `server.tool()` argument may be the description (the SDK picks the overload by run-time types).
    if (tool.unresolved.some((u) => u.part === 'tool' || u.part === 'tools' || u.part === 'description' || u.part === 'config' || u.part.startsWith('argument'))) return [];
    const how =
      tool.language === 'typescript'
        ? 'Add a description to the config: what it does, when to use it (and when not), what it returns.'
        : 'Add a docstring (or description=): what it does, when to use it (and when not), what it returns.';
    const message = `Tool ${toolLabel(tool)} has ${d ? 'an empty' : 'no'} description: the model sees only its name and schema, so it cannot tell when to call it or what it gets back, and will skip it or misuse it. ${how}`;
    // No fix: a template of <placeholders> published to the model is no better than nothing (description-placeholder
    // reported it); the words have to come from the author.
    return [finding(tool, d?.span ?? tool.name.span, message)];
  },
};
