/**
 * The "Resources and prompts" section of the playground: resources (read with one click), resource templates (a form
 * of their RFC 6570 variables, the URI they expand to, then resources/read) and prompts (a form of their declared
 * arguments, then prompts/get and the messages it returns). Forms are the tools' SchemaForm over a JSON object schema
 * of string properties; everything the server returns is rendered as data, never as markup.
 */
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import {
  promptArgumentsSchema,
  templateVariablesSchema,
  type CompletionRef,
  type HostToWebview,
  type PromptView,
  type ResourceTemplateView,
  type ResourceView,
  type WebviewToHost,
} from '../../../common/playground-messages';
import { SchemaForm } from '../form/index';
import { button, h } from '../form/dom';
import { renderContent } from './results';
import './catalog.css';

export interface CatalogActions {
  post(m: WebviewToHost): void;
  copy(text: string): void;
  readResource(uri: string): void;
  saveBlob?(blobId: string): void;
}

export interface CatalogFocus {
  resource?: string;
  template?: string;
  prompt?: string;
}

type ResourceRead = Extract<HostToWebview, { type: 'resourceRead' }>;
type PromptGot = Extract<HostToWebview, { type: 'promptGot' }>;
type Completion = Extract<HostToWebview, { type: 'completion' }>;

/** Suggestions shown under a field at most (the spec caps an answer at 100 values). */
const SUGGESTIONS_SHOWN = 20;

/** The form values as prompts/get and the template expansion take them: strings only, empty ones left out. */
function stringValues(form: SchemaForm | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(form?.getArgs() ?? {})) if (typeof v === 'string' && v !== '') out[k] = v;
  return out;
}

export class CatalogView {
  private readonly templateForms = new Map<string, SchemaForm>();
  private readonly promptForms = new Map<string, SchemaForm>();
  private prompts: PromptView[] = [];
  private templates: ResourceTemplateView[] = [];
  /** The values typed in the forms before the last render, by "t:<uriTemplate>" / "p:<prompt name>". */
  private typed = new Map<string, Record<string, unknown>>();
  /** The server declares completions: the forms ask completion/complete as the author types. */
  private completions = false;
  private completionSeq = 0;
  /** The field each completion request is for, and the newest request of each field (older answers are dropped). */
  private readonly pendingCompletions = new Map<number, { field: HTMLElement; form: SchemaForm; name: string; changed: () => void }>();
  private readonly latestCompletion = new WeakMap<HTMLElement, number>();
  private readonly completionTimers = new WeakMap<HTMLElement, ReturnType<typeof setTimeout>>();
  /** resources/subscribe: whether the server allows it, what is subscribed, and when each resource last changed. */
  private canSubscribe = false;
  private subscribed = new Set<string>();
  private readonly updatedAt = new Map<string, number>();
  private readonly saveBlob = (blobId: string) => this.actions.saveBlob?.(blobId);

  constructor(
    readonly el: HTMLElement,
    private readonly actions: CatalogActions,
  ) {}

  render(resources: ResourceView[], templates: ResourceTemplateView[], prompts: PromptView[], error?: string, completions = false): void {
    const el = this.el;
    this.completions = completions;
    this.pendingCompletions.clear();
    // Listed anew (another item clicked in the tree, list_changed...): what was typed in a form stays.
    const typed = new Map<string, Record<string, unknown>>();
    for (const [k, f] of this.templateForms) typed.set(`t:${k}`, f.getArgs());
    for (const [k, f] of this.promptForms) typed.set(`p:${k}`, f.getArgs());
    this.typed = typed;
    this.templateForms.clear();
    this.promptForms.clear();
    this.prompts = prompts;
    this.templates = templates;
    el.replaceChildren();
    if (error) el.append(h('div', { class: 'error' }, error));
    el.append(h('h3', {}, 'Resources'));
    if (!resources.length) el.append(h('div', { class: 'note' }, 'This server offers no resources.'));
    for (const r of resources) {
      const row = h(
        'div',
        { class: 'resource-row', 'data-uri': r.uri },
        h('strong', {}, r.title ?? r.name ?? r.uri),
        ' ',
        h('code', {}, r.uri),
        r.mimeType ? ` ${r.mimeType}` : '',
        button('Read', () => this.actions.readResource(r.uri), { secondary: true, name: 'read-resource' }),
        h('span', { class: 'subscription' }),
        h('div', { class: 'resource-body' }),
      );
      el.append(row);
      this.renderSubscription(row);
    }
    el.append(h('h3', {}, 'Resource templates'));
    if (!templates.length) el.append(h('div', { class: 'note' }, 'This server offers no resource templates.'));
    for (const t of templates) el.append(this.templateRow(t));
    el.append(h('h3', {}, 'Prompts'));
    if (!prompts.length) el.append(h('div', { class: 'note' }, 'This server offers no prompts.'));
    for (const p of prompts) el.append(this.promptRow(p));
  }

