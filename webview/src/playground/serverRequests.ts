/**
 * What the server asks of the developer, on top of the playground: a sampling/createMessage request (messages,
 * system prompt, model preferences, tools; the developer types the reply or refuses) and an elicitation/create
 * request (form mode drawn with the playground's schema form and checked by the host; URL mode shows the URL and
 * opens it only on a click). Each card stays until the host says the request ended.
 */
import type { CannedReply, ContentView, HostToWebview, ServerRequestView, Violation, WebviewToHost } from '../../../common/playground-messages';
import { SchemaForm } from '../form/index';
import { button, h, setDisabled } from '../form/dom';

type Field = HTMLElement & { value: string };

/** What a sampling card needs to be updated from outside (canned replies, the model's answer). */
interface SamplingParts {
  reply: Field;
  model: Field;
  canned: HTMLElement;
  ask: HTMLElement;
  stop: HTMLElement;
  modelNote: HTMLElement;
}

type Post = (m: WebviewToHost) => void;

export class ServerRequestsView {
  private readonly cards = new Map<string, { el: HTMLElement; form?: SchemaForm; errors: HTMLElement; sampling?: SamplingParts }>();
  private canned: CannedReply[] = [];
  private model: Omit<Extract<HostToWebview, { type: 'languageModel' }>, 'type'> = { available: false, reason: 'Checking for a language model…' };

  constructor(
    readonly el: HTMLElement,
    private readonly post: Post,
  ) {
    el.hidden = true;
  }

