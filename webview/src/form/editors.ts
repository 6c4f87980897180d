/**
 * One editor per schema construct, built from @vscode-elements/elements. Every editor reads and writes plain
 * JSON values; `undefined` means "left empty", which the enclosing object omits from the arguments.
 */
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-label/index.js';
import '@vscode-elements/elements/dist/vscode-form-helper/index.js';
import { classify, fits, type Model, type Option, type Schema } from './schema';
import { button, h } from './dom';

type TextField = HTMLElement & { value: string; type: string; placeholder?: string; min?: number; max?: number; step?: number; invalid: boolean };
type TextArea = HTMLElement & { value: string; rows: number; invalid: boolean };
type Checkbox = HTMLElement & { checked: boolean; label: string; disabled: boolean };
type Select = HTMLElement & { value: string; disabled: boolean };

export interface Ctx {
  root: Schema;
  /** false: no per-field "{ }" switch to JSON (flat string forms such as prompt arguments have no use for it). */
  jsonToggles?: boolean;
}

export interface Editor {
  readonly el: HTMLElement;
  get(): unknown;
  set(v: unknown): void;
  /** The field under this editor for one JSON-pointer segment (error routing). */
  child(seg: string): Field | undefined;
  setPath(p: string): void;
  /** Local problems (unparsable JSON...) that block a normal call. */
  problems(): string[];
}

const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const unesc = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');

/** A pattern longer than this is cut in the type hint (the field's tooltip has it whole). */
const PATTERN_SHOWN = 40;

function typeHint(m: Model, s: Schema): string {
  switch (m.kind) {
    case 'string': {
      const bits = [m.format ?? 'string'];
      if (m.minLength !== undefined || m.maxLength !== undefined) bits.push(`${m.minLength ?? 0}–${m.maxLength ?? '∞'} chars`);
      // zod puts its own regex for a format beside it (an email's is 150 characters): the format's name says it.
      if (m.pattern && !m.format) bits.push(m.pattern.length > PATTERN_SHOWN ? `pattern ${m.pattern.slice(0, PATTERN_SHOWN)}…` : `pattern ${m.pattern}`);
      return bits.join(' · ');
    }
    case 'number':
    case 'integer': {
      const lo = m.exclusiveMinimum !== undefined ? `> ${m.exclusiveMinimum}` : m.minimum !== undefined ? `≥ ${m.minimum}` : '';
      const hi = m.exclusiveMaximum !== undefined ? `< ${m.exclusiveMaximum}` : m.maximum !== undefined ? `≤ ${m.maximum}` : '';
      return [m.kind, lo, hi, m.multipleOf !== undefined ? `multiple of ${m.multipleOf}` : ''].filter(Boolean).join(' · ');
    }
    case 'enum':
      return 'one of';
    case 'multiselect':
      return 'any of';
    case 'array':
      return `array${m.minItems !== undefined || m.maxItems !== undefined ? ` · ${m.minItems ?? 0}–${m.maxItems ?? '∞'} items` : ''}`;
    case 'nullable':
      return 'nullable';
    case 'union':
      return 'one of these shapes';
    case 'json':
      return `JSON (${m.reason})`;
    default:
      return typeof s.type === 'string' ? s.type : m.kind;
  }
}

/**
 * A labelled field: name, required mark, type hint, description, error line, and a switch to edit the
 * value as JSON (the fallback for anything the structured editor cannot express).
 */
export class Field {
  readonly el: HTMLElement;
  private editor: Editor;
  private json: JsonEditor | undefined;
  private readonly control: HTMLElement;
  private readonly errorEl: HTMLElement;
  private path = '';
  readonly model: Model;

