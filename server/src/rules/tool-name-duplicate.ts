import type { ToolDefinition } from '../analysis/model';
import type { Rule, RuleFinding } from './types';
import { finding } from './util/finding';
import { FRAMEWORKS, type FrameworkProfile } from '../../../common/frameworks';

function lineOf(text: string | undefined, offset: number): number | undefined {
  if (text === undefined) return undefined;
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** What the framework does with the second registration, by its profile's duplicateToolName. */
const CONSEQUENCE: Record<FrameworkProfile['duplicateToolName'], string> = {
  throws: 'the TypeScript SDK throws "Tool … is already registered" and the server does not start',
  replaces: 'FastMCP logs a warning and the later definition silently replaces the earlier one',
  'keeps-first': 'the Python SDK logs a warning and keeps only the first definition, so this one is never called',
};

/** What FastMCP does with a second registration of a name when either carries `version=` (undefined: neither does). */
function versionConsequence(earlier: ToolDefinition, tool: ToolDefinition): string | undefined {
  if (!earlier.version && !tool.version) return undefined;
  if (!earlier.version || !tool.version)
    return 'FastMCP refuses a versioned and an unversioned tool of one name (ValueError at import) and the server does not start. Give every registration of this name a version=, or none of them';
  const traits = FRAMEWORKS[tool.framework].contractTraits?.(tool.frameworkVersion);
  if (traits && !traits.toolVersions)
    return `${traits.release} has no tool versions (version= raises TypeError at import) and the server does not start. Give each tool its own name, or require fastmcp 3 or later`;
  return `both are version ${JSON.stringify(tool.version.value)}: FastMCP logs a warning and the later one silently replaces the earlier, so it is never called. Give each registration its own version=`;
}

/** Whether two registrations sit in different arms of one `if`/`else` (`elif`, `?:`): never both made. */
function exclusive(a: ToolDefinition, b: ToolDefinition): boolean {
  const armsA = a.registration.arms;
  const armsB = b.registration.arms;
  if (!armsA || !armsB) return false;
  return armsA.some((x) => armsB.some((y) => x.statement === y.statement && x.arm !== y.arm));
}

export const toolNameDuplicate: Rule = {
  id: 'tool-name-duplicate',
  defaultSeverity: 'error',
  languages: ['typescript', 'python'],
  summary: 'The same tool name registered twice on one server.',
  checkServer(tools, _files, ctx) {
    // Every registration of a name so far: a later one duplicates the first it can be made together with.
    const seen = new Map<string, ToolDefinition[]>();
    const out: RuleFinding[] = [];
    for (const tool of [...tools].sort((a, b) => (a.file === b.file ? a.registration.span.start - b.registration.span.start : a.file < b.file ? -1 : 1))) {
      const name = tool.name.value;
      if (name === undefined) continue;
      const before = seen.get(name) ?? [];
      seen.set(name, [...before, tool]);
      const earlier = before.find((e) => !exclusive(e, tool));
      if (!earlier) continue;
      const line = lineOf(ctx.textOf(earlier.name.span.file), earlier.name.span.start);
      const where = earlier.file === tool.file && line !== undefined ? ` (first on line ${line})` : '';
      // FastMCP 3.x+ versions of one name are merged by the analysis (python/tool-versions.ts); what reaches here
      // with a version is refused: the same version twice, or a versioned next to an unversioned registration.
      const versioned = versionConsequence(earlier, tool);
      out.push(
        finding(
          tool,
          tool.name.span,
          versioned
            ? `Tool "${name}" is already registered on this server${where}: ${versioned}.`
            : `Tool "${name}" is already registered on this server${where}: ${CONSEQUENCE[FRAMEWORKS[tool.framework].duplicateToolName]}; the model can never reach both. ` +
                'Give each tool its own name, or merge the two.',
        ),
      );
    }
    return out;
  },
};
