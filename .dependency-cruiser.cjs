/**
 * The rooms of the source tree and the order in which they may import each other (docs/architecture.md draws it).
 * `npm run lint` runs it: `depcruise --config .dependency-cruiser.cjs src workflows activities`.
 *
 * LAYERS lists the rooms from the ground up. A room imports only rooms on a LOWER layer: never one on its own layer,
 * never one above. So no two rooms import each other, and a lower room knows nothing of a higher one. Type-only
 * imports count too: a type is a shape a room depends on.
 */

/** Floors, lowest first; a room is a folder (src/<name>/, workflows/, activities/). */
const LAYERS = [
  ['src/api', 'src/shared'],
  ['src/domain', 'src/observability', 'src/codec', 'src/sim'],
  ['src/ratelimit', 'src/cleanup'],
  ['src/grading'],
  ['src/datasets'],
  ['src/store', 'src/config'],
  ['src/analysis', 'src/labels', 'src/temporal'],
  ['src/render', 'src/notify', 'src/check'],
  ['activities', 'src/regrade'],
  ['workflows', 'src/worker'],
  ['src/review', 'src/schedules'],
  ['src/cli'],
];

const ROOMS = LAYERS.flat();
const alternation = (rooms) => `^(${rooms.join('|')})/`;

/** One rule per room: what it must not import (its own layer's other rooms and every room above). */
const layerRules = LAYERS.flatMap((layer, floor) =>
  layer.map((room) => {
    const below = LAYERS.slice(0, floor).flat();
    const notAllowed = ROOMS.filter((r) => r !== room && !below.includes(r));
    return {
      name: `layer:${room}`,
      severity: 'error',
      comment:
        `${room}/ is on layer ${floor + 1} of .dependency-cruiser.cjs; it may import only ${below.length ? below.join(', ') : 'no other room'}. ` +
        'Move what both need down (shapes to src/domain, general helpers to src/shared), or let the caller hand it in ' +
        '(a parameter, a hook, an interface declared in the lower room); if the room truly belongs higher, change LAYERS ' +
        'and docs/architecture.md together.',
      from: { path: `^${room}/` },
      to: { path: alternation(notAllowed) },
    };
  }),
);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Files that import each other (values, not only types) load in an order that depends on who came first. ' +
        'Break the circle: move the shared piece into a file both import, or the type into the file that fills it in.',
      from: {},
      to: { circular: true, dependencyTypesNot: ['type-only'], viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'room-without-layer',
      severity: 'error',
      comment:
        'A folder under src/ that is not in LAYERS of .dependency-cruiser.cjs: add it to the layer where it belongs ' +
        '(above everything it imports, below everything that imports it) and to docs/architecture.md.',
      from: { path: '^src/', pathNot: alternation(ROOMS) },
      to: {},
    },
    {
      name: 'workflows-import-activity-types-only',
      severity: 'error',
      comment:
        'Workflow code is bundled and replayed: it takes only the TYPES of activities (`import type`) and calls them ' +
        'through proxyActivities (workflows/activityProxies.ts).',
      from: { path: '^workflows/' },
      to: { path: '^activities/', dependencyTypesNot: ['type-only'] },
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    reporterOptions: { text: { highlightFocused: true } },
  },
};

// For test/unit/docs/architecture.test.ts, which holds docs/architecture.md's table to these layers; not enumerable,
// so dependency-cruiser's own check of its configuration does not see it.
Object.defineProperty(module.exports, 'layers', { value: LAYERS, enumerable: false });
