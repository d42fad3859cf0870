import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..', '..');

/** The layers `npm run lint` enforces (.dependency-cruiser.cjs), room by room: `src/api` → 1. */
function configuredLayers(): Map<string, number> {
  const config = createRequire(__filename)(join(ROOT, '.dependency-cruiser.cjs')) as { layers: string[][] };
  return new Map(config.layers.flatMap((rooms, i) => rooms.map((room): [string, number] => [room, i + 1])));
}

/** The rooms of docs/architecture.md's table, `| 2 | \`src/domain\` | … |`, with their layer. */
function documentedLayers(): Map<string, number> {
  const text = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
  const rows = [...text.matchAll(/^\| (\d+) \| `([^`]+?)\/?` \|/gmu)];
  return new Map(rows.map((m): [string, number] => [m[2] as string, Number(m[1])]));
}

describe('docs/architecture.md', () => {
  it('lists every room on the layer .dependency-cruiser.cjs puts it, and no other', () => {
    const configured = configuredLayers();
    expect(configured.size).toBeGreaterThan(10);
    expect(documentedLayers()).toEqual(configured);
  });
});
