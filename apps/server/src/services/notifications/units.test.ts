import { randomUUID } from 'node:crypto';
import type { alarms } from '@edgeport/contract';
import { describe, expect, it } from 'vitest';
import { isTimeZone, quietUntil } from './quiet-hours.ts';
import { alarmText, languageOf, NOTIFICATION_LANGUAGES, triggerText } from './texts.ts';
import { signatureOf } from './webhook.ts';
import { outcomeOf } from './worker.ts';

describe('quiet hours', () => {
  const night = { start: '22:00', end: '06:00', timeZone: 'Europe/Berlin' };

  it('holds until the end of a span over midnight, in the zone', () => {
    // 23:30 in Berlin (CEST, UTC+2) is 21:30 UTC; the end 06:00 Berlin is 04:00 UTC the next day.
    expect(quietUntil(night, new Date('2025-06-10T21:30:00.000Z'))?.toISOString()).toBe(
      '2025-06-11T04:00:00.000Z',
    );
    expect(quietUntil(night, new Date('2025-06-11T03:59:30.250Z'))?.toISOString()).toBe(
      '2025-06-11T04:00:00.000Z',
    );
    // Winter time (CET, UTC+1).
    expect(quietUntil(night, new Date('2025-01-10T22:15:00.000Z'))?.toISOString()).toBe(
      '2025-01-11T05:00:00.000Z',
    );
  });

  it('lets everything through outside the quiet hours, or without any', () => {
    expect(quietUntil(night, new Date('2025-06-10T12:00:00.000Z'))).toBeUndefined();
    expect(quietUntil(night, new Date('2025-06-11T04:00:00.000Z'))).toBeUndefined();
    expect(quietUntil(null, new Date())).toBeUndefined();
    expect(quietUntil({ start: '08:00', end: '08:00', timeZone: 'UTC' }, new Date())).toBeUndefined();
    const day = { start: '09:00', end: '17:00', timeZone: 'UTC' };
    expect(quietUntil(day, new Date('2025-06-10T12:34:00.000Z'))?.toISOString()).toBe(
      '2025-06-10T17:00:00.000Z',
    );
  });

  it('knows IANA time zones', () => {
    expect(isTimeZone('America/New_York')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});

describe('retry outcome', () => {
  const now = new Date('2025-01-01T00:00:00.000Z');
  const failure = { ok: false as const, error: 'HTTP 503', retry: true };

  it('backs off by the configured delays, then fails for good after delays.length + 1 attempts', () => {
    expect(outcomeOf(failure, 1, [10, 60], now)).toMatchObject({
      status: 'PENDING',
      nextAttemptAt: new Date(now.getTime() + 10),
    });
    expect(outcomeOf(failure, 2, [10, 60], now)).toMatchObject({
      status: 'PENDING',
      nextAttemptAt: new Date(now.getTime() + 60),
    });
    expect(outcomeOf(failure, 3, [10, 60], now)).toEqual({
      status: 'FAILED',
      attempts: 3,
      error: 'HTTP 503',
    });
    expect(outcomeOf({ ok: true }, 2, [10, 60], now)).toEqual({ status: 'SENT', attempts: 2, at: now });
  });

  it('does not retry a refusal', () => {
    expect(outcomeOf({ ok: false, error: 'loopback', retry: false }, 1, [10], now)).toMatchObject({
      status: 'FAILED',
    });
  });
});

describe('texts', () => {
  const alarm = {
    id: randomUUID(),
    organizationId: randomUUID(),
    ruleId: null,
    triggerId: null,
    deviceId: null,
    deviceLabel: 'pump-7',
    name: 'Dry run',
    path: '/flow',
    severity: 'WARNING' as alarms.Alarm['severity'],
    status: 'ACTIVE' as const,
    ack: 'NOT_REQUIRED' as const,
    reset: 'NOT_REQUIRED' as const,
    open: true,
    message: 'Flow 0 l/min\nfor 5 min',
    value: 0,
    raisedAt: '2025-03-04T05:06:07.000Z',
    conditionClearedAt: null,
    ackAt: null,
    ackBy: null,
    resetAt: null,
    resetBy: null,
    clearedAt: null,
    clearedBy: null,
    updatedAt: '2025-03-04T05:06:07.000Z',
  };
  const context = {
    organizationName: 'Plant',
    portalOrigin: 'https://acme.app.example.com',
    timeZone: 'UTC',
  };

  it('maps locales to languages', () => {
    expect(languageOf('de-DE')).toBe('de');
    expect(languageOf('FR')).toBe('fr');
    expect(languageOf('pt-BR')).toBeUndefined();
    expect(languageOf(null)).toBeUndefined();
  });

  it('renders every language with severity, device, message, event, time and the alarms link', () => {
    const subjects = new Set<string>();
    for (const language of NOTIFICATION_LANGUAGES) {
      const { subject, text } = alarmText(language, { event: 'RAISED', alarm }, context);
      subjects.add(subject);
      expect(subject).not.toMatch(/[\r\n]/);
      expect(subject).toContain('pump-7');
      expect(text).toContain('Flow 0 l/min');
      expect(text).toContain('2025');
      expect(text).toContain('https://acme.app.example.com/alarms');
      const trigger = triggerText(
        language,
        { triggerId: 't', triggerName: 'Oil', detail: 'why' },
        new Date(),
        context,
      );
      expect(trigger.text).toContain('https://acme.app.example.com/trigger');
    }
    expect(subjects.size).toBe(NOTIFICATION_LANGUAGES.length);
    expect(alarmText('es', { event: 'RAISED', alarm }, context).subject).toContain(
      '[Advertencia] Alarma activada',
    );
  });

  it('signs a body with HMAC-SHA256', () => {
    expect(signatureOf('{"a":1}', 'secret')).toBe(
      'sha256=aa9e2e3575f5d7098b6caccd790888c36d5fdb63342a73bada2d6a51747a8494',
    );
    expect(signatureOf('{"a":1}', 'secret')).not.toBe(signatureOf('{"a":2}', 'secret'));
  });
});
