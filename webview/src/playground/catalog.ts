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
      el.append(
        h(
          'div',
          { class: 'resource-row', 'data-uri': r.uri },
          h('strong', {}, r.title ?? r.name ?? r.uri),
          ' ',
          h('code', {}, r.uri),
          r.mimeType ? ` ${r.mimeType}` : '',
          button('Read', () => this.actions.readResource(r.uri), { secondary: true, name: 'read-resource' }),
          h('div', { class: 'resource-body' }),
        ),
      );
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
      else body.replaceChildren(h('div', { class: 'note' }, 'resources/read ', h('code', {}, m.uri)), readText(m));
      reveal(body);
      return true;
    }
    const host = this.el.querySelector(`.resource-row[data-uri="${CSS.escape(m.uri)}"] .resource-body`);
    if (!host) return false;
    host.replaceChildren(readText(m));
    return true;
  }

  onPromptGot(m: PromptGot): void {
    const body = this.row('prompt', m.name)?.querySelector('.prompt-body');
    if (!body) return;
    if (m.violations?.length) this.promptForms.get(m.name)?.showViolations(m.violations);
    if (m.error) {
      const anyway = m.violations?.length
        ? button('Send anyway', () => this.getPrompt(m.name, true), { secondary: true, name: 'get-prompt-anyway', title: "Send the arguments as they are, to test the server's own checks" })
        : undefined;
      body.replaceChildren(this.problem(m.violations?.length ? m.error : `prompts/get failed: ${m.error}`, anyway));
      reveal(body);
      return;
    }
    const actions = { copy: (text: string) => this.actions.copy(text), readResource: (uri: string) => this.actions.readResource(uri) };
    body.replaceChildren(
      ...(m.description ? [h('div', { class: 'note' }, m.description)] : []),
      ...(m.messages.length ? [] : [h('div', { class: 'note' }, 'No messages.')]),
      ...m.messages.map((msg, i) => h('div', { class: 'prompt-message', 'data-role': msg.role, 'data-index': String(i) }, h('span', { class: 'role' }, msg.role), renderContent(msg.content, actions))),
      ...(m.raw ? [h('details', { class: 'raw' }, h('summary', {}, 'Raw prompts/get result'), h('pre', {}, m.raw))] : []),
    );
    reveal(body);
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

/** What resources/read returned, as text (binary contents by size). */
export function readText(m: ResourceRead): HTMLElement {
  const text = m.error ?? m.contents.map((c) => (c.type === 'resource' ? (c.text ?? `binary, ${c.blobBytes} bytes`) : '')).join('\n');
  return h('pre', { class: 'resource-read', 'data-uri': m.uri }, text);
}
