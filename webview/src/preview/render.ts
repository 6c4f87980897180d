/**
 * Renders a PreviewView into DOM nodes. Every string that comes from a tool contract (names, descriptions, defaults,
 * messages) is set with textContent — never parsed as HTML — so a hostile description cannot inject markup.
 */
import type { PreviewView, FieldView, LiveView, FindingView, PromptView, ResourceView, UnresolvedView } from '../../../common/preview-model';
import type { PreviewToHost, ClientTarget } from '../../../common/preview-messages';

export type Post = (m: PreviewToHost) => void;

type Attrs = Record<string, string | boolean | undefined>;

/** Creates an element; children that are strings become text nodes. */
export function h(tag: string, attrs: Attrs = {}, ...children: (Node | string | undefined | false)[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children) {
    if (c === undefined || c === false) continue;
    el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  }
  return el;
}

function button(label: string, onClick: () => void, opts: { icon?: string; secondary?: boolean; id?: string; title?: string } = {}): HTMLElement {
  const b = h('vscode-button', { icon: opts.icon, secondary: opts.secondary, 'data-action': opts.id, title: opts.title }, label);
  b.addEventListener('click', onClick);
  return b;
}

function section(id: string, heading: string, open: boolean, description: string | undefined, ...content: (Node | undefined | false)[]): HTMLElement {
  const c = h('vscode-collapsible', { 'data-section': id, open, description }, ...content);
  // heading is a property of the component: set it as such (not via innerHTML).
  (c as HTMLElement & { heading: string }).heading = heading;
  return c;
}

const RISK_CLASS: Record<string, string> = { Low: 'risk-low', Medium: 'risk-medium', High: 'risk-high', Critical: 'risk-critical' };

function fieldRows(fields: FieldView[], depth: number, rows: HTMLElement[]): HTMLElement[] {
  for (const f of fields) {
    const name = h('td', { class: 'param-name' }, h('span', { style: undefined, class: `indent-${Math.min(depth, 4)}` }, depth ? '↳ ' : ''), h('code', {}, f.name));
    const cells = [
      name,
      h('td', { class: 'param-type' }, h('code', {}, f.type)),
      h('td', { class: 'param-required' }, f.required ? 'required' : 'optional'),
      h('td', { class: 'param-default' }, f.defaultValue !== undefined ? h('code', {}, f.defaultValue) : h('span', { class: 'muted' }, '—')),
      h('td', { class: 'param-constraints' }, f.constraints.length ? f.constraints.join(', ') : h('span', { class: 'muted' }, 'none')),
      h(
        'td',
        { class: 'param-description' },
        f.description !== undefined ? f.description : h('span', { class: 'missing' }, 'no description'),
        f.unresolved ? h('div', { class: 'unresolved' }, `unresolved: ${f.unresolved}`) : undefined,
      ),
    ];
    rows.push(h('tr', { 'data-param': f.path, class: f.unresolved ? 'is-unresolved' : undefined }, ...cells));
    fieldRows(f.children, depth + 1, rows);
  }
  return rows;
}

