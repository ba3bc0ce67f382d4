import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryStorage } from '../../test-support/memory-storage.ts';
import {
  agreementsUrl,
  markAgreementsShown,
  resetAgreementChecks,
  shouldShowAgreements,
} from './agreement-gate.ts';

afterEach(() => {
  resetAgreementChecks();
  vi.restoreAllMocks();
});

describe('agreements, once per session (spec 4)', () => {
  it('asks the server once per identity session, whatever the answer', async () => {
    const storage = new MemoryStorage();
    const hasPending = vi.fn(async () => true);
    expect(await shouldShowAgreements({ sessionId: 's1', storage, hasPending })).toBe(true);
    expect(await shouldShowAgreements({ sessionId: 's1', storage, hasPending })).toBe(false);
    expect(hasPending).toHaveBeenCalledTimes(1);
    expect(await shouldShowAgreements({ sessionId: 's2', storage, hasPending })).toBe(true);
  });

  it('shares one check between concurrent guards', async () => {
    const storage = new MemoryStorage();
    const hasPending = vi.fn(async () => true);
    const answers = await Promise.all([
      shouldShowAgreements({ sessionId: 's1', storage, hasPending }),
      shouldShowAgreements({ sessionId: 's1', storage, hasPending }),
    ]);
    expect(answers).toEqual([true, true]);
    expect(hasPending).toHaveBeenCalledTimes(1);
  });

  it('a visit to the agreements screen counts as the session’s one', async () => {
    const storage = new MemoryStorage();
    markAgreementsShown('s1', storage);
    expect(await shouldShowAgreements({ sessionId: 's1', storage, hasPending: async () => true })).toBe(
      false,
    );
  });

  it('a failed check is logged, lets the user on, and is asked again next time', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const storage = new MemoryStorage();
    const hasPending = vi.fn().mockRejectedValueOnce(new Error('Network Error')).mockResolvedValue(true);
    expect(await shouldShowAgreements({ sessionId: 's1', storage, hasPending })).toBe(false);
    expect(await shouldShowAgreements({ sessionId: 's1', storage, hasPending })).toBe(true);
  });

  it('returns to where the user was going', () => {
    expect(agreementsUrl({ pathname: '/devices', search: '?tab=1' })).toBe(
      '/agreements?redirectTo=%2Fdevices%3Ftab%3D1',
    );
  });
});