  private templateRow(t: ResourceTemplateView): HTMLElement {
    const expanded = h('div', { class: 'expanded', 'aria-live': 'polite' });
    const form = t.variables.length ? new SchemaForm(templateVariablesSchema(t), { jsonToggles: false }) : undefined;
    if (form) this.templateForms.set(t.uriTemplate, form);
    const before = this.typed.get(`t:${t.uriTemplate}`);
    if (form && before) form.setArgs(before);
    // The URI the values make, as the server's own UriTemplate class (the SDK's) expands it.
    const preview = () => {
      try {
        expanded.textContent = `→ ${new UriTemplate(t.uriTemplate).expand(stringValues(form))}`;
      } catch (err) {
        expanded.textContent = `cannot expand: ${(err as Error).message}`;
      }
    };
    preview();
    const body = h('div', { class: 'resource-body' });
    const row = h(
      'div',
      { class: 'template-row', 'data-template': t.uriTemplate },
      h('div', {}, h('strong', {}, t.title ?? t.name), ' ', h('code', {}, t.uriTemplate), t.mimeType ? ` ${t.mimeType}` : ''),
      t.description ? h('div', { class: 'note' }, t.description) : undefined,
      form?.el,
      expanded,
      h(
        'div',
        { class: 'row' },
        button('Read', () => this.readTemplate(t.uriTemplate, false), { secondary: true, name: 'read-template' }),
      ),
      body,
    );
    row.addEventListener('input', preview);
    row.addEventListener('change', preview);
    if (form) this.watchCompletions(row, form, { type: 'ref/resource', uri: t.uriTemplate }, preview);
    return row;
  }

  private promptRow(p: PromptView): HTMLElement {
    const form = p.arguments?.length ? new SchemaForm(promptArgumentsSchema(p), { jsonToggles: false }) : undefined;
    if (form) this.promptForms.set(p.name, form);
    const before = this.typed.get(`p:${p.name}`);
    if (form && before) form.setArgs(before);
    const row = h(
      'div',
      { class: 'prompt-row', 'data-prompt': p.name },
      h('div', {}, h('strong', {}, p.title ?? p.name), p.title ? h('code', {}, ` ${p.name}`) : undefined),
      p.description ? h('div', { class: 'note' }, p.description) : undefined,
      form ? form.el : h('div', { class: 'note' }, 'No arguments.'),
      h(
        'div',
        { class: 'row' },
        button('Get', () => this.getPrompt(p.name, false), { secondary: true, name: 'get-prompt' }),
      ),
      h('div', { class: 'prompt-body' }),
    );
    if (form) this.watchCompletions(row, form, { type: 'ref/prompt', name: p.name }, () => undefined);
    return row;
  }

  /**
   * Asks completion/complete for the field being typed in (or just entered), with the form's other values as context,
   * once typing pauses; the answer is shown under the field as suggestions to click.
   */
  private watchCompletions(row: HTMLElement, form: SchemaForm, ref: CompletionRef, changed: () => void): void {
    if (!this.completions) return;
    const ask = (ev: Event) => {
      const target = ev.target as HTMLElement | null;
      if (!target || target.closest('.suggestions')) return;
      const field = target.closest<HTMLElement>('.field[data-path]');
      const path = field?.dataset.path;
      if (!field || !path || path === '/' || field.classList.contains('root')) return;
      const name = path.slice(1).replace(/~1/g, '/').replace(/~0/g, '~');
      clearTimeout(this.completionTimers.get(field));
      this.completionTimers.set(
        field,
        setTimeout(() => {
          const { [name]: value = '', ...context } = stringValues(form);
          const requestId = ++this.completionSeq;
          this.latestCompletion.set(field, requestId);
          this.pendingCompletions.set(requestId, { field, form, name, changed });
          this.actions.post({ type: 'complete', requestId, ref, argument: name, value, context });
        }, 150),
      );
    };
    row.addEventListener('input', ask);
    row.addEventListener('focusin', ask);
  }

