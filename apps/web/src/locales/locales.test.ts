import { describe, expect, it } from 'vitest';
import type { SUPPORTED_LOCALES } from '../shared/i18n/locales.ts';

type Translations = { [key: string]: string | Translations };

// The shell's files and every feature's own files, merged per language as i18n.ts merges them.
const sources = import.meta.glob<Translations>(
  ['./*.json', '../features/*/locales/*.json', '../features/*/*/locales/*.json'],
  {
    eager: true,
    import: 'default',
  },
);

function merged(fileName: string): Translations {
  const parts = Object.entries(sources).filter(([file]) => file.endsWith(`/${fileName}`));
  const keys = parts.flatMap(([, part]) => Object.keys(part));
  const clash = keys.find((key, index) => keys.indexOf(key) !== index);
  if (clash) throw new Error(`two ${fileName} files define the top-level key '${clash}'`);
  return Object.assign({}, ...parts.map(([, part]) => part));
}

const en = merged('en.json');
const de = merged('de.json');
const es = merged('es.json');
const fr = merged('fr.json');
const it_ = merged('it.json');

const FILES: Record<(typeof SUPPORTED_LOCALES)[number], Translations> = {
  'en-US': en,
  'de-DE': de,
  'es-ES': es,
  'fr-FR': fr,
  'it-IT': it_,
};

const PLURAL = /_(zero|one|two|few|many|other)$/;

function flatten(node: Translations, prefix = ''): Map<string, string> {
  const flat = new Map<string, string>();
  for (const [key, value] of Object.entries(node)) {
    if (typeof value === 'string') flat.set(`${prefix}${key}`, value);
    else for (const [inner, text] of flatten(value, `${prefix}${key}.`)) flat.set(inner, text);
  }
  return flat;
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1] ?? '').sort();
}

const english = flatten(en);
const baseKeys = (keys: Iterable<string>) => new Set([...keys].map((key) => key.replace(PLURAL, '')));

describe('locale files', () => {
  for (const [locale, file] of Object.entries(FILES)) {
    const flat = flatten(file);

    it(`${locale} has every key of English and nothing else`, () => {
      expect([...baseKeys(flat.keys())].sort()).toEqual([...baseKeys(english.keys())].sort());
    });

    it(`${locale} has every plural form its language needs`, () => {
      const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
      for (const base of baseKeys([...english.keys()].filter((key) => PLURAL.test(key)))) {
        for (const category of categories) {
          // 'many' of es/fr/it only applies to numbers in the millions; it may share the 'other' text.
          expect(flat.has(`${base}_${category}`), `${base}_${category}`).toBe(true);
        }
      }
    });

    it(`${locale} keeps the placeholders of English`, () => {
      for (const [key, text] of flat) {
        const englishText = english.get(key) ?? english.get(key.replace(PLURAL, '_other'));
        expect(placeholders(text), key).toEqual(placeholders(englishText ?? ''));
      }
    });
  }

  it('other languages translate the texts (only names and technical words stay as in English)', () => {
    const same = (other: Translations) =>
      [...flatten(other)].filter(
        ([key, text]) => english.get(key) === text && !key.startsWith('language.names.'),
      );
    // Relative to the number of texts: words such as Version, Variable, Minimum or Dashboard are the same in several
    // languages, and their count grows with the product.
    const limit = Math.ceil(english.size * 0.015);
    for (const file of [de, es, fr, it_]) {
      const untranslated = same(file).map(([key]) => key);
      expect(untranslated.length, untranslated.join(', ')).toBeLessThan(limit);
    }
  });
});
