import type { Rule, RuleFinding } from './types';
import { finding, toolLabel } from './util/finding';
import { FRAMEWORKS } from '../../../common/frameworks';
import { schemaLibraryOf, spell } from './util/schema-library';

export const paramDescriptionMissing: Rule = {
  id: 'param-description-missing',
  defaultSeverity: 'warning',
  languages: ['typescript', 'python'],
  summary: 'A parameter the model sees has no description.',
  checkTool(tool, ctx) {
    const out: RuleFinding[] = [];
    const argsNames = new Set((tool.docstring?.args ?? []).map((a) => a.name));
    const { docstring } = FRAMEWORKS[tool.framework];
    for (const p of tool.parameters) {
      const d = p.description;
      if (d && (d.value === undefined || d.value.trim() !== '')) continue;
      // A property the analysis could not build (an f-string description of a run-time value) may well have one.
      if (tool.unresolved.some((u) => u.part === `inputSchema.properties.${p.name}`)) continue;
      // Args: published verbatim with an entry for it: docstring-args-not-in-schema reports it, with a fix that moves it.
      if (!d && docstring === 'verbatim' && argsNames.has(p.name)) continue;
      // Args: parsed, with a section: docstring-args-mismatch reports the missing entry, with a fix that adds it.
      if (!d && docstring === 'parsed' && tool.docstring?.argsSectionSpan) continue;
      const how =
        tool.language === 'typescript'
          ? `Add ${spell(schemaLibraryOf(tool, ctx), { kind: 'description' })} with its meaning, format and an example`
          : docstring === 'parsed'
            ? `Write it as Annotated[T, Field(description="…")] or add a "${p.name}:" entry under Args: in the docstring`
            : `Write it as Annotated[T, Field(description="…")] (this SDK ignores docstring Args: sections)`;
      const message = d
        ? `Parameter "${p.name}" of ${toolLabel(tool)} has an empty description: the model sees only its name and type and has to guess the meaning and format. Write what it is, its format and an example.`
        : `Parameter "${p.name}" of ${toolLabel(tool)} has no description: the model sees only its name and type, guesses the meaning and format, and fills it wrong. ${how}.`;
      out.push(finding(tool, p.nameSpan, message));
    }
    return out;
  },
};