  onCompletion(m: Completion): void {
    const p = this.pendingCompletions.get(m.requestId);
    this.pendingCompletions.delete(m.requestId);
    if (!p || this.latestCompletion.get(p.field) !== m.requestId || !p.field.isConnected) return;
    p.field.querySelector(':scope > .suggestions')?.remove();
    if (!m.error && m.values.length === 0) return;
    const box = h('div', { class: 'suggestions', 'aria-label': `Suggestions for ${p.name} (completion/complete)` });
    if (m.error) box.append(h('span', { class: 'note' }, `completion/complete failed: ${m.error}`));
    else {
      box.append(h('span', { class: 'note' }, 'Suggestions:'));
      for (const v of m.values.slice(0, SUGGESTIONS_SHOWN)) {
        box.append(
          button(
            v,
            () => {
              p.form.setArgs({ ...p.form.getArgs(), [p.name]: v });
              box.remove();
              p.changed();
            },
            { secondary: true, name: 'suggestion', title: `Use ${v}` },
          ),
        );
      }
      const more = (m.total ?? m.values.length) - Math.min(m.values.length, SUGGESTIONS_SHOWN);
      if (more > 0 || m.hasMore) box.append(h('span', { class: 'note' }, more > 0 ? `and ${more} more: type to narrow` : 'and more: type to narrow'));
    }
    const control = p.field.querySelector(':scope > .control');
    if (control) control.after(box);
    else p.field.append(box);
  }

  private row(kind: 'template' | 'prompt', key: string): HTMLElement | null {
    return this.el.querySelector<HTMLElement>(kind === 'template' ? `.template-row[data-template="${CSS.escape(key)}"]` : `.prompt-row[data-prompt="${CSS.escape(key)}"]`);
  }

  readTemplate(uriTemplate: string, force: boolean): void {
    const form = this.templateForms.get(uriTemplate);
    form?.clearErrors();
    this.row('template', uriTemplate)
      ?.querySelector('.resource-body')
      ?.replaceChildren(h('div', { class: 'note' }, 'Reading…'));
    this.actions.post({ type: 'readTemplate', uriTemplate, values: stringValues(form), force });
  }

  getPrompt(name: string, force: boolean): void {
    const form = this.promptForms.get(name);
    form?.clearErrors();
    this.row('prompt', name)
      ?.querySelector('.prompt-body')
      ?.replaceChildren(h('div', { class: 'note' }, 'Getting…'));
    this.actions.post({ type: 'getPrompt', name, args: stringValues(form), force });
  }

  /** Brings the item the tree asked for into view: a resource is read, a prompt or template without inputs is fetched. */
  focus(focus: CatalogFocus): void {
    const el = this.el;
    const row = focus.resource
      ? el.querySelector<HTMLElement>(`.resource-row[data-uri="${CSS.escape(focus.resource)}"]`)
      : focus.template
        ? this.row('template', focus.template)
        : focus.prompt
          ? this.row('prompt', focus.prompt)
          : null;
    el.querySelectorAll('.focused').forEach((x) => x.classList.remove('focused'));
    if (!row) {
      el.prepend(h('div', { class: 'error' }, `${focus.resource ?? focus.template ?? focus.prompt} is no longer listed by the server.`));
      return;
    }
    row.classList.add('focused');
    row.scrollIntoView({ block: 'center' });
    if (focus.resource) this.actions.readResource(focus.resource);
    else if (focus.template) {
      const t = this.templates.find((x) => x.uriTemplate === focus.template);
      if (t && t.variables.length === 0) this.readTemplate(t.uriTemplate, false);
      else focusFirstField(row);
    } else if (focus.prompt) {
      const p = this.prompts.find((x) => x.name === focus.prompt);
      if (p && !p.arguments?.length) this.getPrompt(p.name, false);
      else focusFirstField(row);
    }
  }

