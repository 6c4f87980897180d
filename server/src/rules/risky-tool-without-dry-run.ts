import type { ToolDefinition } from '../analysis/model';
import type { Rule } from './types';
import { hint } from './util/annotations';
import { finding, toolSpan } from './util/finding';
import { snakeCase } from './util/names';
import { parameterName } from './util/new-parameter';
import { nameIntent, toolWrites } from './util/tool-intent';

const DRY_RUN = /^(dry_?run|dryrun|preview|simulate|simulation|validate_only|plan_only|what_if|whatif|check_only)$/;

export const riskyToolWithoutDryRun: Rule = {
  id: 'risky-tool-without-dry-run',
  defaultSeverity: 'info',
  preset: 'strict',
  languages: ['typescript', 'python'],
  summary: 'A destructive or bulk tool has no dry-run parameter.',
  checkTool(tool: ToolDefinition) {
    const intent = nameIntent(tool.name.value ?? '');
    const writes = toolWrites(tool);
    if (hint(tool, 'readOnlyHint').value === true) return [];
    // The name wins over a `destructiveHint: false` that contradicts it (annotation-contradicts-name says so too).
    const destructive = hint(tool, 'destructiveHint').value === true || writes.destructive;
    const bulk = intent.bulk && writes.writes;
    if (!destructive && !bulk) return [];
    if (tool.parameters.some((p) => DRY_RUN.test(snakeCase(p.name)))) return [];
    // No quick fix: a `dry_run` parameter the handler ignores still deletes with dry_run=true. The handler work (validate,
    // report, return before the change) is the author's; the message says what it must do.
    const name = parameterName(tool, 'dry_run');
    const what = bulk ? 'acts on many items at once' : 'destroys data';
    return [
      finding(
        tool,
        toolSpan(tool),
        `${tool.name.value ?? 'This tool'} ${what} and has no dry-run mode: the model (and the user approving the call) cannot see ` +
          `what it would do before it is done. Add a \`${name}\` boolean that validates everything and returns what would change ` +
          '(counts, samples, warnings) without changing anything, then handle it in the handler.',
        [],
      ),
    ];
  },
};
