import { describe, expect, it } from 'vitest';
import type { NotificationRule } from './api.ts';
import { localPage } from './local-page.ts';
import {
  emptyRuleValues,
  isEmail,
  type RuleFormValues,
  recipientCounts,
  ruleProblems,
  ruleToValues,
  valuesToInput,
  webhookProblem,
} from './rule-form.ts';

const RULE: NotificationRule = {
  id: '6a1f2c3d-0000-4000-8000-000000000001',
  organizationId: '6a1f2c3d-0000-4000-8000-0000000000aa',
  name: 'Night shift',
  enabled: false,
  language: 'de',
  source: {
    alarmEvents: ['CLEARED', 'RAISED'],
    severities: ['MINOR', 'CRITICAL'],
    alarmRuleIds: ['6a1f2c3d-0000-4000-8000-000000000002'],
  },
  recipients: {
    userIds: ['6a1f2c3d-0000-4000-8000-000000000003'],
    groupIds: [],
    emails: ['ops@example.com'],
    webhooks: ['https://hooks.example.com/a'],
  },
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};

function values(changes: Partial<RuleFormValues>): RuleFormValues {
  return { ...emptyRuleValues(), name: 'Rule', emails: ['a@example.com'], ...changes };
}

describe('notification rule form ↔ API body', () => {
  it('starts enabled, told when an alarm is raised, in the default language, to nobody', () => {
    expect(emptyRuleValues()).toEqual({
      name: '',
      enabled: true,
      language: '',
      alarmEvents: ['RAISED'],
      severities: [],
      alarmRuleIds: [],
      userIds: [],
      groupIds: [],
      emails: [],
      webhooks: [],
    });
  });

  it('shows a stored rule with its events and severities in their usual order', () => {
    const shown = ruleToValues(RULE);
    expect(shown.alarmEvents).toEqual(['RAISED', 'CLEARED']);
    expect(shown.severities).toEqual(['CRITICAL', 'MINOR']);
    expect(shown.language).toBe('de');
    expect(shown.enabled).toBe(false);
  });

  it('gives back the stored rule unchanged when nothing was edited', () => {
    const input = valuesToInput(ruleToValues(RULE));
    expect(input).toEqual({
      name: 'Night shift',
      enabled: false,
      language: 'de',
      source: {
        alarmEvents: ['RAISED', 'CLEARED'],
        severities: ['CRITICAL', 'MINOR'],
        alarmRuleIds: RULE.source.alarmRuleIds,
      },
      recipients: RULE.recipients,
    });
  });

  it('trims, lower-cases addresses, drops repeats and empty entries, and sends the default language as null', () => {
    const input = valuesToInput(
      values({
        name: '  Boiler  ',
        language: '',
        alarmEvents: ['RESET', 'RAISED', 'RAISED'],
        emails: [' Ops@Example.com', 'ops@example.com', ' '],
        webhooks: [' https://h.example.com/x ', 'https://h.example.com/x', ''],
        userIds: ['u1', 'u1'],
      }),
    );
    expect(input.name).toBe('Boiler');
    expect(input.language).toBeNull();
    expect(input.source.alarmEvents).toEqual(['RAISED', 'RESET']);
    expect(input.recipients.emails).toEqual(['ops@example.com']);
    expect(input.recipients.webhooks).toEqual(['https://h.example.com/x']);
    expect(input.recipients.userIds).toEqual(['u1']);
  });

  it('counts recipients by kind', () => {
    expect(recipientCounts(RULE.recipients)).toEqual({ users: 1, groups: 0, emails: 1, webhooks: 1 });
  });
});

describe('notification rule validation', () => {
  it('accepts a complete rule', () => {
    expect(ruleProblems(values({}))).toEqual([]);
    expect(ruleProblems(values({ emails: [], webhooks: ['http://127.0.0.1:9000/hook'] }))).toEqual([]);
    expect(ruleProblems(values({ emails: [], groupIds: ['g1'] }))).toEqual([]);
  });

  it('needs a name, an alarm event and a recipient', () => {
    expect(ruleProblems(values({ name: '   ' }))).toContainEqual({ field: 'name', kind: 'required' });
    expect(ruleProblems(values({ name: 'x'.repeat(121) }))).toContainEqual({
      field: 'name',
      kind: 'tooLong',
    });
    expect(ruleProblems(values({ alarmEvents: [] }))).toContainEqual({
      field: 'alarmEvents',
      kind: 'required',
    });
    expect(ruleProblems(values({ emails: [' ', ''] }))).toContainEqual({
      field: 'recipients',
      kind: 'required',
    });
  });

  it('names the addresses that are not e-mail addresses', () => {
    expect(ruleProblems(values({ emails: ['ok@example.com', 'nope', 'a@b'] }))).toContainEqual({
      field: 'emails',
      kind: 'invalid',
      values: ['nope', 'a@b'],
    });
    expect(isEmail('ada@example.com')).toBe(true);
    expect(isEmail('ada @example.com')).toBe(false);
    expect(isEmail('ada@example')).toBe(false);
    expect(isEmail(`${'a'.repeat(250)}@example.com`)).toBe(false);
  });

  it('refuses webhook addresses that are no http(s) URL or carry credentials', () => {
    expect(webhookProblem('https://hooks.example.com/a?b=1')).toBeUndefined();
    expect(webhookProblem('http://[::1]:8080/x')).toBeUndefined();
    expect(webhookProblem('hooks.example.com/a')).toBe('invalid');
    expect(webhookProblem('https://exa mple.com')).toBe('invalid');
    expect(webhookProblem('ftp://example.com/a')).toBe('scheme');
    expect(webhookProblem('javascript:alert(1)')).toBe('scheme');
    expect(webhookProblem('https://user:secret@example.com/')).toBe('credentials');
    expect(webhookProblem(`https://example.com/${'a'.repeat(2000)}`)).toBe('tooLong');
    expect(
      ruleProblems(values({ webhooks: ['ftp://x.example.com', 'https://ok.example.com'] })),
    ).toContainEqual({
      field: 'webhooks',
      kind: 'scheme',
      values: ['ftp://x.example.com'],
    });
  });
});

describe('a list the server answers whole, paged in the browser', () => {
  const rows = ['Alpha', 'beta', 'Gamma', 'delta'].map((name) => ({ name }));
  it('filters by the search text, ignoring case, and cuts the page', () => {
    expect(localPage(rows, { page: 0, pageSize: 2 }, (row) => [row.name])).toEqual({
      items: [{ name: 'Alpha' }, { name: 'beta' }],
      total: 4,
    });
    expect(localPage(rows, { page: 1, pageSize: 2 }, (row) => [row.name])?.items).toEqual([
      { name: 'Gamma' },
      { name: 'delta' },
    ]);
    expect(localPage(rows, { page: 0, pageSize: 10, search: 'TA' }, (row) => [row.name])).toEqual({
      items: [{ name: 'beta' }, { name: 'delta' }],
      total: 2,
    });
    expect(localPage(undefined, { page: 0, pageSize: 10 }, () => [])).toBeUndefined();
  });
});
