/** Provenance as each report shows it: one rule for the single-run and the multi-site reports. */
import { fromSimulator, provenanceItems, SIMULATOR_BANNER, type Provenance } from '../domain/provenance';
import { escapeHtml as h, escapeHtmlAttr as a, mdInline } from './escape';

const SIMULATOR_CAVEAT = 'The pass rate says how the runner works, not how good a site is.';

/** A quote under the title when the answers are the simulator's; else nothing. */
export function simulatorNoticeMd(p: Provenance | undefined): string {
  return fromSimulator(p) ? `> **⚠ ${SIMULATOR_BANNER}.** ${SIMULATOR_CAVEAT}` : '';
}

export function provenanceMd(p: Provenance | undefined): string {
  if (!p) return '';
  const rows = provenanceItems(p).map((item) => `| ${item.label} | ${mdInline(item.text)} |`);
  return `## Provenance\n\n|  |  |\n| --- | --- |\n${rows.join('\n')}`;
}

/** A banner above everything else when the answers are the simulator's; else nothing. */
export function simulatorBannerHtml(p: Provenance | undefined): string {
  return fromSimulator(p) ? `<p class="banner simulator" role="note"><b>⚠ ${h(SIMULATOR_BANNER)}.</b> ${h(SIMULATOR_CAVEAT)}</p>` : '';
}

export function provenanceHtml(p: Provenance | undefined): string {
  if (!p) return '';
  const items = provenanceItems(p).map((item) => `<dt>${h(item.label)}</dt><dd data-provenance="${a(item.key)}">${h(item.text)}</dd>`);
  return `<dl class="provenance">${items.join('')}</dl>`;
}

/** `provenance.*` JUnit properties: each fact in words, plus the ones a CI script may want to test on their own. */
export function provenanceProperties(p: Provenance | undefined): Record<string, string | undefined> {
  if (!p) return {};
  return {
    ...Object.fromEntries(provenanceItems(p).map((item) => [`provenance.${item.key}`, item.text])),
    'provenance.answersFrom': p.answers.from,
    'provenance.apiHost': p.answers.host,
    'provenance.judgeModel': p.judge?.model,
    'provenance.judgeHost': p.judge?.host,
    'provenance.runnerVersion': p.runner.version,
    'provenance.runnerCommit': p.runner.commit,
  };
}
