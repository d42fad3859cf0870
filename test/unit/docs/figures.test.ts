import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..', '..');
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8').replace(/\s+/g, ' ');

/**
 * Figures the README quotes come from blocks the benches write (`npm run bench:agreement -- --write-docs`); the README
 * must quote them as they stand there, and name the set they were measured on.
 */
describe('figures quoted in the README', () => {
  it('the agreement figures are the development set\'s, as bench:agreement last wrote them into docs/grading.md', () => {
    const readme = read('README.md');
    const quoted = /On the development set \(EVOUNA TQ[^)]*\), `reference` agrees with the human judgment on (0\.\d{3}) of answers longer than five words, the best lexical baseline \(token F1 or contains, against all references\) on (0\.\d{3})\./u.exec(readme);
    expect(quoted, 'README.md: the agreement sentence').not.toBeNull();
    const grading = read('docs/grading.md');
    const block = grading.slice(grading.indexOf('<!-- agreement:start -->'), grading.indexOf('<!-- agreement:end -->'));
    const measured = /\*\*Development set\*\* \([^)]*\): `reference` agrees with the human judgment on 0\.\d{3} of all answers and (0\.\d{3}) of answers over five words; the best lexical baseline \(token F1 or contains, against all references\) on 0\.\d{3} \(`[^`]+`\) and (0\.\d{3})/u.exec(block);
    expect(measured, 'docs/grading.md: the headline bench:agreement writes').not.toBeNull();
    expect([quoted?.[1], quoted?.[2]]).toEqual([measured?.[1], measured?.[2]]);
  });
});
