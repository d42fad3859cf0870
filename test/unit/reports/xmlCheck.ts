/**
 * A minimal XML well-formedness check for tests (no DOMParser in Node): XML 1.0 characters only,
 * balanced and properly nested elements, quoted attributes without raw `<`, and `&` only as an
 * entity or character reference. Returns element names in document order.
 */
export function checkWellFormedXml(xml: string): string[] {
  if (/[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u.test(xml)) throw new Error('invalid XML character');
  if (/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(xml)) throw new Error('bare &');
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const token = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w.:-]+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>|<|>/g;
  const stack: string[] = [];
  const names: string[] = [];
  let roots = 0;
  for (let m = token.exec(body); m; m = token.exec(body)) {
    const [whole, closing, name, , selfClosing] = m;
    if (whole === '<') throw new Error(`stray < at ${m.index}`);
    if (whole === '>') continue; // a literal > in text is allowed
    if (closing) {
      if (stack.pop() !== name) throw new Error(`mismatched </${name}> at ${m.index}`);
      continue;
    }
    names.push(name ?? '');
    if (stack.length === 0) roots++;
    if (!selfClosing) stack.push(name ?? '');
  }
  if (stack.length > 0) throw new Error(`unclosed <${stack.join('>, <')}>`);
  if (roots !== 1) throw new Error(`${roots} root elements`);
  return names;
}