  constructor(
    private readonly ctx: Ctx,
    readonly schema: Schema,
    readonly opts: { name?: string; required: boolean; path: string; extraHead?: HTMLElement[] },
  ) {
    this.model = classify(schema, ctx.root);
    this.editor = createEditor(this.model, schema, ctx, opts.required, opts.name);
    const s = this.resolved();
    const title = typeof s.title === 'string' ? s.title : undefined;
    const head = h(
      'div',
      { class: 'head' },
      opts.name !== undefined ? h('vscode-label', { class: 'name', required: opts.required }, opts.name) : undefined,
      title && title !== opts.name ? h('span', { class: 'title' }, title) : undefined,
      h('span', { class: 'hint', title: this.model.kind === 'string' && this.model.pattern ? `pattern ${this.model.pattern}` : undefined }, typeHint(this.model, s)),
      ...(opts.extraHead ?? []),
    );
    if (this.model.kind !== 'json' && ctx.jsonToggles !== false) {
      head.append(button('{ }', () => this.toggleJson(), { secondary: true, title: 'Edit this value as JSON', name: 'json-toggle' }));
    }
    this.control = h('div', { class: 'control' }, this.editor.el);
    this.errorEl = h('div', { class: 'error', role: 'alert' });
    const desc = typeof s.description === 'string' ? h('vscode-form-helper', { class: 'help' }, s.description) : undefined;
    this.el = h('div', { class: `field kind-${this.model.kind}` }, head, this.control, desc, this.errorEl);
    this.setPath(opts.path);
    if (s.default !== undefined && s.default !== null) this.editor.set(s.default);
  }

  private resolved(): Schema {
    // Title/description may sit on the $ref wrapper or on the target.
    const r = this.schema;
    if (typeof r.$ref === 'string') {
      const target = this.ctx.root && resolveRef(r.$ref, this.ctx.root);
      return { ...(target ?? {}), ...r };
    }
    return r;
  }

  get isJson(): boolean {
    return this.json !== undefined;
  }

  toggleJson(): void {
    if (this.json) {
      const problems = this.json.problems();
      if (problems.length) {
        this.showError(problems[0]);
        return;
      }
      const v = this.json.get();
      this.json = undefined;
      this.control.replaceChildren(this.editor.el);
      this.editor.set(v);
    } else {
      const v = this.editor.get();
      this.json = new JsonEditor();
      this.json.set(v);
      this.control.replaceChildren(this.json.el);
    }
    this.el.classList.toggle('as-json', !!this.json);
  }

  get(): unknown {
    return (this.json ?? this.editor).get();
  }
  set(v: unknown): void {
    (this.json ?? this.editor).set(v);
  }
  problems(): string[] {
    const p = (this.json ?? this.editor).problems();
    if (p.length) this.showError(p[0]);
    return p.map((x) => `${this.path || '(arguments)'}: ${x}`);
  }
  child(seg: string): Field | undefined {
    return this.json ? undefined : this.editor.child(seg);
  }
  setPath(p: string): void {
    this.path = p;
    this.el.dataset.path = p;
    this.editor.setPath(p);
  }
  showError(message: string): void {
    const line = h('div', {}, message);
    this.errorEl.append(line);
    this.el.classList.add('invalid');
  }
  clearErrors(): void {
    this.errorEl.replaceChildren();
    this.el.classList.remove('invalid');
    for (const f of this.el.querySelectorAll('.field.invalid')) {
      f.classList.remove('invalid');
      f.querySelector(':scope > .error')?.replaceChildren();
    }
  }
}

function resolveRef(ref: string, root: Schema): Schema | undefined {
  if (!ref.startsWith('#')) return undefined;
  let t: unknown = root;
  for (const seg of ref.slice(1).split('/').filter(Boolean)) t = t && typeof t === 'object' ? (t as Schema)[unesc(decodeURIComponent(seg))] : undefined;
  return t && typeof t === 'object' ? (t as Schema) : undefined;
}

