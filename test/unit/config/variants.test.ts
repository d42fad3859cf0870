import { describe, expect, it } from 'vitest';
import { loadRunConfig } from '../../../src/config';
import { configErrorOf as errorOf, configScratch } from '../../helpers/configFiles';

const { write } = configScratch('config-variants-');

describe('config `variants`', () => {
  it('loads named variants over model, response_language, ui_locale and site', async () => {
    const path = await write('v.yaml', [
      'variants:',
      '  - { name: en, response_language: en }',
      '  - { name: de, response_language: de, ui_locale: de-DE, model: gpt-4o-mini, site: shop-de }',
    ].join('\n'));
    expect((await loadRunConfig(path)).variants).toEqual([
      { name: 'en', response_language: 'en' },
      { name: 'de', response_language: 'de', ui_locale: 'de-DE', model: 'gpt-4o-mini', site: 'shop-de' },
    ]);
  });

  it('names the file, the line and the key of an unknown key, a bad name, a name twice and a list of one', async () => {
    const path = await write('bad.yaml', [
      'failUnder: 0.5', // 1
      'variants:', // 2
      '  - name: a', // 3
      '    model: gpt-4o-mini', // 4
      '  - name: b', // 5
      '    temperature: 0.2', // 6
      '  - name: a', // 7
      '  - name: "x/y"', // 8
    ].join('\n'));
    const error = await errorOf(path);
    expect(error.message.split('\n')).toEqual(expect.arrayContaining([
      `${path}:6: \`variants[1]\` unknown key \`temperature\``,
      `${path}:7: \`variants[2].name\` "a" is the name of an earlier variant: names must differ`,
      expect.stringMatching(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')}:8: \`variants\\[3\\]\\.name\` must be letters, digits`, 'u')),
    ]));
    const one = await errorOf(await write('one.yaml', 'variants:\n  - { name: a, model: m }\n'));
    expect(one.message).toMatch(/one\.yaml:2: `variants` must list at least two variants/u);
  });
});