  /** The Subscribe / Unsubscribe button of a resource row and its "updated" mark. */
  private renderSubscription(row: HTMLElement): void {
    const uri = row.dataset.uri ?? '';
    const slot = row.querySelector(':scope > .subscription');
    if (!slot) return;
    const subscribed = this.subscribed.has(uri);
    const updated = this.updatedAt.get(uri);
    row.classList.toggle('subscribed', subscribed);
    row.classList.toggle('updated', updated !== undefined);
    slot.replaceChildren(
      ...(this.canSubscribe
        ? [
            subscribed
              ? button('Unsubscribe', () => this.actions.post({ type: 'unsubscribe', uri }), { secondary: true, name: 'unsubscribe' })
              : button('Subscribe', () => this.actions.post({ type: 'subscribe', uri }), { secondary: true, name: 'subscribe', title: 'resources/subscribe: be told when it changes' }),
          ]
        : []),
      ...(updated !== undefined
        ? [
            h('span', { class: 'updated-mark', role: 'status' }, `updated at ${new Date(updated).toLocaleTimeString('en-GB', { hour12: false })}`),
            button(
              'Re-read',
              () => {
                this.updatedAt.delete(uri);
                this.renderSubscription(row);
                this.actions.readResource(uri);
              },
              { secondary: true, name: 're-read' },
            ),
          ]
        : []),
    );
  }

  private resourceRows(uri?: string): HTMLElement[] {
    return [...this.el.querySelectorAll<HTMLElement>(uri ? `.resource-row[data-uri="${CSS.escape(uri)}"]` : '.resource-row')];
  }

  onSubscriptions(m: { canSubscribe: boolean; uris: string[] }): void {
    this.canSubscribe = m.canSubscribe;
    this.subscribed = new Set(m.uris);
    for (const row of this.resourceRows()) this.renderSubscription(row);
  }

  /** notifications/resources/updated: the row is marked until it is read again. */
  onResourceUpdated(m: { uri: string; at: number }): void {
    this.updatedAt.set(m.uri, m.at);
    for (const row of this.resourceRows(m.uri)) this.renderSubscription(row);
  }

  /** Shows a read in its resource or template row; false when no row shows it (the caller puts it with the results). */
  onResourceRead(m: ResourceRead): boolean {
    if (m.template !== undefined) {
      const row = this.row('template', m.template);
      const body = row?.querySelector('.resource-body');
      if (!row || !body) return false;
      if (m.violations?.length) {
        this.templateForms.get(m.template)?.showViolations(m.violations);
        const anyway = button('Read anyway', () => this.readTemplate(m.template!, true), {
          secondary: true,
          name: 'read-template-anyway',
          title: 'Read the URI as it expands, to see what the server answers',
        });
        body.replaceChildren(this.problem(m.error ?? '', anyway));
      } else if (m.error) body.replaceChildren(this.problem(`resources/read ${m.uri} failed: ${m.error}`));
      else body.replaceChildren(h('div', { class: 'note' }, 'resources/read ', h('code', {}, m.uri)), readText(m, this.saveBlob));
      reveal(body);
      return true;
    }
    const row = this.resourceRows(m.uri)[0];
    const host = row?.querySelector('.resource-body');
    if (!row || !host) return false;
    if (this.updatedAt.delete(m.uri)) this.renderSubscription(row);
    host.replaceChildren(readText(m, this.saveBlob));
    return true;
  }