/** `name`: the field's, for the editors that label their control with it (a checkbox). */
function createEditor(m: Model, schema: Schema, ctx: Ctx, required: boolean, name?: string): Editor {
  switch (m.kind) {
    case 'string':
      return new StringEditor(m);
    case 'number':
    case 'integer':
      return new NumberEditor(m);
    case 'boolean':
      return new BooleanEditor(required || schema.default !== undefined, name);
    case 'enum':
      return new EnumEditor(m.options, required);
    case 'multiselect':
      return new MultiSelectEditor(m.options, required);
    case 'array':
      return new ArrayEditor(ctx, m.items, required);
    case 'object':
      return new ObjectEditor(ctx, m.properties, required);
    case 'record':
      return new RecordEditor(ctx, m.values, required);
    case 'nullable':
      return new NullableEditor(ctx, m.inner, required);
    case 'union':
      return new UnionEditor(ctx, m.variants, required);
    case 'json':
      return new JsonEditor();
  }
}

// --- scalars -----------------------------------------------------------------------------------------------------

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
function offset(d: Date): string {
  const o = -d.getTimezoneOffset();
  if (o === 0) return 'Z';
  const a = Math.abs(o);
  return `${o > 0 ? '+' : '-'}${pad(Math.floor(a / 60))}:${pad(a % 60)}`;
}

class StringEditor implements Editor {
  readonly el: HTMLElement;
  private readonly input: TextField;
  constructor(private readonly m: Extract<Model, { kind: 'string' }>) {
    this.input = h('vscode-textfield', {});
    const f = m.format;
    // Formats get the input that fits them; the value is converted to the exact JSON Schema format on read.
    if (f === 'email') this.input.type = 'email';
    else if (f === 'uri' || f === 'url' || f === 'uri-reference') this.input.type = 'url';
    else if (f === 'date') this.input.type = 'date';
    else if (f === 'date-time' || f === 'time') {
      this.input.type = f === 'time' ? 'time' : 'datetime-local';
      this.input.setAttribute('step', '1');
    } else if (f === 'password') this.input.type = 'password';
    if (f === 'uuid') this.input.placeholder = '00000000-0000-4000-8000-000000000000';
    else if (f === 'email') this.input.placeholder = 'name@example.com';
    else if (f === 'uri' || f === 'url') this.input.placeholder = 'https://';
    const extras: HTMLElement[] = [];
    if (f === 'uuid') extras.push(button('New UUID', () => (this.input.value = crypto.randomUUID()), { secondary: true, name: 'uuid' }));
    if (f === 'date-time') {
      extras.push(button('Now', () => this.set(new Date().toISOString().replace(/\.\d+Z$/, 'Z')), { secondary: true, name: 'now' }));
    }
    this.el = h('div', { class: 'row' }, this.input, ...extras);
  }
  get(): unknown {
    const v = this.input.value;
    if (v === '') return undefined;
    if (this.m.format === 'date-time') {
      // datetime-local gives local "YYYY-MM-DDTHH:MM[:SS]"; send RFC 3339 in UTC ("Z"), which every validator accepts.
      const d = new Date(/T\d\d:\d\d$/.test(v) ? `${v}:00` : v);
      return Number.isNaN(d.getTime()) ? v : d.toISOString().replace(/\.000Z$/, 'Z');
    }
    if (this.m.format === 'time') {
      const full = /^\d\d:\d\d$/.test(v) ? `${v}:00` : v;
      return `${full}${offset(new Date())}`;
    }
    return v;
  }
  set(v: unknown): void {
    if (v === undefined || v === null) {
      this.input.value = '';
      return;
    }
    let s = typeof v === 'string' ? v : JSON.stringify(v);
    if (this.m.format === 'date-time') {
      const d = new Date(s);
      if (!Number.isNaN(d.getTime())) s = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
    } else if (this.m.format === 'time') {
      const m = /^(\d\d:\d\d(:\d\d)?)/.exec(s);
      if (m) s = m[1];
    }
    this.input.value = s;
  }
  child(): undefined {
    return undefined;
  }
  setPath(): void {}
  problems(): string[] {
    return [];
  }
}

