import type { Rule } from './types';

/** Results/errors, annotations, security and server-level rules (RULES.md). One file per rule. */
export const CATALOG_B: Rule[] = [];