  /** Shows a prompts/get answer in its row; false when no row shows it. */
  onPromptGot(m: PromptGot): boolean {
    const body = this.row('prompt', m.name)?.querySelector('.prompt-body');
    if (!body) return false;
    if (m.violations?.length) this.promptForms.get(m.name)?.showViolations(m.violations);
    if (m.error) {
      const anyway = m.violations?.length
        ? button('Send anyway', () => this.getPrompt(m.name, true), { secondary: true, name: 'get-prompt-anyway', title: "Send the arguments as they are, to test the server's own checks" })
        : undefined;
      body.replaceChildren(this.problem(m.violations?.length ? m.error : `prompts/get failed: ${m.error}`, anyway));
      reveal(body);
      return true;
    }
    const actions = { copy: (text: string) => this.actions.copy(text), readResource: (uri: string) => this.actions.readResource(uri), saveBlob: this.saveBlob };
    body.replaceChildren(
      ...(m.description ? [h('div', { class: 'note' }, m.description)] : []),
      ...(m.messages.length ? [] : [h('div', { class: 'note' }, 'No messages.')]),
      ...m.messages.map((msg, i) => h('div', { class: 'prompt-message', 'data-role': msg.role, 'data-index': String(i) }, h('span', { class: 'role' }, msg.role), renderContent(msg.content, actions))),
      ...(m.raw ? [h('details', { class: 'raw' }, h('summary', {}, 'Raw prompts/get result'), h('pre', {}, m.raw))] : []),
    );
    reveal(body);
    return true;
  }

  private problem(message: string, action?: HTMLElement): HTMLElement {
    return h('div', { class: 'catalog-problem error', role: 'alert' }, h('div', { class: 'message' }, message), action ? h('div', { class: 'buttons' }, action) : undefined);
  }
}

/**
 * Scrolls an answer (read, messages, problem) into view: it lands under the Read/Get button, which in a real editor is
 * often at the bottom edge of the panel (the row is centred and then grows with suggestions), so it arrived unseen.
 * On the next frame: the answer's buttons (web components) have rendered by then and given it its full height.
 */
function reveal(body: Element): void {
  requestAnimationFrame(() => body.scrollIntoView({ block: 'nearest' }));
}

/** Puts the cursor in the row's first field, once the freshly made text field has rendered its input. */
function focusFirstField(row: HTMLElement): void {
  const field = row.querySelector<HTMLElement & { updateComplete?: Promise<unknown> }>('vscode-textfield');
  if (!field) return;
  void Promise.resolve(field.updateComplete).then(() => (field.shadowRoot?.querySelector('input') ?? field).focus());
}

/**
 * What resources/read returned: text as text, a text blob decoded (and said so), a binary blob by size with Save…
 * when the host kept it; annotations as tags.
 */
export function readText(m: ResourceRead, saveBlob?: (blobId: string) => void): HTMLElement {
  if (m.error) return h('pre', { class: 'resource-read', 'data-uri': m.uri }, m.error);
  const plain = m.contents.every((c) => c.type === 'resource' && typeof c.text === 'string' && !c.decodedFrom && !c.annotations);
  if (plain) return h('pre', { class: 'resource-read', 'data-uri': m.uri }, m.contents.map((c) => (c.type === 'resource' ? (c.text ?? '') : '')).join('\n'));
  const parts = m.contents.map((c) => {
    if (c.type !== 'resource') return h('div', {});
    const tags = [
      c.decodedFrom === 'blob' ? h('span', { class: 'note decoded' }, `blob (${c.mimeType}) decoded as UTF-8`) : undefined,
      c.annotations?.audience?.length ? h('span', { class: 'annotation audience' }, `for ${c.annotations.audience.join(' & ')}`) : undefined,
      c.annotations?.priority !== undefined ? h('span', { class: 'annotation priority' }, `priority ${c.annotations.priority}`) : undefined,
    ];
    if (typeof c.text === 'string') return h('div', { class: 'resource-content' }, ...tags, h('pre', {}, c.text));
    return h(
      'div',
      { class: 'resource-content binary' },
      ...tags,
      h('span', { class: 'note' }, `binary${c.mimeType ? ` (${c.mimeType})` : ''}, ${(c.blobBytes ?? 0).toLocaleString('en')} bytes `),
      c.blobId && saveBlob ? button('Save…', () => saveBlob(c.blobId!), { secondary: true, name: 'save-blob', title: 'Save the bytes to a file' }) : undefined,
    );
  });
  return h('div', { class: 'resource-read', 'data-uri': m.uri }, ...parts);
}
