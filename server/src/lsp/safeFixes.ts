import type { Finding, Fix } from '../rules/types';
import * as rules from '../rules';
import { selectSafeFixes } from './fixes';

const FIX_ALL_EXPORT: string = 'fixAll';
type FixAll = (findings: Finding[]) => Fix[];

/**
 * The rules engine owns the choice of safe fixes (`fixAll` in rules/index.ts); until it exports one, the local
 * selection (first safe fix per finding, no colliding edits) is used. Read through the namespace so this compiles
 * either way.
 */
export function pickSafeFixes(findings: Finding[]): Fix[] {
  const fromRules = (rules as Record<string, unknown>)[FIX_ALL_EXPORT];
  if (typeof fromRules === 'function') return (fromRules as FixAll)(findings);
  return selectSafeFixes(findings);
}