class NumberEditor implements Editor {
  readonly el: HTMLElement;
  private readonly input: TextField;
  private readonly note: HTMLElement;
  constructor(private readonly m: Extract<Model, { kind: 'number' | 'integer' }>) {
    this.input = h('vscode-textfield', { type: 'number' });
    const lo = m.minimum ?? m.exclusiveMinimum;
    const hi = m.maximum ?? m.exclusiveMaximum;
    if (lo !== undefined) this.input.setAttribute('min', String(lo));
    if (hi !== undefined) this.input.setAttribute('max', String(hi));
    this.input.setAttribute('step', m.multipleOf !== undefined ? String(m.multipleOf) : m.kind === 'integer' ? '1' : 'any');
    this.note = h('span', { class: 'inline-note' });
    // Integers refuse decimals as soon as they are typed, not only at send time.
    this.input.addEventListener('input', () => this.check());
    this.el = h('div', { class: 'row' }, this.input, this.note);
  }
  private check(): void {
    const v = this.get();
    const bad = this.m.kind === 'integer' && typeof v === 'number' && !Number.isInteger(v);
    this.input.invalid = bad;
    this.note.textContent = bad ? 'must be an integer (no decimals)' : '';
  }
  get(): unknown {
    const raw = this.input.value.trim();
    if (raw === '') return undefined;
    const n = Number(raw);
    return Number.isFinite(n) ? n : raw;
  }
  set(v: unknown): void {
    this.input.value = v === undefined || v === null ? '' : String(v);
    this.check();
  }
  child(): undefined {
    return undefined;
  }
  setPath(): void {}
  problems(): string[] {
    const raw = this.input.value.trim();
    return raw !== '' && !Number.isFinite(Number(raw)) ? [`"${raw}" is not a number`] : [];
  }
}

class BooleanEditor implements Editor {
  readonly el: HTMLElement;
  private readonly box?: Checkbox;
  private readonly select?: Select;
  private current = '';
  constructor(twoState: boolean, name?: string) {
    if (twoState) {
      // Labelled with the field, so "☐ verbose" reads as what it sets (not "☐ true").
      this.box = h('vscode-checkbox', { label: name ?? 'true' });
      this.el = this.box;
    } else {
      // An optional boolean without default has three states: unset (omitted), true, false.
      this.select = h('vscode-single-select', {}, h('vscode-option', { value: '' }, '(not set)'), h('vscode-option', { value: 'true' }, 'true'), h('vscode-option', { value: 'false' }, 'false'));
      this.select.addEventListener('change', () => (this.current = this.select!.value));
      this.el = this.select;
    }
  }
  get(): unknown {
    if (this.box) return this.box.checked;
    return this.current === '' ? undefined : this.current === 'true';
  }
  set(v: unknown): void {
    if (this.box) this.box.checked = v === true;
    else {
      this.current = v === true ? 'true' : v === false ? 'false' : '';
      this.select!.value = this.current;
      requestAnimationFrame(() => {
        if (this.select!.value !== this.current) this.select!.value = this.current;
      });
    }
  }
  child(): undefined {
    return undefined;
  }
  setPath(): void {}
  problems(): string[] {
    return [];
  }
}

class EnumEditor implements Editor {
  readonly el: Select;
  /**
   * The chosen option index as a string ('' = none), kept here: the component applies a value set before its
   * options are slotted in only later, and a call right after a history re-run must not read it half-updated.
   */
  private current = '';
  constructor(
    private readonly options: Option[],
    private readonly required: boolean,
  ) {
    this.el = h('vscode-single-select', {});
    this.el.append(h('vscode-option', { value: '' }, required ? '(choose)' : '(not set)'));
    options.forEach((o, i) => this.el.append(h('vscode-option', { value: String(i) }, o.label)));
    this.el.addEventListener('change', () => (this.current = this.el.value));
    // A required single choice (a discriminator const) has nothing to choose: take it.
    if (required && options.length === 1) this.choose('0');
  }
  private choose(v: string): void {
    this.current = v;
    this.el.value = v;
    // Options arrive through a slot: apply again once the component has seen them.
    requestAnimationFrame(() => {
      if (this.el.value !== this.current) this.el.value = this.current;
    });
  }
  get(): unknown {
    return this.current === '' ? undefined : this.options[Number(this.current)]?.value;
  }
  set(v: unknown): void {
    const i = this.options.findIndex((o) => JSON.stringify(o.value) === JSON.stringify(v));
    if (v === undefined && this.required && this.options.length === 1) this.choose('0');
    else this.choose(v === undefined || i < 0 ? '' : String(i));
  }
  child(): undefined {
    return undefined;
  }
  setPath(): void {}
  problems(): string[] {
    return [];
  }
}

