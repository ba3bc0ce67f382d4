import { describe, expect, it, vi } from 'vitest';
import {
  initialLocale,
  localeCookie,
  localeFromCookie,
  normalizeLocale,
  parentDomain,
  resolveSignedInLocale,
} from './locales.ts';

describe('locale resolution (spec 4/9)', () => {
  it('knows the five locales by language', () => {
    expect(normalizeLocale('de')).toBe('de-DE');
    expect(normalizeLocale('fr-CA')).toBe('fr-FR');
    expect(normalizeLocale('IT_it')).toBe('it-IT');
    expect(normalizeLocale('ja-JP')).toBeUndefined();
    expect(normalizeLocale('')).toBeUndefined();
  });

  it('takes the cookie first, then the browser, then English', () => {
    expect(localeFromCookie('a=1; locale=es-ES')).toBe('es-ES');
    expect(initialLocale('locale=fr-FR', ['de-DE'])).toBe('fr-FR');
    expect(initialLocale('locale=xx', ['ja', 'it-CH'])).toBe('it-IT');
    expect(initialLocale('', ['ja'])).toBe('en-US');
  });

  it('sets the cookie on the parent domain', () => {
    expect(parentDomain('acme.app.example.com')).toBe('app.example.com');
    expect(parentDomain('localhost')).toBeUndefined();
    expect(parentDomain('127.0.0.1')).toBeUndefined();
    expect(localeCookie('de-DE', 'acme.app.localhost')).toBe(
      'locale=de-DE; path=/; max-age=31536000; samesite=lax; domain=app.localhost',
    );
    expect(localeCookie('de-DE', 'localhost')).not.toContain('domain=');
  });
});

describe('the locale after sign-in', () => {
  const store = (saved: string | undefined) => ({
    read: vi.fn(async () => saved),
    save: vi.fn(async () => {}),
  });

  it('keeps the cookie without asking the preferences', async () => {
    const preferences = store('de-DE');
    expect(await resolveSignedInLocale('locale=it-IT', 'it-IT', preferences)).toBe('it-IT');
    expect(preferences.read).not.toHaveBeenCalled();
  });

  it('uses the saved preference when there is no cookie', async () => {
    const preferences = store('de-DE');
    expect(await resolveSignedInLocale('', 'en-US', preferences)).toBe('de-DE');
    expect(preferences.save).not.toHaveBeenCalled();
  });

  it('saves the current locale when none is saved', async () => {
    const preferences = store(undefined);
    expect(await resolveSignedInLocale('', 'fr-FR', preferences)).toBe('fr-FR');
    expect(preferences.save).toHaveBeenCalledWith('fr-FR');
  });

  it('stays with the current locale when the preference service fails', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const preferences = {
      read: vi.fn(async () => Promise.reject(new Error('Network Error'))),
      save: vi.fn(),
    };
    expect(await resolveSignedInLocale('', 'es-ES', preferences)).toBe('es-ES');
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});
