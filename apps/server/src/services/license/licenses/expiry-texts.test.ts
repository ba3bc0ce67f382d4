import { describe, expect, it } from 'vitest';
import { formatTime, NOTIFICATION_LANGUAGES } from '../../notifications/texts.ts';
import { type ExpiryFacts, expiryWarningText } from './expiry-texts.ts';

const facts: ExpiryFacts = {
  licenseCode: 'LIC-7QX2',
  productName: 'Pump monitor',
  holderName: 'Harbour Works',
  quantity: 12,
  daysLeft: 7,
  expiresAt: new Date('2026-03-04T05:06:07.000Z'),
  autorenew: false,
  toHolder: true,
};

describe('licence expiry warning texts', () => {
  it('writes subject and body in every language with the facts filled in and the date for the language', () => {
    const subjects = new Set<string>();
    const bodies = new Set<string>();
    for (const language of NOTIFICATION_LANGUAGES) {
      const { subject, body } = expiryWarningText(language, facts);
      subjects.add(subject);
      bodies.add(body);
      expect(subject).not.toMatch(/[\r\n]/);
      expect(subject).toContain('LIC-7QX2');
      expect(subject).toContain('Pump monitor');
      expect(subject).toContain('7');
      expect(body).toContain('LIC-7QX2');
      expect(body).toContain('Pump monitor');
      expect(body).toContain('Harbour Works');
      expect(body).toContain('12');
      expect(body).toContain(formatTime('2026-03-04T05:06:07.000Z', language, 'UTC'));
      expect(`${subject}${body}`).not.toMatch(/\$\{|undefined|NaN|\[object/);
    }
    expect(subjects.size).toBe(NOTIFICATION_LANGUAGES.length);
    expect(bodies.size).toBe(NOTIFICATION_LANGUAGES.length);
  });

  it('formats the expiry date per language', () => {
    expect(expiryWarningText('en', facts).body).toContain('expires on 04/03/2026, 05:06:07 UTC.');
    expect(expiryWarningText('de', facts).body).toContain('läuft am 04.03.2026, 05:06:07 UTC ab.');
    expect(expiryWarningText('fr', facts).body).toContain('expire le 04/03/2026 05:06:07 UTC.');
  });

  it('translates subject and body, singular and plural days', () => {
    expect(expiryWarningText('en', facts).subject).toBe('Licence LIC-7QX2 (Pump monitor) expires in 7 days');
    expect(expiryWarningText('de', facts).subject).toBe('Lizenz LIC-7QX2 (Pump monitor) läuft in 7 Tagen ab');
    expect(expiryWarningText('es', facts).subject).toBe(
      'La licencia LIC-7QX2 (Pump monitor) vence en 7 días',
    );
    expect(expiryWarningText('fr', facts).subject).toBe(
      'La licence LIC-7QX2 (Pump monitor) expire dans 7 jours',
    );
    expect(expiryWarningText('it', facts).subject).toBe(
      'La licenza LIC-7QX2 (Pump monitor) scade tra 7 giorni',
    );
    expect(expiryWarningText('en', { ...facts, daysLeft: 1 }).subject).toContain('expires in 1 day');
    expect(expiryWarningText('de', { ...facts, daysLeft: 1 }).subject).toContain('läuft in 1 Tag ab');
  });

  it('says whether it renews automatically and what to do, to the holder or to the issuing dealer', () => {
    const manual = expiryWarningText('de', facts).body;
    expect(manual).toContain('Verlängern Sie sie vorher oder schalten Sie die automatische Verlängerung ein');
    const automatic = expiryWarningText('de', { ...facts, autorenew: true }).body;
    expect(automatic).toContain('automatisch verlängert');
    expect(automatic).not.toContain('Verlängern Sie sie vorher');
    for (const language of NOTIFICATION_LANGUAGES)
      expect(expiryWarningText(language, { ...facts, autorenew: true }).body).not.toBe(
        expiryWarningText(language, facts).body,
      );
    expect(expiryWarningText('en', { ...facts, toHolder: false }).body).toContain(
      'you issued to Harbour Works',
    );
    expect(expiryWarningText('it', { ...facts, toHolder: false }).body).toContain(
      'che hai rilasciato a Harbour Works',
    );
  });
});
