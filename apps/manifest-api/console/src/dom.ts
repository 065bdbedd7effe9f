// Small DOM helpers. Everything the console shows is set as text (textContent, attributes), never as HTML,
// so a receiver's answer or a result title can never run as markup.

export type Child = Node | string | number | null | undefined | false | readonly Child[];
export type ClassValue = string | readonly (string | false | null | undefined)[];
type AttrValue = string | number | boolean | null | undefined;
export type Handlers = { [E in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[E]) => void };

export interface Props {
  class?: ClassValue;
  on?: Handlers;
  /** Attributes; `true` sets an empty attribute, `false`/null/undefined leaves it out. `value` also sets the property. */
  [attribute: string]: AttrValue | ClassValue | Handlers;
}

function className(value: ClassValue): string {
  return typeof value === 'string' ? value : value.filter(Boolean).join(' ');
}

function append(parent: Node, child: Child): void {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) {
    for (const c of child as readonly Child[]) append(parent, c);
  } else {
    parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  let value: AttrValue;
  for (const [key, v] of Object.entries(props)) {
    if (key === 'class') {
      if (v) el.className = className(v as ClassValue);
    } else if (key === 'on') {
      for (const [type, handler] of Object.entries(v as Handlers)) el.addEventListener(type, handler as EventListener);
    } else if (key === 'value') {
      value = v as AttrValue;
    } else if (v === true) {
      el.setAttribute(key, '');
    } else if (v !== false && v !== null && v !== undefined) {
      el.setAttribute(key, String(v));
    }
  }
  append(el, children);
  // After the children: a <select> takes its value only once its options are there.
  if (value !== undefined && value !== null && 'value' in el) (el as unknown as { value: string }).value = String(value);
  return el;
}

/** Replaces everything inside `parent`. */
export function mount(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

let idCounter = 0;
/** A document-unique id, to tie labels and descriptions to their controls. */
export function uid(prefix = 'c'): string {
  idCounter += 1;
  return `${prefix}-${idCounter}`;
}
