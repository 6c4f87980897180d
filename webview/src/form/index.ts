/**
 * The arguments form of one tool: a field tree generated from the inputSchema, a whole-form Raw JSON mode,
 * and routing of validation messages (JSON pointers) to the field they are about.
 */
import { Field } from './editors';
import { h } from './dom';
import type { Schema } from './schema';

export interface FormViolation {
  path: string;
  message: string;
}

export class SchemaForm {
  readonly el: HTMLElement;
  private readonly root: Field;
  private readonly raw: HTMLElement & { value: string; rows: number };
  private readonly rawError: HTMLElement;
  private readonly topErrors: HTMLElement;
  private rawMode = false;

  constructor(
    readonly schema: Schema,
    options: { jsonToggles?: boolean } = {},
  ) {
    const rootSchema: Schema = schema && typeof schema === 'object' ? schema : {};
    // The arguments are always an object, even when the schema forgets to say so.
    const normalized = rootSchema.type === undefined && !rootSchema.anyOf && !rootSchema.oneOf ? { type: 'object', properties: {}, ...rootSchema } : rootSchema;
    this.root = new Field({ root: normalized, jsonToggles: options.jsonToggles }, normalized, { required: true, path: '' });
    this.root.el.classList.add('root');
    this.raw = h('vscode-textarea', { class: 'raw-json', rows: '10', spellcheck: 'false', 'aria-label': 'Arguments as JSON' }) as HTMLElement & { value: string; rows: number };
    this.rawError = h('div', { class: 'error', role: 'alert' });
    this.topErrors = h('div', { class: 'form-errors', role: 'alert' });
    const rawBox = h('div', { class: 'raw-box', hidden: true }, this.raw, this.rawError);
    this.el = h('div', { class: 'schema-form' }, this.topErrors, this.root.el, rawBox);
  }

  get isRaw(): boolean {
    return this.rawMode;
  }

  /** Switches between the fields and one JSON text of the whole arguments; false when the JSON does not parse. */
  setRaw(on: boolean): boolean {
    if (on === this.rawMode) return true;
    const rawBox = this.el.querySelector('.raw-box') as HTMLElement;
    if (on) {
      this.raw.value = JSON.stringify(this.getArgs(), null, 2);
      this.raw.rows = Math.min(24, Math.max(6, this.raw.value.split('\n').length + 1));
    } else {
      const parsed = this.parseRaw();
      if (!parsed.ok) {
        this.rawError.textContent = parsed.error;
        return false;
      }
      this.root.set(parsed.value);
    }
    this.rawError.textContent = '';
    this.rawMode = on;
    rawBox.hidden = !on;
    this.root.el.hidden = on;
    return true;
  }

  private parseRaw(): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
    const t = this.raw.value.trim();
    if (t === '') return { ok: true, value: {} };
    try {
      const v: unknown = JSON.parse(t);
      if (!v || typeof v !== 'object' || Array.isArray(v)) return { ok: false, error: 'The arguments must be a JSON object.' };
      return { ok: true, value: v as Record<string, unknown> };
    } catch (err) {
      return { ok: false, error: `Not valid JSON: ${(err as Error).message}` };
    }
  }

  /** The arguments exactly as they will be sent: empty optional fields omitted. */
  getArgs(): Record<string, unknown> {
    if (this.rawMode) {
      const p = this.parseRaw();
      return p.ok ? p.value : {};
    }
    const v = this.root.get();
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  }

  setArgs(args: Record<string, unknown>): void {
    if (this.rawMode) this.raw.value = JSON.stringify(args, null, 2);
    else this.root.set(args);
  }

  /** Problems found without the schema validator (JSON that does not parse...). */
  problems(): string[] {
    if (this.rawMode) {
      const p = this.parseRaw();
      if (!p.ok) {
        this.rawError.textContent = p.error;
        return [p.error];
      }
      return [];
    }
    return this.root.problems();
  }

  clearErrors(): void {
    this.root.clearErrors();
    this.topErrors.replaceChildren();
    this.rawError.textContent = '';
  }

  /** Shows each message at the deepest field its JSON pointer reaches; the rest goes on top of the form. */
  showViolations(violations: FormViolation[]): void {
    this.clearErrors();
    for (const v of violations) {
      const segs = v.path.split('/').slice(1);
      let field: Field = this.root;
      let i = 0;
      for (; i < segs.length; i++) {
        const next = field.child(segs[i]);
        if (!next) break;
        field = next;
      }
      const rest = segs.slice(i).join('/');
      const message = rest ? `${rest}: ${v.message}` : v.message;
      if (field === this.root || this.rawMode) this.topErrors.append(h('div', {}, `${v.path || 'arguments'}: ${v.message}`));
      else field.showError(message);
    }
  }
}
