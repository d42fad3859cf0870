/**
 * Facts read from a written report.md, for end-to-end tests that check what a run put there; the wording of each
 * line is pinned by the unit tests of the functions that build it.
 */

/** The items of report.md's "Notifications" section, without the leading `- ` (wording: test/unit/notify/reportNote.test.ts). */
export function notificationItems(markdown: string): string[] {
  const at = markdown.indexOf('\n## Notifications\n');
  if (at < 0) return [];
  return markdown
    .slice(at)
    .split('\n')
    .filter((line) => line.startsWith('- '))
    .map((line) => line.slice(2));
}
