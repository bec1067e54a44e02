/**
 * DOM building for the console, text only: every value is set with textContent or as an attribute
 * value (setAttribute never parses markup), so a market title holding `<img src=x onerror=…>` is
 * shown as those characters. There is no way to pass markup through these helpers.
 *
 * Every text shown (text children, `title` and `aria-label`) is shown as the reports show a
 * value (src/floor/display-value.ts, displayValue): controls, bidi and zero-width characters made
 * visible (an id `ABC\u202Efdp.exe` reads `ABC\u202efdp.exe`, not `ABCexe.pdf`), shortened past
 * DISPLAY_VALUE_MAX code points. Values kept for the page's own use (`data-*`, an input's value)
 * and the selected market's JSON (jsonText) stay whole.
 */
import { displayValue, escapeInvisiblesInJson } from '../src/floor/display-value.js';

export type Child = Node | string | number | null | undefined | false;

/** Attributes by name; `false`/`undefined` leave one out, `true` sets it empty. */
export type Attributes = Record<string, string | number | boolean | undefined>;

/** An HTML element with attributes and children (strings become text nodes). */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  setAttributes(element, attributes);
  append(element, children);
  return element;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element (namespaced) with attributes and children. */
export function s<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG_NS, tag);
  setAttributes(element, attributes);
  append(element, children);
  return element;
}

/** Attributes a person reads (a tooltip, a screen reader's label): shown like text. */
const SHOWN_ATTRIBUTES = new Set(['title', 'aria-label']);

function setAttributes(element: Element, attributes: Attributes): void {
  for (const [name, value] of Object.entries(attributes)) {
    // No event-handler attribute (on*) is ever set from here: handlers go through addEventListener.
    if (value === undefined || value === false || /^on/i.test(name)) continue;
    const text = value === true ? '' : String(value);
    element.setAttribute(name, SHOWN_ATTRIBUTES.has(name) ? displayValue(text) : text);
  }
}

function append(element: Element, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'object' ? child : document.createTextNode(displayValue(String(child))));
  }
}

/**
 * A JSON value as an indented text node: its line breaks kept, and inside strings DEL, C1, bidi
 * and zero-width characters written `\uXXXX` (the same JSON value; escapeInvisiblesInJson).
 */
export function jsonText(value: unknown): Text {
  return document.createTextNode(escapeInvisiblesInJson(JSON.stringify(value, null, 2)));
}

/** Replaces an element's children. */
export function replace(element: Element, ...children: Child[]): void {
  element.replaceChildren();
  append(element, children);
}

/** The element with this id, of the expected kind. @throws Error when the page lacks it (a build mismatch). */
export function byId<T extends HTMLElement>(id: string, kind: new () => T): T {
  const element = document.getElementById(id);
  if (!(element instanceof kind)) throw new Error(`the console page has no ${kind.name} #${id}`);
  return element;
}