function fieldTable(fields: FieldView[], caption: string, first = 'Parameter'): HTMLElement {
  return h(
    'table',
    { class: 'fields' },
    h('caption', { class: 'visually-hidden' }, caption),
    h('thead', {}, h('tr', {}, ...[first, 'Type', 'Required', 'Default', 'Constraints', 'Description'].map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, ...fieldRows(fields, 0, [])),
  );
}

function findingItem(f: FindingView, index: number, post: Post): HTMLElement {
  return h(
    'li',
    { class: `finding severity-${f.severity}`, 'data-rule': f.ruleId },
    h('span', { class: `codicon codicon-${f.severity === 'info' ? 'info' : f.severity}`, 'aria-hidden': 'true' }),
    h('span', { class: 'finding-severity' }, f.severity),
    h('span', { class: 'finding-message' }, f.message),
    h(
      'span',
      { class: 'finding-actions' },
      button(f.location, () => post({ type: 'reveal', uri: f.uri, range: f.range }), { secondary: true, icon: 'go-to-file', id: 'reveal', title: 'Go to the finding' }),
      f.hasFix ? button('Fix', () => post({ type: 'fix', index }), { icon: 'lightbulb', id: 'fix', title: 'Apply the quick fix' }) : undefined,
      button(f.ruleId, () => post({ type: 'openDocs', ruleId: f.ruleId }), { secondary: true, icon: 'book', id: 'docs', title: 'Open the rule documentation' }),
    ),
  );
}

export function renderLive(live: LiveView | undefined, post: Post): HTMLElement {
  const box = h('div', { class: 'live', 'data-live-state': live?.state ?? 'idle' });
  if (!live || live.state === 'idle') {
    box.append(
      h('p', {}, live?.summary ?? 'Start the server to compare this prediction with what it really publishes.'),
      button('Compare with the running server', () => post({ type: 'live', action: 'compare' }), { icon: 'debug-start', id: 'compare' }),
    );
    return box;
  }
  box.append(h('p', { class: `live-summary live-${live.diff?.status ?? live.state}` }, live.summary));
  if (live.startedAt) box.append(h('p', { class: 'muted' }, `Server started at ${new Date(live.startedAt).toLocaleTimeString()}.`));
  const diff = live.diff;
  if (diff && diff.reasons.length) {
    box.append(
      h('h3', {}, 'Why they may differ'),
      h(
        'ul',
        { class: 'reasons' },
        ...diff.reasons.map((r) =>
          h(
            'li',
            { class: `reason reason-${r.kind}`, 'data-reason': r.kind },
            h('span', {}, r.message),
            r.kind === 'stale' ? button('Restart server', () => post({ type: 'live', action: 'restart' }), { icon: 'debug-restart', id: 'restart' }) : undefined,
            r.kind === 'unsaved' ? button('Save', () => post({ type: 'save' }), { icon: 'save', id: 'save' }) : undefined,
            r.kind === 'unresolved' ? button('Show it', () => post({ type: 'reveal', uri: r.uri, range: r.range }), { secondary: true, icon: 'go-to-file', id: 'show-unresolved' }) : undefined,
          ),
        ),
      ),
    );
  }
  if (diff && diff.differences.length) {
    box.append(
      h(
        'table',
        { class: 'diff' },
        h('thead', {}, h('tr', {}, ...['Field', 'Change', 'Predicted', 'Live'].map((t) => h('th', { scope: 'col' }, t)))),
        h(
          'tbody',
          {},
          ...diff.differences.map((d) =>
            h(
              'tr',
              { 'data-diff-path': d.path, class: `diff-${d.kind}` },
              h('td', {}, h('code', {}, d.path || '(whole contract)'), d.unresolved ? h('div', { class: 'unresolved' }, `unresolved: ${d.unresolved}`) : undefined),
              h('td', {}, d.kind),
              h('td', { class: 'diff-predicted' }, d.predicted !== undefined ? h('code', {}, d.predicted) : h('span', { class: 'muted' }, 'absent')),
              h('td', { class: 'diff-live' }, d.live !== undefined ? h('code', {}, d.live) : h('span', { class: 'muted' }, 'absent')),
            ),
          ),
        ),
      ),
    );
  }
  const actions = h('div', { class: 'toolbar' });
  if (live.canRestart && !diff?.reasons.some((r) => r.kind === 'stale'))
    actions.append(button('Restart server', () => post({ type: 'live', action: 'restart' }), { secondary: true, icon: 'debug-restart', id: 'restart' }));
  if (live.canStart || live.state === 'running') actions.append(button('Compare again', () => post({ type: 'live', action: 'compare' }), { secondary: true, icon: 'refresh', id: 'compare' }));
  box.append(actions);
  if (diff?.liveJson) box.append(h('details', {}, h('summary', {}, 'Live tools/list entry'), h('pre', { class: 'json live-json' }, diff.liveJson)));
  return box;
}

/** The unresolved parts of a prompt or resource, each with a way to its source. */
function unresolvedNotes(rows: UnresolvedView[], post: Post): HTMLElement | undefined {
  if (!rows.length) return undefined;
  return h(
    'ul',
    { class: 'unresolved-list' },
    ...rows.map((u) =>
      h(
        'li',
        { 'data-part': u.part, class: 'unresolved' },
        h('code', {}, u.part),
        ` — unresolved: ${u.reason} `,
        button(u.location, () => post({ type: 'reveal', uri: u.uri, range: u.range }), { secondary: true, icon: 'go-to-file', id: 'reveal-unresolved' }),
      ),
    ),
  );
}

const missing = (what: string) => h('span', { class: 'missing' }, what);

function promptsSection(prompts: PromptView[], post: Post, open: boolean): HTMLElement {
  const rows = prompts.map((p) =>
    h(
      'tr',
      { 'data-prompt': p.name ?? '', class: p.unresolved.length ? 'is-unresolved' : undefined },
      h('td', {}, p.name !== undefined ? h('code', {}, p.name) : missing('name not resolved'), p.title ? h('div', { class: 'muted' }, p.title) : undefined),
      h('td', { class: 'prompt-description' }, p.description ?? missing('no description'), unresolvedNotes(p.unresolved, post)),
      h(
        'td',
        { class: 'prompt-arguments' },
        p.arguments.length
          ? h(
              'ul',
              { class: 'arguments' },
              ...p.arguments.map((a) =>
                h('li', { 'data-argument': a.name }, h('code', {}, a.name), a.required ? ' (required)' : ' (optional)', a.description !== undefined ? ` — ${a.description}` : ''),
              ),
            )
          : h('span', { class: 'muted' }, 'none'),
      ),
      h(
        'td',
        {},
        button(p.location, () => post({ type: 'reveal', uri: p.uri, range: p.range }), { secondary: true, icon: 'go-to-file', id: 'reveal-prompt' }),
      ),
    ),
  );
  return section(
    'prompts',
    'Prompts of this server',
    open,
    String(prompts.length),
    h('p', { class: 'muted' }, 'What prompts/list publishes: a client shows them in its prompt picker (a slash-command menu) with their title and description.'),
    h('table', { class: 'prompts' }, h('thead', {}, h('tr', {}, ...['Prompt', 'Description', 'Arguments', 'Source'].map((t) => h('th', { scope: 'col' }, t)))), h('tbody', {}, ...rows)),
  );
}

function resourcesSection(resources: ResourceView[], post: Post, open: boolean): HTMLElement {
  const rows = resources.map((r) =>
    h(
      'tr',
      { 'data-resource': r.address ?? '', 'data-kind': r.kind, class: r.unresolved.length ? 'is-unresolved' : undefined },
      h('td', {}, r.address !== undefined ? h('code', {}, r.address) : missing('URI not resolved'), h('div', { class: 'muted' }, r.kind === 'template' ? 'template' : 'resource')),
      h('td', {}, r.name !== undefined ? r.name : missing('name not resolved'), r.title ? h('div', { class: 'muted' }, r.title) : undefined),
      h('td', {}, r.mimeType !== undefined ? h('code', {}, r.mimeType) : h('span', { class: 'muted' }, '—')),
      h('td', { class: 'resource-description' }, r.description ?? missing('no description'), unresolvedNotes(r.unresolved, post)),
      h(
        'td',
        {},
        button(r.location, () => post({ type: 'reveal', uri: r.uri, range: r.range }), { secondary: true, icon: 'go-to-file', id: 'reveal-resource' }),
      ),
    ),
  );
  return section(
    'resources',
    'Resources of this server',
    open,
    String(resources.length),
    h('p', { class: 'muted' }, 'What resources/list (a resource) and resources/templates/list (a template) publish: the client, not the model, picks which to read.'),
    h('table', { class: 'resources' }, h('thead', {}, h('tr', {}, ...['URI', 'Name', 'MIME type', 'Description', 'Source'].map((t) => h('th', { scope: 'col' }, t)))), h('tbody', {}, ...rows)),
  );
}

const TARGET_LABELS: { target: ClientTarget; label: string }[] = [
  { target: 'vscode', label: 'VS Code' },
  { target: 'claude', label: 'Claude Desktop' },
  { target: 'cursor', label: 'Cursor' },
];

export function renderView(view: PreviewView, post: Post, collapsed: ReadonlySet<string>): HTMLElement {
  const open = (id: string) => !collapsed.has(id);
  const header = h(
    'header',
    { class: 'header' },
    h('h1', { class: 'tool-name' }, view.name ?? '(name not resolved)'),
    view.title ? h('p', { class: 'tool-title' }, view.title) : undefined,
    h(
      'p',
      { class: 'meta' },
      h('span', { class: `risk-badge ${RISK_CLASS[view.risk.level]}`, 'data-risk': view.risk.level }, `Risk: ${view.risk.level}`),
      view.tokens ? h('span', { class: 'tokens', 'data-tokens': String(view.tokens.tool) }, `${view.tokens.tool} tokens`) : undefined,
      h('span', { class: 'muted' }, `${view.frameworkLabel} · ${decodeURIComponent(view.file.replace(/^file:\/\//, ''))}`),
    ),
    view.condition
      ? h(
          'p',
          { class: 'condition', 'data-condition': view.condition.text },
          'Listed only when ',
          h('code', {}, view.condition.text),
          ' holds at run time: a running server may not list this tool. ',
          button(view.condition.location, () => post({ type: 'reveal', uri: view.condition!.uri, range: view.condition!.range }), { secondary: true, icon: 'go-to-file', id: 'reveal-condition' }),
        )
      : undefined,
    h(
      'div',
      { class: 'toolbar' },
      button('Copy JSON', () => post({ type: 'copyJson' }), { icon: 'copy', id: 'copy-json' }),
      h('span', { class: 'toolbar-label' }, 'Copy client configuration:'),
      ...TARGET_LABELS.map((t) => button(t.label, () => post({ type: 'copyConfig', target: t.target }), { secondary: true, icon: 'json', id: `config-${t.target}` })),
    ),
  );

  const description = h(
    'div',
    { class: 'description-block' },
    h('h3', {}, 'Description'),
    view.description !== undefined
      ? h('p', { class: 'description' }, view.description)
      : view.descriptionUnresolved
        ? h('p', { class: 'unresolved' }, `unresolved: ${view.descriptionUnresolved}`)
        : h('p', { class: 'missing' }, 'No description: the model sees only the name.'),
  );
  const params = view.parameters.length ? fieldTable(view.parameters, 'Parameters') : h('p', { class: 'muted' }, view.inputSchemaNote ?? 'takes no parameters');
  const reading = section('reading', 'As the model reads it', open('reading'), undefined, description, h('h3', {}, 'Parameters'), params);

  const output = section(
    'output',
    'Output schema',
    open('output'),
    view.output.declared ? undefined : 'none',
    view.output.fields.length ? fieldTable(view.output.fields, 'Output fields', 'Field') : undefined,
    view.output.note ? h('p', { class: 'muted' }, view.output.note) : undefined,
  );

  const risk = section(
    'risk',
    'Annotations and risk',
    open('risk'),
    view.risk.level,
    h('p', {}, h('strong', {}, `Risk level ${view.risk.level}. `), view.risk.autonomy, ' ', view.risk.confirmation),
    h('ul', { class: 'risk-reasons' }, ...view.risk.reasons.map((r) => h('li', {}, r))),
    h(
      'table',
      { class: 'annotations' },
      h('thead', {}, h('tr', {}, ...['Annotation', 'Value', 'What a client reads'].map((t) => h('th', { scope: 'col' }, t)))),
      h(
        'tbody',
        {},
        ...view.annotations.map((a) =>
          h(
            'tr',
            { 'data-annotation': a.key, class: a.declared ? undefined : 'undeclared' },
            h('td', {}, h('code', {}, a.key)),
            h('td', {}, a.value !== undefined ? h('code', {}, a.value) : h('span', { class: 'muted' }, 'not declared')),
            h('td', {}, a.meaning),
          ),
        ),
      ),
    ),
  );

  const findings = section(
    'findings',
    'Open findings',
    open('findings'),
    String(view.findings.length),
    view.findings.length ? h('ul', { class: 'findings' }, ...view.findings.map((f, i) => findingItem(f, i, post))) : h('p', { class: 'muted' }, 'No open finding for this tool.'),
  );

  const unresolved = view.unresolved.length
    ? section(
        'unresolved',
        'Unresolved parts',
        open('unresolved'),
        String(view.unresolved.length),
        h('p', {}, 'Toolsmith could not compute these statically; the JSON above leaves them out rather than guess.'),
        h(
          'ul',
          { class: 'unresolved-list' },
          ...view.unresolved.map((u) =>
            h(
              'li',
              { 'data-part': u.part },
              h('code', {}, u.part),
              ` — ${u.reason} `,
              button(u.location, () => post({ type: 'reveal', uri: u.uri, range: u.range }), { secondary: true, icon: 'go-to-file', id: 'reveal-unresolved' }),
            ),
          ),
        ),
      )
    : undefined;

  const tokens = view.tokens
    ? section(
        'tokens',
        'Token cost',
        open('tokens'),
        `${view.tokens.tool} / ${view.tokens.server}`,
        h(
          'p',
          { class: 'token-figures' },
          `This tool: ${view.tokens.tool} tokens. The server's whole tool list (${view.tokens.serverToolCount} tool${view.tokens.serverToolCount === 1 ? '' : 's'}): ${view.tokens.server} tokens.`,
        ),
        h('p', { class: 'muted' }, `Counted with the ${view.tokens.encoding} tokenizer on the compact tools/list JSON; every conversation pays this on every turn.`),
      )
    : undefined;

  const other = view.otherFields.length
    ? section(
        'other',
        'Other fields',
        open('other'),
        view.otherFields.map((f) => f.key).join(', '),
        ...view.otherFields.map((f) => h('div', {}, h('code', {}, f.key), h('pre', { class: 'json' }, f.value))),
      )
    : undefined;

  const prompts = view.prompts?.length ? promptsSection(view.prompts, post, open('prompts')) : undefined;
  const resources = view.resources?.length ? resourcesSection(view.resources, post, open('resources')) : undefined;

  const live = section('live', 'Live comparison', open('live'), view.live?.diff?.status, h('div', { id: 'live-slot' }, renderLive(view.live, post)));

  const jsonBlock = section('json', 'tools/list JSON', open('json'), 'exact', h('pre', { class: 'json contract-json', tabindex: '0' }, view.json));

  return h(
    'div',
    { class: 'preview', 'data-key': view.key },
    header,
    reading,
    output,
    risk,
    findings,
    ...(unresolved ? [unresolved] : []),
    ...(tokens ? [tokens] : []),
    ...(prompts ? [prompts] : []),
    ...(resources ? [resources] : []),
    live,
    jsonBlock,
    ...(other ? [other] : []),
  );
}
