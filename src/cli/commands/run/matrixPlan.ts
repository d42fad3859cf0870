/**
 * The plan a multi-site or matrix run prints before it starts: how many questions go to each site, and the time that
 * takes. The API's limit is per site and path, so variants on one site share that site's budget (their questions
 * queue behind each other) while sites run side by side.
 */
import type { VariantSpec } from '../../../domain/multiSite';

/** Seconds, as a person reads them: 26 s, 4.4 min, 1.2 h. */
export function readableSeconds(s: number): string {
  if (s < 90) return `${Math.max(1, Math.round(s))} s`;
  if (s < 5_400) return `${(s / 60).toFixed(1)} min`;
  return `${(s / 3_600).toFixed(1)} h`;
}

/**
 * `questions` is what one variant sends (rows × repeats); `ratePerSecond` the worker's limit per site and path
 * (SITECHAT_RATE_LIMIT, 0 = off). The time is the busiest site's questions at that rate, plus the answer time of
 * the last questions, which the plan cannot know.
 */
export function matrixPlanLines(variants: readonly VariantSpec[], questions: number, ratePerSecond: number): string[] {
  const bySite = new Map<string, string[]>();
  for (const v of variants) bySite.set(v.siteId, [...(bySite.get(v.siteId) ?? []), v.name]);
  const lines = [`plan: ${variants.length} variants × ${questions} questions = ${variants.length * questions} questions, every variant at once`];
  if (ratePerSecond <= 0) {
    lines.push('the rate limit is off here (SITECHAT_RATE_LIMIT=0): the time depends on the answers alone');
    return lines;
  }
  let busiest = 0;
  for (const [site, names] of bySite) {
    const sent = names.length * questions;
    busiest = Math.max(busiest, sent);
    const shared = names.length > 1 ? `: ${names.length} variants share its ${ratePerSecond} requests/s per API path (${names.join(', ')})` : ` (${names[0] ?? ''})`;
    lines.push(`  site ${site}${shared} — ${sent} questions ≈ ${readableSeconds(sent / ratePerSecond)} at ${ratePerSecond}/s`);
  }
  const parallel = bySite.size > 1 ? `; the ${bySite.size} sites run in parallel, each on its own budget` : '';
  lines.push(`expected time ≈ ${readableSeconds(busiest / ratePerSecond)} + the answer time (the busiest site's ${busiest} questions at ${ratePerSecond}/s)${parallel}`);
  return lines;
}
