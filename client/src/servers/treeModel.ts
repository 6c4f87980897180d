/**
 * What the Servers tree shows under a running server, without vscode (tree.ts turns these into TreeItems):
 * its tools, then "Resources", "Resource templates" and "Prompts" groups when the server offers them.
 */
import type { Prompt, Resource, ResourceTemplateType as ResourceTemplate, Tool } from '@modelcontextprotocol/client';
import type { ServerConfig } from './discovery';
import { templateVariables } from './templates';
import * as path from 'node:path';
import { assessRisk, type RiskAssessment } from '../../../common/risk';
import { CAUSE_LABEL, type StartFailure } from './startFailure';
import type { ServerToolsResult, ToolSummary } from '../../../common/protocol';

/** The part of a McpSession the tree reads. */
export interface CatalogSource {
  running: boolean;
  capabilities: Record<string, unknown> | undefined;
  tools: Tool[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  prompts: Prompt[];
  catalogErrors: { resources?: string; templates?: string; prompts?: string };
  /** resources/subscribe: allowed by the server, what is subscribed, what changed since it was read. */
  canSubscribe?: boolean;
  subscriptions?: ReadonlySet<string>;
  updatedResources?: ReadonlySet<string>;
}

/** How a resource row reads against the session's subscriptions: its context value (menus) and its mark. */
export function resourceSubscription(r: Resource, s: CatalogSource | undefined): { contextValue: string; mark?: string } {
  const subscribed = !!s?.subscriptions?.has(r.uri);
  const updated = !!s?.updatedResources?.has(r.uri);
  const contextValue = subscribed ? 'toolsmith.resource.subscribed' : s?.canSubscribe ? 'toolsmith.resource.subscribable' : 'toolsmith.resource';
  const mark = updated ? (subscribed ? 'updated · subscribed' : 'updated') : subscribed ? 'subscribed' : undefined;
  return { contextValue, mark };
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

/**
 * A tool row: its name first (what the model calls, and short enough for the default side-bar width), its risk
 * level from the published annotations (common/risk.ts) as the description; the title and the reasons in the tooltip.
 */
export function toolText(t: Tool): ItemText & { risk: RiskAssessment } {
  const risk = assessRisk(t.annotations);
  const titled = t.title ?? t.annotations?.title;
  const description = `${risk.level}${risk.assumed ? ' (assumed)' : ''}`;
  const tooltip = [`**${t.name}**${titled ? ` — ${titled}` : ''}`, t.description ?? '(no description)', `${risk.level} risk:\n${risk.reasons.map((r) => `- ${r}`).join('\n')}`].join('\n\n');
  return { label: t.name, description, tooltip, risk };
}

/** The part of a McpSession a server row reads. */
export interface ServerRowSource {
  status: string;
  running: boolean;
  serverInfo?: { name: string; version: string };
}

/**
 * A server row: its name first; the status (and, once started, what the server calls itself; once failed, the likely
 * cause) in the description. A detected server is named by its file, its folder in the description.
 */
export function serverText(c: ServerConfig, s: ServerRowSource | undefined, failure?: StartFailure): ItemText {
  const status = s?.status ?? 'stopped';
  if (c.detected && !c.detected.confirmed) {
    const rel = path.dirname(c.name);
    return {
      label: path.basename(c.detected.sourceFile),
      description: `detected${rel && rel !== '.' ? ` · ${rel}` : ''}`,
      tooltip: `**${c.name}** (detected)\n\nToolsmith found an MCP server on stdio in this file. Confirm it once to run it.`,
    };
  }
  const info = s?.serverInfo && s.running ? `${s.serverInfo.name} ${s.serverInfo.version}` : undefined;
  const cause = failure ? CAUSE_LABEL[failure.cause] : undefined;
  const description = [status, info, cause].filter(Boolean).join(' · ');
  const tooltip = [`**${c.name}** (${c.origin})`, failure ? `Did not start: ${failure.summary}` : undefined].filter(Boolean).join('\n\n');
  return { label: c.name, description, tooltip };
}

/** A row under a server that is not running: what to do next, always visible (not a hover-only inline icon). */
export interface ServerAction {
  kind: 'action';
  config: ServerConfig;
  action: 'start' | 'confirm' | 'showLog';
  label: string;
  tooltip: string;
  icon: string;
}

/**
 * The rows under a server that is not running: "Start server" (or "Confirm and start" for a detected one), and
 * after a failed start its cause with a link to the log. None while it runs or starts, or in Restricted Mode
 * (nothing may be launched there; the view says so at the top).
 */
export function serverActions(c: ServerConfig, s: ServerRowSource | undefined, trusted: boolean, failure?: StartFailure): ServerAction[] {
  const status = s?.status ?? 'stopped';
  if (!trusted || s?.running || status === 'starting' || status === 'stopping') return [];
  const out: ServerAction[] = [];
  if (failure) {
    out.push({ kind: 'action', config: c, action: 'showLog', label: `Failed: ${CAUSE_LABEL[failure.cause] ?? 'see the log'}`, tooltip: failure.summary, icon: 'error' });
  }
  if (c.detected && !c.detected.confirmed) {
    out.push({ kind: 'action', config: c, action: 'confirm', label: 'Confirm and start', tooltip: `Runs ${c.name} once you confirm it (asked once per file).`, icon: 'play' });
  } else {
    out.push({
      kind: 'action',
      config: c,
      action: 'start',
      label: failure ? 'Start again' : 'Start server',
      tooltip: `Starts ${c.name} and lists its tools.`,
      icon: failure ? 'debug-restart' : 'play',
    });
  }
  return out;
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

/** Files a server command may run from source: the language server predicts the whole server from them. */
const SCRIPT = /\.(?:[cm]?[jt]sx?|py)$/i;

/**
 * The workspace file a server's command runs, for the prediction shown while it is not running: a detected server's
 * source file; else the first argument (or the command) naming a script (`node dist/index.js`, `npx tsx src/server.ts`,
 * `uv run server.py`, `${workspaceFolder}/...`), or `python -m pkg.module` (its `pkg/module.py` or `__main__.py`),
 * resolved against the server's cwd. Undefined when the command names none that exists (`npx some-package`, a URL).
 */
export function serverScript(c: ServerConfig, root: string, exists: (file: string) => boolean): string | undefined {
  if (c.detected) return c.detected.sourceFile;
  if (c.url) return undefined;
  const withRoot = (a: string) => a.replace(/\$\{(?:workspaceFolder|workspaceRoot)\}/g, root);
  const cwd = c.cwd ? path.resolve(root, withRoot(c.cwd)) : root;
  const words = [c.command, ...c.args].map(withRoot);
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === '-m' && words[i + 1]) {
      const stem = path.resolve(cwd, ...words[i + 1].split('.'));
      for (const f of [`${stem}.py`, path.join(stem, '__main__.py'), path.join(root, 'src', ...words[i + 1].split('.')) + '.py', path.join(root, 'src', ...words[i + 1].split('.'), '__main__.py')])
        if (exists(f)) return f;
      return undefined;
    }
    if (w.startsWith('-') || !SCRIPT.test(w)) continue;
    const file = path.resolve(cwd, w);
    if (exists(file)) return file;
  }
  return undefined;
}

/** A row of the prediction shown under a server that is not running. */
export type PredictedChild = { kind: 'predicted'; config: ServerConfig; tool: ToolSummary; server?: string } | { kind: 'note'; text: string; error: boolean; tooltip?: string };

/**
 * The rows under a stopped server whose script is a workspace file: a heading saying the list is predicted from the
 * source (not what a running server lists), then every tool of the server(s) that script starts, then each import
 * the prediction could not follow. None while it runs (a running server shows its live list), nor when the
 * prediction sees no server in the script.
 */
export function predictedChildren(c: ServerConfig, script: string, prediction: ServerToolsResult | undefined, running: boolean): PredictedChild[] {
  // No server seen in the script (not an MCP server, or one whose form is not read): nothing claimed either way.
  if (running || !prediction || (prediction.servers.length === 0 && prediction.unresolved.length === 0)) return [];
  const tools = prediction.servers.flatMap((s) => s.tools.map((tool) => ({ tool, server: prediction.servers.length > 1 ? (s.name ?? s.variable) : undefined })));
  const out: PredictedChild[] = [
    {
      kind: 'note',
      text: `Predicted: ${tools.length} tool${tools.length === 1 ? '' : 's'} (not running)`,
      error: false,
      tooltip: `What ${path.basename(script)} registers, predicted from the source through its imports (toolsmith contract ${path.basename(script)}). Start the server to see what it really lists.`,
    },
  ];
  for (const { tool, server } of tools) out.push({ kind: 'predicted', config: c, tool, ...(server ? { server } : {}) });
  for (const u of prediction.unresolved) out.push({ kind: 'note', text: `Not followed: ${u.reason.split(':')[0]}`, error: true, tooltip: u.reason });
  return out;
}

/** A predicted tool row: its name, the risk of its predicted annotations (assumed where undeclared), "predicted". */
export function predictedToolText(t: ToolSummary, server?: string): ItemText {
  const risk = assessRisk((t.contract as { annotations?: Tool['annotations'] }).annotations);
  const unresolved = t.unresolved.length ? ' · partly unresolved' : '';
  // Registered under a guard: a running server lists it only when the guard holds.
  const conditional = t.condition ? ' · conditional' : '';
  return {
    label: t.name ?? '<unresolved name>',
    description: `predicted · ${risk.level}${risk.assumed ? ' (assumed)' : ''}${conditional}${unresolved}${server ? ` · ${server}` : ''}`,
    tooltip: [
      `**${t.name ?? '<unresolved name>'}** (predicted from the source)`,
      ...(t.condition ? [`listed only when \`${t.condition.text.replace(/`/g, "'")}\` holds at run time`] : []),
      typeof t.contract.description === 'string' ? t.contract.description : '(no description)',
      ...t.unresolved.map((u) => `unresolved ${u.part}: ${u.reason}`),
    ].join('\n\n'),
  };
}