class MultiSelectEditor implements Editor {
  readonly el: HTMLElement;
  private readonly boxes: Checkbox[];
  constructor(
    private readonly options: Option[],
    private readonly required: boolean,
  ) {
    this.boxes = options.map((o) => h('vscode-checkbox', { label: o.label }) as Checkbox);
    this.el = h('div', { class: 'multi' }, ...this.boxes);
  }
  get(): unknown {
    const picked = this.options.filter((_, i) => this.boxes[i].checked).map((o) => o.value);
    return picked.length === 0 && !this.required ? undefined : picked;
  }
  set(v: unknown): void {
    const values = Array.isArray(v) ? v.map((x) => JSON.stringify(x)) : [];
    this.options.forEach((o, i) => (this.boxes[i].checked = values.includes(JSON.stringify(o.value))));
  }
  child(): undefined {
    return undefined;
  }
  setPath(): void {}
  problems(): string[] {
    return [];
  }
}

export class JsonEditor implements Editor {
  readonly el: TextArea;
  constructor() {
    this.el = h('vscode-textarea', { class: 'json', rows: '3', placeholder: 'JSON value', spellcheck: 'false' }) as TextArea;
  }
  get(): unknown {
    const t = this.el.value.trim();
    if (t === '') return undefined;
    try {
      return JSON.parse(t);
    } catch {
      return undefined;
    }
  }
  set(v: unknown): void {
    this.el.value = v === undefined ? '' : JSON.stringify(v, null, 2);
    this.el.rows = Math.min(12, Math.max(3, this.el.value.split('\n').length));
  }
  child(): undefined {
    return undefined;
  }
  setPath(): void {}
  problems(): string[] {
    const t = this.el.value.trim();
    if (t === '') return [];
    try {
      JSON.parse(t);
      return [];
    } catch (err) {
      return [`not valid JSON (${(err as Error).message})`];
    }
  }
}

// --- structures --------------------------------------------------------------------------------------------------

export class ObjectEditor implements Editor {
  readonly el: HTMLElement;
  readonly fields = new Map<string, Field>();
  constructor(
    ctx: Ctx,
    properties: { name: string; schema: Schema; required: boolean }[],
    private readonly required: boolean,
  ) {
    this.el = h('div', { class: 'object' });
    for (const p of properties) {
      const f = new Field(ctx, p.schema, { name: p.name, required: p.required, path: '' });
      this.fields.set(p.name, f);
      this.el.append(f.el);
    }
    if (properties.length === 0) this.el.append(h('div', { class: 'empty' }, 'No parameters.'));
  }
  get(): unknown {
    const out: Record<string, unknown> = {};
    for (const [name, f] of this.fields) {
      const v = f.get();
      if (v !== undefined) out[name] = v;
    }
    return Object.keys(out).length === 0 && !this.required ? undefined : out;
  }
  set(v: unknown): void {
    const o = v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
    for (const [name, f] of this.fields) f.set(o[name]);
  }
  child(seg: string): Field | undefined {
    return this.fields.get(unesc(seg));
  }
  setPath(p: string): void {
    for (const [name, f] of this.fields) f.setPath(`${p}/${esc(name)}`);
  }
  problems(): string[] {
    return [...this.fields.values()].flatMap((f) => f.problems());
  }
}

