/**
 * HTML that escapes by default: `html\`<td title="${title}">${text}</td>\`` escapes every interpolated string, so run
 * data (answers, questions, errors: untrusted text) cannot open a tag or leave an attribute. Only a {@link SafeHtml}
 * goes in as it is: the result of another `html` template, or markup a renderer vouches for with {@link raw}.
 */
import { escapeHtml, escapeHtmlAttr } from './escape';

/** Markup to insert as it is. Made only by `html` and `raw`: a plain string is never taken for markup. */
export class SafeHtml {
  /** Nominal: a look-alike object with a `value` is not SafeHtml. */
  private readonly brand = 'SafeHtml';

  constructor(readonly value: string) {}

  /** The markup, so a page can be written or joined as text. */
  toString(): string {
    return this.value;
  }
}

/**
 * What a template takes: text (escaped), numbers, markup, nothing (`null`, `undefined`, `false`: a part left out, as
 * in `${cond && html\`…\`}`), and lists of these (joined without a separator).
 */
export type HtmlValue = SafeHtml | string | number | false | null | undefined | readonly HtmlValue[];

/** Markup the caller vouches for: static CSS and script, SVG built by an escaping renderer. Never run data. */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

const slotsOf = new WeakMap<TemplateStringsArray, readonly boolean[]>();

/**
 * For each interpolation of a template, whether it stands inside a tag (an attribute value) rather than in text: the
 * literal before it opened a tag (`<`) after it last closed one (`>`). Attribute values also have tabs and line
 * breaks escaped, so they survive attribute normalization.
 */
function attributeSlots(strings: TemplateStringsArray): readonly boolean[] {
  const known = slotsOf.get(strings);
  if (known) return known;
  const slots: boolean[] = [];
  let inTag = false;
  for (const literal of strings.slice(0, -1)) {
    const open = literal.lastIndexOf('<');
    const close = literal.lastIndexOf('>');
    if (open !== close) inTag = open > close;
    slots.push(inTag);
  }
  slotsOf.set(strings, slots);
  return slots;
}

function render(value: HtmlValue, inAttribute: boolean): string {
  if (value instanceof SafeHtml) return value.value;
  if (value === null || value === undefined || value === false) return '';
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.map((item: HtmlValue) => render(item, inAttribute)).join('');
  // A string, or whatever untyped code passed: text either way.
  const text = String(value);
  return inAttribute ? escapeHtmlAttr(text) : escapeHtml(text);
}

/** The tag: literals as written, every interpolation escaped for where it stands unless it is {@link SafeHtml}. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  const slots = attributeSlots(strings);
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value, slots[i] ?? false) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** Items joined by a separator (markup too: `'\n'`, `<br>`), each escaped unless it is {@link SafeHtml}. */
export function joinHtml(items: readonly HtmlValue[], separator: SafeHtml | string): SafeHtml {
  const sep = separator instanceof SafeHtml ? separator.value : escapeHtml(separator);
  return new SafeHtml(items.map((item) => render(item, false)).join(sep));
}
