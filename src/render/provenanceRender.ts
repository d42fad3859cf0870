/** Provenance as each report shows it: one rule for the single-run and the multi-site reports. */
import { fromSimulator, provenanceItems, SIMULATOR_BANNER, type Provenance } from '../domain/provenance';
import { mdInline } from './escape';
import { html, type SafeHtml } from './htmlTemplate';

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
export function simulatorBannerHtml(p: Provenance | undefined): SafeHtml {
  return fromSimulator(p) ? html`<p class="banner simulator" role="note"><b>⚠ ${SIMULATOR_BANNER}.</b> ${SIMULATOR_CAVEAT}</p>` : html``;
}

export function provenanceHtml(p: Provenance | undefined): SafeHtml {
  if (!p) return html``;
  const items = provenanceItems(p).map((item) => html`<dt>${item.label}</dt><dd data-provenance="${item.key}">${item.text}</dd>`);
  return html`<dl class="provenance">${items}</dl>`;
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