class ArrayEditor implements Editor {
  readonly el: HTMLElement;
  private readonly list: HTMLElement;
  private items: Field[] = [];
  private path = '';
  constructor(
    private readonly ctx: Ctx,
    private readonly itemSchema: Schema,
    private readonly required: boolean,
  ) {
    this.list = h('div', { class: 'items' });
    this.el = h(
      'div',
      { class: 'array' },
      this.list,
      button('Add item', () => this.add(), { secondary: true, name: 'add-item' }),
    );
  }
  private add(value?: unknown): Field {
    const controls: HTMLElement[] = [];
    const f = new Field(this.ctx, this.itemSchema, { required: true, path: '', extraHead: controls });
    controls.push(
      button('↑', () => this.move(f, -1), { secondary: true, title: 'Move up', name: 'move-up' }),
      button('↓', () => this.move(f, 1), { secondary: true, title: 'Move down', name: 'move-down' }),
      button('✕', () => this.remove(f), { secondary: true, title: 'Remove item', name: 'remove-item' }),
    );
    f.el.querySelector(':scope > .head')?.append(...controls);
    f.el.classList.add('item');
    if (value !== undefined) f.set(value);
    this.items.push(f);
    this.list.append(f.el);
    this.renumber();
    return f;
  }
  private move(f: Field, by: number): void {
    const i = this.items.indexOf(f);
    const j = i + by;
    if (i < 0 || j < 0 || j >= this.items.length) return;
    [this.items[i], this.items[j]] = [this.items[j], this.items[i]];
    this.list.replaceChildren(...this.items.map((x) => x.el));
    this.renumber();
  }
  private remove(f: Field): void {
    this.items = this.items.filter((x) => x !== f);
    f.el.remove();
    this.renumber();
  }
  private renumber(): void {
    this.items.forEach((f, i) => {
      f.setPath(`${this.path}/${i}`);
      const head = f.el.querySelector(':scope > .head');
      let idx = head?.querySelector(':scope > .index');
      if (head && !idx) {
        idx = h('span', { class: 'index' });
        head.prepend(idx);
      }
      if (idx) idx.textContent = `#${i + 1}`;
    });
  }
  get(): unknown {
    // An item left empty adds nothing rather than a hole.
    const values = this.items.map((f) => f.get()).filter((v) => v !== undefined);
    return values.length === 0 && !this.required ? undefined : values;
  }
  set(v: unknown): void {
    this.items = [];
    this.list.replaceChildren();
    if (Array.isArray(v)) for (const x of v) this.add(x);
  }
  child(seg: string): Field | undefined {
    return this.items[Number(seg)];
  }
  setPath(p: string): void {
    this.path = p;
    this.renumber();
  }
  problems(): string[] {
    return this.items.flatMap((f) => f.problems());
  }
}

class RecordEditor implements Editor {
  readonly el: HTMLElement;
  private readonly list: HTMLElement;
  private rows: { key: TextField; field: Field; el: HTMLElement }[] = [];
  private path = '';
  constructor(
    private readonly ctx: Ctx,
    private readonly valueSchema: Schema,
    private readonly required: boolean,
  ) {
    this.list = h('div', { class: 'entries' });
    this.el = h(
      'div',
      { class: 'record' },
      this.list,
      button('Add entry', () => this.add(), { secondary: true, name: 'add-entry' }),
    );
  }
  private add(key = '', value?: unknown): void {
    const keyInput = h('vscode-textfield', { placeholder: 'key', class: 'key' }) as TextField;
    keyInput.value = key;
    const field = new Field(this.ctx, this.valueSchema, { required: true, path: '' });
    const row = { key: keyInput, field, el: h('div', { class: 'entry' }) };
    row.el.append(
      keyInput,
      field.el,
      button('✕', () => this.remove(row), { secondary: true, title: 'Remove entry', name: 'remove-entry' }),
    );
    keyInput.addEventListener('input', () => this.renumber());
    if (value !== undefined) field.set(value);
    this.rows.push(row);
    this.list.append(row.el);
    this.renumber();
  }
  private remove(row: (typeof this.rows)[number]): void {
    this.rows = this.rows.filter((r) => r !== row);
    row.el.remove();
  }
  private renumber(): void {
    for (const r of this.rows) r.field.setPath(`${this.path}/${esc(r.key.value)}`);
  }
  get(): unknown {
    const out: Record<string, unknown> = {};
    for (const r of this.rows) {
      const k = r.key.value;
      const v = r.field.get();
      if (k !== '' && v !== undefined) out[k] = v;
    }
    return Object.keys(out).length === 0 && !this.required ? undefined : out;
  }
  set(v: unknown): void {
    this.rows = [];
    this.list.replaceChildren();
    if (v && typeof v === 'object' && !Array.isArray(v)) for (const [k, x] of Object.entries(v)) this.add(k, x);
  }
  child(seg: string): Field | undefined {
    return this.rows.find((r) => r.key.value === unesc(seg))?.field;
  }
  setPath(p: string): void {
    this.path = p;
    this.renumber();
  }
  problems(): string[] {
    return this.rows.flatMap((r) => r.field.problems());
  }
}

