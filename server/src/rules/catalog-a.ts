import type { Rule } from './types';

/** Naming, description and parameter rules (RULES.md: Naming, Description, Parameters). One file per rule. */
export const CATALOG_A: Rule[] = [];
