/**
 * What the Servers tree shows under a running server, without vscode (tree.ts turns these into TreeItems):
 * its tools, then "Resources", "Resource templates" and "Prompts" groups when the server offers them.
 */
import type { Prompt, Resource, ResourceTemplateType as ResourceTemplate, Tool } from '@modelcontextprotocol/client';
import type { ServerConfig } from './discovery';
import { templateVariables } from './templates';
import { assessRisk, riskLabel, type RiskAssessment } from '../../../common/risk';

/** The part of a McpSession the tree reads. */
export interface CatalogSource {
  running: boolean;
  capabilities: Record<string, unknown> | undefined;
  tools: Tool[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  prompts: Prompt[];
  catalogErrors: { resources?: string; templates?: string; prompts?: string };
}

/** 'templates' is a group of its own: a template is read only after its variables are given, unlike a resource. */
export type CatalogGroup = 'resources' | 'templates' | 'prompts';

export type ServerChild = { kind: 'tool'; config: ServerConfig; tool: Tool } | { kind: 'group'; config: ServerConfig; group: CatalogGroup; count: number; error?: string };

export type GroupChild =
  | { kind: 'resource'; config: ServerConfig; resource: Resource }
  | { kind: 'template'; config: ServerConfig; template: ResourceTemplate }
  | { kind: 'prompt'; config: ServerConfig; prompt: Prompt }
  | { kind: 'note'; text: string; error: boolean };

export interface ItemText {
  label: string;
  description?: string;
  /** Markdown. */
  tooltip: string;
}

/**
 * Tools first, then a group per catalog the server declared in its capabilities and that has something to show
 * (an item, or the error of its list): a server that offers nothing gets no empty groups.
 */
export function serverChildren(config: ServerConfig, session: CatalogSource | undefined): ServerChild[] {
  if (!session?.running) return [];
  const out: ServerChild[] = session.tools.map((tool) => ({ kind: 'tool', config, tool }));
  const groups: [CatalogGroup, unknown[]][] = [
    ['resources', session.resources],
    ['templates', session.resourceTemplates],
    ['prompts', session.prompts],
  ];
  for (const [group, items] of groups) {
    const error = session.catalogErrors[group];
    // Templates come with the resources capability.
    if (!session.capabilities?.[group === 'templates' ? 'resources' : group] || (items.length === 0 && !error)) continue;
    out.push({ kind: 'group', config, group, count: items.length, ...(error ? { error } : {}) });
  }
  return out;
}

export function groupChildren(config: ServerConfig, session: CatalogSource | undefined, group: CatalogGroup): GroupChild[] {
  if (!session?.running) return [];
  const out: GroupChild[] =
    group === 'resources'
      ? session.resources.map((resource) => ({ kind: 'resource', config, resource }))
      : group === 'templates'
        ? session.resourceTemplates.map((template) => ({ kind: 'template', config, template }))
        : session.prompts.map((prompt) => ({ kind: 'prompt', config, prompt }));
  const error = session.catalogErrors[group];
  if (error) out.push({ kind: 'note', text: `${LIST_METHOD[group]} failed: ${error.split('\n')[0]}`, error: true });
  return out;
}

const LIST_METHOD: Record<CatalogGroup, string> = { resources: 'resources/list', templates: 'resources/templates/list', prompts: 'prompts/list' };
const GROUP_TEXT: Record<CatalogGroup, [string, string]> = {
  resources: ['Resources', 'Resources the server lists (resources/list). Click one to read it in the playground.'],
  templates: ['Resource templates', 'URI templates the server lists (resources/templates/list). Click one to give its variables and read the resource in the playground.'],
  prompts: ['Prompts', 'Prompts the server lists (prompts/list). Click one to give its arguments and get it in the playground.'],
};

export function groupText(node: Extract<ServerChild, { kind: 'group' }>): ItemText {
  const [label, tooltip] = GROUP_TEXT[node.group];
  return { label, description: node.error && node.count === 0 ? 'could not be listed' : String(node.count), tooltip };
}

/** A tool row: its title (or name), its risk level from the published annotations (common/risk.ts) and why. */
export function toolText(t: Tool): ItemText & { risk: RiskAssessment } {
  const risk = assessRisk(t.annotations);
  const titled = t.title ?? t.annotations?.title;
  const description = `${titled ? `${t.name} · ` : ''}${riskLabel(risk)}`;
  const tooltip = [`**${t.name}**`, t.description ?? '(no description)', `${risk.level} risk:\n${risk.reasons.map((r) => `- ${r}`).join('\n')}`].join('\n\n');
  return { label: titled ?? t.name, description, tooltip, risk };
}

export function resourceText(r: Resource): ItemText {
  const label = r.title ?? r.name ?? r.uri;
  const description = [label !== r.uri ? r.uri : undefined, r.mimeType].filter(Boolean).join(' · ') || undefined;
  const tooltip = [`**${label}**`, `\`${r.uri}\``, r.description].filter(Boolean).join('\n\n');
  return { label, description, tooltip };
}

export function templateText(t: ResourceTemplate): ItemText {
  const label = t.title ?? t.name;
  const description = [t.uriTemplate, t.mimeType].filter(Boolean).join(' · ');
  let variables = '';
  try {
    variables = templateVariables(t.uriTemplate)
      .map((v) => `${v.name}${v.required ? '*' : ''}`)
      .join(', ');
  } catch {
    /* a template the SDK cannot parse still gets a row; reading it says why */
  }
  const tooltip = [`**${label}**`, `\`${t.uriTemplate}\``, t.description, variables ? `Variables: ${variables} (* required)` : undefined].filter(Boolean).join('\n\n');
  return { label, description, tooltip };
}

export function promptText(p: Prompt): ItemText {
  const label = p.title ?? p.name;
  const args = (p.arguments ?? []).map((a) => `${a.name}${a.required ? '*' : ''}`).join(', ');
  const description = [p.title ? p.name : undefined, args ? `(${args})` : undefined].filter(Boolean).join(' ') || undefined;
  const tooltip = [`**${label}**`, p.description, args ? `Arguments: ${args} (* required)` : undefined].filter(Boolean).join('\n\n');
  return { label, description, tooltip };
}
