import type { Rule, RuleFinding } from './types';
import { finding, toolLabel } from './util/finding';
import { nameTokens } from './util/names';

/** idempotency_key, idempotencyKey, request_key, dedupe_key, deduplication_id, client_token... */
export function isIdempotencyKey(name: string): boolean {
  if (/idempot/i.test(name)) return true;
  const t = nameTokens(name);
  if (t.length < 2) return false;
  const [a, b] = t.slice(-2);
  return (['request', 'dedupe', 'dedup', 'deduplication', 'client', 'retry'].includes(a) && ['key', 'token'].includes(b)) || (a === 'deduplication' && b === 'id');
}

export const paramIdempotencyKeyExposed: Rule = {
  id: 'param-idempotency-key-exposed',
  defaultSeverity: 'info',
  languages: ['typescript', 'python'],
  summary: 'The model is asked for an idempotency / request key.',
  checkTool(tool) {
    const out: RuleFinding[] = [];
    for (const p of tool.parameters) {
      if (!isIdempotencyKey(p.name)) continue;
      out.push(
        finding(
          tool,
          p.nameSpan,
          `Parameter "${p.name}" of ${toolLabel(tool)} asks the model for an idempotency key: a model invents a fresh key on every ` +
            'attempt, so a retry after a timeout runs the action twice (two payments, two emails). Generate the key in the ' +
            "calling code — derived from the action's own fields or the client request — and remove the parameter.",
        ),
      );
    }
    return out;
  },
};
