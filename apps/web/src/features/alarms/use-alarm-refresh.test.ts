import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { scheduleAlarmRefresh } from './use-alarm-refresh.ts';

describe('alarm refresh after live changes', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reloads the organization’s alarm queries once per burst of changes, and only theirs', async () => {
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries').mockResolvedValue();
    for (let change = 0; change < 50; change += 1) scheduleAlarmRefresh(client, 'org-1');
    scheduleAlarmRefresh(client, 'org-2');
    expect(invalidate).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(200);
    expect(invalidate).toHaveBeenCalledTimes(2);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['alarms', 'org-1'] });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['alarms', 'org-2'] });
    // The next change starts a new burst.
    scheduleAlarmRefresh(client, 'org-1');
    await vi.advanceTimersByTimeAsync(200);
    expect(invalidate).toHaveBeenCalledTimes(3);
  });
});
