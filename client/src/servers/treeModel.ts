/**
 * What the Servers tree shows under a running server, without vscode (tree.ts turns these into TreeItems):
 * its tools, then a "Resources" and a "Prompts" group when the server offers them.
 */
import type { Prompt, Resource, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig } from './discovery';

/** The part of a McpSession the tree reads. */
export interface CatalogSource {
  running: boolean;
  capabilities: Record<string, unknown> | undefined;
  tools: Tool[];
  resources: Resource[];
  prompts: Prompt[];
  catalogErrors: { resources?: string; prompts?: string };
}

export type CatalogGroup = 'resources' | 'prompts';

export type ServerChild =
  | { kind: 'tool'; config: ServerConfig; tool: Tool }
  | { kind: 'group'; config: ServerConfig; group: CatalogGroup; count: number; error?: string };

export type GroupChild =
  | { kind: 'resource'; config: ServerConfig; resource: Resource }
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
    ['prompts', session.prompts],
  ];
  for (const [group, items] of groups) {
    const error = session.catalogErrors[group];
    if (!session.capabilities?.[group] || (items.length === 0 && !error)) continue;
    out.push({ kind: 'group', config, group, count: items.length, ...(error ? { error } : {}) });
  }
  return out;
}

export function groupChildren(config: ServerConfig, session: CatalogSource | undefined, group: CatalogGroup): GroupChild[] {
  if (!session?.running) return [];
  const out: GroupChild[] =
    group === 'resources'
      ? session.resources.map((resource) => ({ kind: 'resource', config, resource }))
      : session.prompts.map((prompt) => ({ kind: 'prompt', config, prompt }));
  const error = session.catalogErrors[group];
  if (error) out.push({ kind: 'note', text: `${group}/list failed: ${error.split('\n')[0]}`, error: true });
  return out;
}

export function groupText(node: Extract<ServerChild, { kind: 'group' }>): ItemText {
  const label = node.group === 'resources' ? 'Resources' : 'Prompts';
  return {
    label,
    description: node.error && node.count === 0 ? 'could not be listed' : String(node.count),
    tooltip: node.group === 'resources' ? 'Resources the server lists (resources/list). Click one to read it in the playground.' : 'Prompts the server lists (prompts/list). Click one to get it in the playground.',
  };
}

export function resourceText(r: Resource): ItemText {
  const label = r.title ?? r.name ?? r.uri;
  const description = [label !== r.uri ? r.uri : undefined, r.mimeType].filter(Boolean).join(' · ') || undefined;
  const tooltip = [`**${label}**`, `\`${r.uri}\``, r.description].filter(Boolean).join('\n\n');
  return { label, description, tooltip };
}

export function promptText(p: Prompt): ItemText {
  const label = p.title ?? p.name;
  const args = (p.arguments ?? []).map((a) => `${a.name}${a.required ? '*' : ''}`).join(', ');
  const description = [p.title ? p.name : undefined, args ? `(${args})` : undefined].filter(Boolean).join(' ') || undefined;
  const tooltip = [`**${label}**`, p.description, args ? `Arguments: ${args} (* required)` : undefined].filter(Boolean).join('\n\n');
  return { label, description, tooltip };
}
