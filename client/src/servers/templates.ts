/**
 * RFC 6570 resource templates (resources/templates/list): their variables and their expansion, with the MCP SDK's own
 * UriTemplate, the class its servers match incoming URIs with, so what we expand is what they match.
 */
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import type { TemplateVariable } from '../../../common/playground-messages';

/** The variables of a template in order of first appearance; query ones ({?q}, {&q}) are optional. */
export function templateVariables(uriTemplate: string): TemplateVariable[] {
  const names = new UriTemplate(uriTemplate).variableNames;
  // UriTemplate keeps each expression's operator private: read it from the expressions themselves.
  const expressionOf = new Map<string, string>();
  for (const m of uriTemplate.matchAll(/\{([^}]*)\}/g)) {
    for (const raw of m[1].replace(/^[+#./;?&]/, '').split(',')) {
      const name = raw.replace('*', '').trim();
      if (name && !expressionOf.has(name)) expressionOf.set(name, m[0]);
    }
  }
  const out: TemplateVariable[] = [];
  for (const name of names) {
    if (out.some((v) => v.name === name)) continue;
    const expression = expressionOf.get(name) ?? `{${name}}`;
    out.push({ name, expression, required: !/^\{[?&]/.test(expression) });
  }
  return out;
}

/** Expands a template; empty values count as undefined (RFC 6570 drops them). */
export function expandTemplate(uriTemplate: string, values: Record<string, string>): string {
  const defined = Object.fromEntries(Object.entries(values).filter(([, v]) => typeof v === 'string' && v !== ''));
  return new UriTemplate(uriTemplate).expand(defined);
}

/** The required variables left empty, in template order. */
export function missingVariables(uriTemplate: string, values: Record<string, string>): TemplateVariable[] {
  return templateVariables(uriTemplate).filter((v) => v.required && !values[v.name]);
}