  show(r: ServerRequestView): void {
    if (this.cards.has(r.id)) return;
    const errors = h('div', { class: 'request-errors', role: 'alert' });
    let form: SchemaForm | undefined;
    const card = h('section', { class: `server-request request-${r.kind}`, 'data-request': r.id, 'aria-label': r.kind === 'sampling' ? 'Sampling request' : 'Elicitation request' });
    let sampling: SamplingParts | undefined;
    if (r.kind === 'sampling') {
      const reply = h('vscode-textarea', { class: 'sampling-reply', rows: '4', 'aria-label': 'Reply', placeholder: 'Type the reply the model would give' }) as Field;
      const model = h('vscode-textfield', { class: 'sampling-model', 'aria-label': 'Model name', value: 'toolsmith-playground (typed by hand)' }) as Field;
      const modelNote = h('span', { class: 'model-note', role: 'status' });
      const ask = button('Ask the model', () => this.askModel(r.id), { secondary: true, name: 'ask-model' });
      const stop = button('Stop', () => this.post({ type: 'stopModel', id: r.id }), { secondary: true, name: 'stop-model' });
      stop.hidden = true;
      sampling = { reply, model, canned: h('ul', { class: 'canned-replies', 'aria-label': 'Canned replies' }), ask, stop, modelNote };
      card.append(
        h('h3', {}, 'The server asks for a model reply ', h('code', {}, 'sampling/createMessage')),
        r.systemPrompt ? h('div', { class: 'system-prompt' }, h('strong', {}, 'System prompt: '), r.systemPrompt) : '',
        h(
          'ol',
          { class: 'sampling-messages' },
          ...r.messages.map((m) => h('li', { class: `role-${m.role}` }, h('span', { class: 'role' }, m.role), h('span', { class: 'text' }, contentText(m.content)))),
        ),
        h(
          'div',
          { class: 'sampling-params' },
          `maxTokens ${r.maxTokens}`,
          r.temperature !== undefined ? ` · temperature ${r.temperature}` : '',
          r.includeContext ? ` · includeContext ${r.includeContext}` : '',
          r.stopSequences?.length ? ` · stop ${r.stopSequences.map((x) => JSON.stringify(x)).join(', ')}` : '',
        ),
        r.modelPreferences ? h('details', { class: 'model-preferences' }, h('summary', {}, 'Model preferences'), h('pre', {}, r.modelPreferences)) : '',
        r.tools?.length
          ? h(
              'div',
              { class: 'sampling-tools' },
              h('strong', {}, `Tools offered to the model${r.toolChoice ? ` (toolChoice ${r.toolChoice})` : ''}: `),
              h('ul', {}, ...r.tools.map((t) => h('li', {}, h('code', {}, t.name), t.description ? ` ${t.description}` : ''))),
            )
          : '',
        h('div', { class: 'canned-box' }, h('strong', {}, 'Canned replies: '), sampling.canned),
        h('label', {}, 'Reply', reply),
        h('label', {}, 'Model', model),
        h('div', { class: 'model-row' }, ask, stop, modelNote),
        errors,
        h(
          'div',
          { class: 'buttons' },
          button('Send reply', () => this.post({ type: 'answerSampling', id: r.id, text: reply.value, model: model.value }), { name: 'send-reply' }),
          button('Save as canned reply', () => reply.value.trim() && this.post({ type: 'saveCannedReply', text: reply.value, model: model.value }), {
            secondary: true,
            name: 'save-canned',
            title: 'Keep this reply in the workspace to pick it again (secrets masked)',
          }),
          button('Reject', () => this.post({ type: 'rejectSampling', id: r.id }), { secondary: true, name: 'reject-sampling', title: 'Answer "User rejected sampling request" (-1)' }),
        ),
      );
    } else if (r.mode === 'form') {
      form = new SchemaForm(r.schema);
      const f = form;
      card.append(
        h('h3', {}, 'The server asks for input ', h('code', {}, 'elicitation/create')),
        h('p', { class: 'elicitation-message' }, r.message),
        form.el,
        errors,
        h(
          'div',
          { class: 'buttons' },
          button(
            'Accept',
            () => {
              f.clearErrors();
              const problems = f.problems();
              if (problems.length) {
                errors.textContent = `Fix the form first: ${problems.join('; ')}`;
                return;
              }
              errors.textContent = '';
              this.post({ type: 'answerElicitation', id: r.id, action: 'accept', content: f.getArgs() });
            },
            { name: 'accept-elicitation' },
          ),
          button('Decline', () => this.post({ type: 'answerElicitation', id: r.id, action: 'decline' }), { secondary: true, name: 'decline-elicitation' }),
          button('Cancel', () => this.post({ type: 'answerElicitation', id: r.id, action: 'cancel' }), { secondary: true, name: 'cancel-elicitation' }),
        ),
      );
    } else {
      card.append(
        h('h3', {}, 'The server asks you to open a URL ', h('code', {}, 'elicitation/create (url)')),
        h('p', { class: 'elicitation-message' }, r.message),
        // Shown as text, never as a live link: it opens only through the button below.
        h('div', { class: 'elicitation-url' }, h('code', {}, r.url)),
        errors,
        h(
          'div',
          { class: 'buttons' },
          button('Open URL', () => this.post({ type: 'openElicitationUrl', id: r.id }), { secondary: true, name: 'open-url', title: 'Open it in the browser' }),
          button('Accept', () => this.post({ type: 'answerElicitation', id: r.id, action: 'accept' }), { name: 'accept-elicitation' }),
          button('Decline', () => this.post({ type: 'answerElicitation', id: r.id, action: 'decline' }), { secondary: true, name: 'decline-elicitation' }),
          button('Cancel', () => this.post({ type: 'answerElicitation', id: r.id, action: 'cancel' }), { secondary: true, name: 'cancel-elicitation' }),
        ),
      );
    }
    card.append(h('details', { class: 'request-raw' }, h('summary', {}, 'Request params (JSON)'), h('pre', {}, r.raw)));
    this.cards.set(r.id, { el: card, form, errors, sampling });
    if (sampling) {
      this.renderCanned(sampling);
      this.renderModel(sampling);
    }
    this.el.append(card);
    this.el.hidden = false;
    card.scrollIntoView?.({ block: 'nearest' });
  }

