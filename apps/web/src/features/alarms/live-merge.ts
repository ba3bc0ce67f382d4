import type { Alarm, AlarmFilter, AlarmPage } from './types.ts';

/** Whether the alarm belongs in a list with this filter (the server's rules, applied to one alarm). */
export function matchesFilter(alarm: Alarm, filter: AlarmFilter): boolean {
  if (filter.open !== undefined && alarm.open !== filter.open) return false;
  if (filter.severities?.length && !filter.severities.includes(alarm.severity)) return false;
  if (filter.statuses?.length && !filter.statuses.includes(alarm.status)) return false;
  if (filter.ack && alarm.ack !== filter.ack) return false;
  if (filter.reset && alarm.reset !== filter.reset) return false;
  if (filter.deviceId && alarm.deviceId !== filter.deviceId) return false;
  if (filter.ruleId && alarm.ruleId !== filter.ruleId) return false;
  if (filter.from && Date.parse(alarm.raisedAt) < Date.parse(filter.from)) return false;
  if (filter.to && Date.parse(alarm.raisedAt) >= Date.parse(filter.to)) return false;
  if (filter.search) {
    const needle = filter.search.toLowerCase();
    const haystack = [alarm.message, alarm.name, alarm.deviceLabel ?? ''];
    if (!haystack.some((text) => text.toLowerCase().includes(needle))) return false;
  }
  return true;
}

export type ListView = {
  filter: AlarmFilter;
  page: number;
  sort: string | undefined;
  order: 'asc' | 'desc' | undefined;
};

/** The list's first page, newest first: where a newly raised alarm goes without asking the server. */
function newestFirst(view: ListView): boolean {
  return view.page === 0 && (view.sort === undefined || view.sort === 'raisedAt') && view.order !== 'asc';
}

/**
 * A live alarm change applied to the page on screen, at once (the server's answer follows): a row already shown is
 * replaced (an alarm that no longer matches stays until that answer, so rows do not jump under the pointer); a newly
 * raised matching alarm goes on top of the first page of a newest-first list. Answers the page unchanged (the same
 * object) when the change does not touch it.
 */
export function mergeLiveAlarm(page: AlarmPage, alarm: Alarm, view: ListView): AlarmPage {
  const index = page.items.findIndex((item) => item.id === alarm.id);
  if (index >= 0) {
    const shown = page.items[index];
    if (shown && Date.parse(shown.updatedAt) > Date.parse(alarm.updatedAt)) return page;
    const items = [...page.items];
    items[index] = alarm;
    return { ...page, items };
  }
  if (!matchesFilter(alarm, view.filter) || !newestFirst(view)) return page;
  const items = [alarm, ...page.items].slice(0, page.pageSize);
  return { ...page, items, total: page.total + 1 };
}

/** Keeps what the screen knows about chosen alarms current (their states decide which buttons apply). */
export function refreshChosen(chosen: ReadonlyMap<string, Alarm>, alarm: Alarm): ReadonlyMap<string, Alarm> {
  if (!chosen.has(alarm.id)) return chosen;
  const next = new Map(chosen);
  next.set(alarm.id, alarm);
  return next;
}
