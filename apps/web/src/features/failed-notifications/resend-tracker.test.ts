import { describe, expect, it, vi } from 'vitest';
import type { Delivery, DeliveryStatus } from './api.ts';
import { locate, mergeRows, stateOf, type Tracked } from './resend-tracker.ts';

function delivery(id: string, status: DeliveryStatus, attempts = 4): Delivery {
  return {
    id,
    notificationId: null,
    notificationName: 'Ops',
    channel: 'webhook',
    target: `http://127.0.0.1:9/${id}`,
    subject: 'Alarm raised',
    status,
    attempts,
    lastError: status === 'FAILED' ? 'connect ECONNREFUSED' : null,
    nextAttemptAt: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    sentAt: status === 'SENT' ? '2025-01-01T00:01:00.000Z' : null,
  };
}

function lists(byStatus: Partial<Record<DeliveryStatus, Delivery[]>>) {
  return vi.fn(async (status: DeliveryStatus) => byStatus[status] ?? []);
}

const pending = (id: string): Tracked => ({ id, delivery: delivery(id, 'PENDING', 0), state: 'pending' });

describe('following a resent delivery', () => {
  it('keeps it pending while it is queued, without looking further', async () => {
    const list = lists({ PENDING: [delivery('a', 'PENDING', 1)] });
    const [entry] = await locate([pending('a')], list);
    expect(entry).toMatchObject({ id: 'a', state: 'pending', delivery: { attempts: 1 } });
    expect(list).toHaveBeenCalledTimes(1);
  });

  it('finds it sent or failed again once it left the queue', async () => {
    const list = lists({ FAILED: [delivery('b', 'FAILED')], SENT: [delivery('a', 'SENT', 1)] });
    const located = await locate([pending('a'), pending('b'), pending('c')], list);
    expect(located.map((entry) => [entry.id, entry.state])).toEqual([
      ['a', 'sent'],
      ['b', 'failed'],
      ['c', 'unknown'],
    ]);
    expect(located[0]?.delivery.sentAt).toBe('2025-01-01T00:01:00.000Z');
  });

  it('asks nothing when nothing is pending', async () => {
    const list = lists({});
    const done: Tracked = { id: 'a', delivery: delivery('a', 'SENT'), state: 'sent' };
    expect(await locate([done], list)).toEqual([done]);
    expect(list).not.toHaveBeenCalled();
  });

  it('reads the state of a status', () => {
    expect(stateOf('PENDING')).toBe('pending');
    expect(stateOf('SENT')).toBe('sent');
    expect(stateOf('FAILED')).toBe('failed');
  });
});

describe('the rows of the failed log', () => {
  it('shows resent deliveries that left the page on top, and the latest state of those still on it', () => {
    const page = [delivery('x', 'FAILED'), delivery('b', 'FAILED')];
    const sent: Tracked = { id: 'a', delivery: delivery('a', 'SENT', 1), state: 'sent' };
    const queued = pending('b');
    const rows = mergeRows(page, [sent, queued]);
    expect(rows.map((row) => [row.delivery.id, row.delivery.status, row.tracked?.state])).toEqual([
      ['a', 'SENT', 'sent'],
      ['x', 'FAILED', undefined],
      ['b', 'PENDING', 'pending'],
    ]);
  });
});
