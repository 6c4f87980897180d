import type { ToolDefinition } from '../analysis/model';
import type { Rule, RuleFinding } from './types';
import { hint } from './util/annotations';
import { finding, toolSpan } from './util/finding';
import { nameTokens, snakeCase } from './util/names';
import { parameterName } from './util/new-parameter';
import { nameIntent, toolWrites } from './util/tool-intent';

/**
 * A parameter that says what to act on by a statement or a pattern, not by naming it: only then can the model not
 * know beforehand what the call will touch. A tool acting on the item its arguments name (delete_user(name),
 * delete_file(path)) shows that item in the call the user approves; a dry run would only repeat it (0 of 22 on
 * the labelled real-world set).
 */
const SELECTOR = /^(query|sql|cypher|statement|statements|filter|filters|where|pattern|patterns|glob|regex|selector|condition|conditions|criteria|script)$/;

const DRY_RUN = /^(dry_?run|dryrun|preview|simulate|simulation|validate_only|plan_only|what_if|whatif|check_only)$/;

/**
 * A boolean gate off by default (`confirmed: bool = False`, `apply: false`): the call changes nothing until the model
 * passes it, so the first call is the preview — the same safety as a dry run, turned the other way.
 */
const GATE = /^(confirm|confirmed|confirmation|apply|execute|commit|force|really|i_am_sure|yes)$/;

function isOffGate(p: ToolDefinition['parameters'][number]): boolean {
  if (!GATE.test(snakeCase(p.name))) return false;
  const boolean = p.schema?.type === 'boolean' || /\bbool\b|z\.boolean\(|\bboolean\b/.test(p.typeText ?? '');
  return boolean && !p.required && (p.defaultValue === undefined || p.defaultValue.value === false);
}

export const riskyToolWithoutDryRun: Rule = {
  id: 'risky-tool-without-dry-run',
  defaultSeverity: 'info',
  preset: 'strict',
  languages: ['typescript', 'python'],
  summary: 'A destructive or bulk tool that picks what it changes by a query or pattern has no dry-run parameter.',
  checkServer(tools) {
    return tools.flatMap((tool) => check(tool, tools));
  },
};

/**
 * A read sibling that takes the same selector and names the same object (excel-mcp-server's `find_cells(query)` next
 * to `replace_cells(query, ...)`): it lists exactly what the write would touch, so it is the dry run.
 */
function previewSibling(tool: ToolDefinition, selector: string, tools: readonly ToolDefinition[]): ToolDefinition | undefined {
  const object = nameTokens(tool.name.value ?? '').slice(1);
  return tools.find(
    (s) =>
      s !== tool &&
      nameIntent(s.name.value ?? '').kind === 'read' &&
      s.parameters.some((p) => p.name === selector) &&
      nameTokens(s.name.value ?? '')
        .slice(1)
        .some((w) => object.includes(w)),
  );
}

function check(tool: ToolDefinition, tools: readonly ToolDefinition[]): RuleFinding[] {
  const intent = nameIntent(tool.name.value ?? '');
  const writes = toolWrites(tool);
  if (hint(tool, 'readOnlyHint').value === true) return [];
  // The name wins over a `destructiveHint: false` that contradicts it (annotation-contradicts-name says so too).
  const destructive = hint(tool, 'destructiveHint').value === true || writes.destructive;
  const bulk = intent.bulk && writes.writes;
  if (!destructive && !bulk) return [];
  if (tool.parameters.some((p) => DRY_RUN.test(snakeCase(p.name)) || isOffGate(p))) return [];
  const selector = tool.parameters.find((p) =>
    snakeCase(p.name)
      .split('_')
      .some((w) => SELECTOR.test(w)),
  );
  if (!selector || previewSibling(tool, selector.name, tools)) return [];
  // No quick fix: a `dry_run` parameter the handler ignores still deletes with dry_run=true. The handler work (validate,
  // report, return before the change) is the author's; the message says what it must do.
  const name = parameterName(tool, 'dry_run');
  const what = `${bulk ? 'acts on many items at once' : 'destroys data'}, chosen by its \`${selector.name}\``;
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
}
