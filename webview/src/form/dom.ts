/** Tiny DOM helpers: everything is built with createElement and textContent, never innerHTML. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Record<string, string | boolean | undefined>, ...children: (Node | string | undefined)[]): HTMLElementTagNameMap[K];
export function h(tag: string, attrs?: Record<string, string | boolean | undefined>, ...children: (Node | string | undefined)[]): HTMLElement;
export function h(tag: string, attrs: Record<string, string | boolean | undefined> = {}, ...children: (Node | string | undefined)[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k === 'class') el.className = String(v);
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children) if (c !== undefined) el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  return el;
}

/** A vscode-button; `secondary` for everything that is not the main action. */
export function button(text: string, onClick: (ev: Event) => void, opts: { secondary?: boolean; title?: string; icon?: string; name?: string } = {}): HTMLElement {
  const b = h('vscode-button', { secondary: opts.secondary, title: opts.title, 'aria-label': opts.title ?? text, icon: opts.icon, 'data-action': opts.name }, text);
  b.addEventListener('click', (ev) => {
    if ((b as HTMLElement & { disabled?: boolean }).disabled) return;
    onClick(ev);
  });
  return b;
}

export function setDisabled(el: Element, disabled: boolean): void {
  (el as HTMLElement & { disabled: boolean }).disabled = disabled;
  if (disabled) el.setAttribute('disabled', '');
  else el.removeAttribute('disabled');
}