  /** The workspace's canned replies changed: every open sampling card lists them. */
  onCannedReplies(replies: CannedReply[]): void {
    this.canned = replies;
    for (const c of this.cards.values()) if (c.sampling) this.renderCanned(c.sampling);
  }

  onLanguageModel(m: Extract<HostToWebview, { type: 'languageModel' }>): void {
    this.model = { available: m.available, name: m.name, reason: m.reason };
    for (const c of this.cards.values()) if (c.sampling) this.renderModel(c.sampling);
  }

  /** The model answered (filled in, to be read and sent by the developer) or could not. */
  onModelReply(m: Extract<HostToWebview, { type: 'modelReply' }>): void {
    const s = this.cards.get(m.id)?.sampling;
    if (!s) return;
    s.stop.hidden = true;
    this.renderModel(s);
    if (m.error !== undefined) {
      s.modelNote.textContent = `The model did not answer: ${m.error}`;
      return;
    }
    s.reply.value = m.text ?? '';
    s.model.value = m.model ?? '';
    s.modelNote.textContent = 'The model answered: read it, edit it if needed, then Send reply.';
  }

  private askModel(id: string): void {
    const s = this.cards.get(id)?.sampling;
    if (!s || !this.model.available) return;
    setDisabled(s.ask, true);
    s.stop.hidden = false;
    s.modelNote.textContent = `Asking ${this.model.name ?? 'the model'}…`;
    this.post({ type: 'askModel', id });
  }

  private renderCanned(s: SamplingParts): void {
    s.canned.replaceChildren(
      ...(this.canned.length
        ? this.canned.map((c) =>
            h(
              'li',
              {},
              button(
                c.text.length > 60 ? `${c.text.slice(0, 60)}…` : c.text,
                () => {
                  s.reply.value = c.text;
                  if (c.model) s.model.value = c.model;
                },
                { secondary: true, name: 'use-canned', title: c.text },
              ),
              button('×', () => this.post({ type: 'deleteCannedReply', text: c.text }), { secondary: true, name: 'delete-canned', title: 'Forget this canned reply' }),
            ),
          )
        : [h('li', { class: 'note' }, 'none yet: "Save as canned reply" keeps one for this workspace')]),
    );
  }

  private renderModel(s: SamplingParts): void {
    setDisabled(s.ask, !this.model.available);
    s.ask.setAttribute('title', this.model.available ? `Ask ${this.model.name ?? 'the language model'} (VS Code asks your consent the first time)` : `Unavailable: ${this.model.reason ?? ''}`);
    if (!this.model.available) s.modelNote.textContent = `Ask the model is unavailable: ${this.model.reason ?? 'no language model'}`;
    else if (s.modelNote.textContent?.startsWith('Ask the model is unavailable')) s.modelNote.textContent = '';
  }

  violations(id: string, violations: Violation[]): void {
    const c = this.cards.get(id);
    if (!c) return;
    c.form?.showViolations(violations);
    c.errors.textContent = `The answer does not match the requestedSchema (${violations.length} problem${violations.length === 1 ? '' : 's'}); nothing was sent.`;
  }

  /** The request is over: its card goes, with a line saying how it ended. */
  ended(id: string, reason: string): void {
    const c = this.cards.get(id);
    if (!c) return;
    this.cards.delete(id);
    c.el.replaceChildren(h('p', { class: 'request-ended', role: 'status' }, reason));
    c.el.classList.add('ended');
    setTimeout(() => {
      c.el.remove();
      if (this.el.childElementCount === 0) this.el.hidden = true;
    }, 4000);
  }
}

function contentText(c: ContentView): string {
  switch (c.type) {
    case 'text':
      return c.text;
    case 'image':
    case 'audio':
      return `[${c.type} ${c.mimeType}]`;
    case 'unknown':
      return c.json;
    default:
      return JSON.stringify(c);
  }
}
