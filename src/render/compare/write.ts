/** Writes a comparison's files: compare.md, compare.html, compare.json and compare.junit.xml. */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../shared/fileIo';
import { escapeXml as x, escapeXmlAttr as xa, truncate } from '../escape';
import { renderCompareHtml } from './html';
import { renderCompareMarkdown } from './markdown';
import { CompareFile, type Comparison } from '../../analysis/compare/types';

/** One testsuite per variant, one testcase per row: a failed row fails, a row without a grade is skipped with why. */
export function renderCompareJunit(c: Comparison): string {
  const suites = c.variants.map((v, i) => {
    const cases = c.rows.map((row) => {
      const cell = row.cells[i];
      const name = `${row.id}: ${truncate(row.question, 120)}`;
      const open = `    <testcase classname="${xa(`sitechat.compare.${v.runId}`)}" name="${xa(name)}"`;
      if (!cell) return `${open}><skipped message="no result in this run"/></testcase>`;
      if (cell.outcome === 'passed') return `${open}/>`;
      if (cell.outcome === 'failed') return `${open}><failure message="${xa(truncate(cell.reason ?? 'failed', 500))}">${x(truncate(cell.answer ?? '', 2_000))}</failure></testcase>`;
      return `${open}><skipped message="${xa(`${cell.outcome}${cell.reason ? `: ${truncate(cell.reason, 300)}` : ''}`)}"/></testcase>`;
    });
    const s = c.stats[i];
    return `  <testsuite name="${xa(v.label)}" tests="${c.rows.length}" failures="${s ? s.decided - s.passed : 0}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xa(c.conclusion)}">\n${suites.join('\n')}\n</testsuites>\n`;
}

export async function writeComparison(c: Comparison, outDir: string): Promise<Record<keyof typeof CompareFile, string>> {
  await mkdir(outDir, { recursive: true });
  const paths = {
    markdown: join(outDir, CompareFile.markdown), html: join(outDir, CompareFile.html),
    json: join(outDir, CompareFile.json), junit: join(outDir, CompareFile.junit),
  };
  await writeFileAtomic(paths.markdown, renderCompareMarkdown(c));
  await writeFileAtomic(paths.html, renderCompareHtml(c));
  await writeFileAtomic(paths.json, `${JSON.stringify(c, null, 2)}\n`);
  await writeFileAtomic(paths.junit, renderCompareJunit(c));
  return paths;
}