class NullableEditor implements Editor {
  readonly el: HTMLElement;
  private readonly inner: Editor;
  private readonly nullBox: Checkbox;
  constructor(ctx: Ctx, inner: Schema, required: boolean) {
    this.inner = createEditor(classify(inner, ctx.root), inner, ctx, required);
    this.nullBox = h('vscode-checkbox', { label: 'null', class: 'null-toggle' });
    this.nullBox.addEventListener('change', () => this.el.classList.toggle('is-null', this.nullBox.checked));
    this.el = h('div', { class: 'nullable' }, this.inner.el, this.nullBox);
  }
  get(): unknown {
    // null only when asked for explicitly; an empty field is omitted like any other.
    return this.nullBox.checked ? null : this.inner.get();
  }
  set(v: unknown): void {
    this.nullBox.checked = v === null;
    this.el.classList.toggle('is-null', v === null);
    this.inner.set(v === null ? undefined : v);
  }
  child(seg: string): Field | undefined {
    return this.inner.child(seg);
  }
  setPath(p: string): void {
    this.inner.setPath(p);
  }
  problems(): string[] {
    return this.nullBox.checked ? [] : this.inner.problems();
  }
}

class UnionEditor implements Editor {
  readonly el: HTMLElement;
  private readonly picker: Select;
  private readonly slot: HTMLElement;
  private inner: Editor | undefined;
  private path = '';
  constructor(
    private readonly ctx: Ctx,
    private readonly variants: { label: string; schema: Schema }[],
    private readonly required: boolean,
  ) {
    this.picker = h('vscode-single-select', { class: 'variant' });
    this.picker.append(h('vscode-option', { value: '' }, required ? '(choose a variant)' : '(not set)'));
    variants.forEach((v, i) => this.picker.append(h('vscode-option', { value: String(i) }, v.label)));
    this.picker.addEventListener('change', () => this.pick(this.picker.value === '' ? -1 : Number(this.picker.value)));
    this.slot = h('div', { class: 'variant-body' });
    this.el = h('div', { class: 'union' }, this.picker, this.slot);
  }
  private pick(i: number, value?: unknown): void {
    const previous = this.inner?.get();
    this.inner = undefined;
    this.slot.replaceChildren();
    if (i < 0) return;
    const s = this.variants[i].schema;
    this.inner = createEditor(classify(s, this.ctx.root), s, this.ctx, true);
    this.inner.setPath(this.path);
    this.slot.append(this.inner.el);
    const keep = value !== undefined ? value : previous;
    if (keep !== undefined && fits(keep, s, this.ctx.root)) this.inner.set(keep);
    else if (s.default !== undefined) this.inner.set(s.default);
  }
  get(): unknown {
    return this.inner?.get();
  }
  set(v: unknown): void {
    if (v === undefined) {
      this.picker.value = '';
      this.pick(-1);
      return;
    }
    const i = this.variants.findIndex((x) => fits(v, x.schema, this.ctx.root));
    this.picker.value = i < 0 ? '' : String(i);
    this.pick(i, v);
  }
  child(seg: string): Field | undefined {
    return this.inner?.child(seg);
  }
  setPath(p: string): void {
    this.path = p;
    this.inner?.setPath(p);
  }
  problems(): string[] {
    return this.inner?.problems() ?? [];
  }
}
