import type { StatusNotice } from './api.ts';

/** Spec 9: the status feed is polled every 3 minutes… */
export const STATUS_POLL_INTERVAL_MS = 180_000;
/** …and new notices appear one after another, 200 ms apart. */
export const NOTICE_STAGGER_MS = 200;

export type NoticeSchedulerOptions = {
  load: () => Promise<StatusNotice[]>;
  isDismissed: (id: string) => boolean;
  show: (notice: StatusNotice) => void;
  /** A shown notice that left the feed (resolved and removed by the administrators). */
  withdraw: (id: string) => void;
  intervalMs?: number;
  staggerMs?: number;
};

/**
 * Polls the feed now and then every interval; every notice not dismissed and not on screen yet is shown, one after
 * another. Failed polls are only logged: the next poll tries again. Returns the stop function.
 */
export function scheduleStatusNotices(options: NoticeSchedulerOptions): () => void {
  const { intervalMs = STATUS_POLL_INTERVAL_MS, staggerMs = NOTICE_STAGGER_MS } = options;
  const onScreen = new Set<string>();
  let queue: StatusNotice[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastShown = Number.NEGATIVE_INFINITY;
  let stopped = false;

  // Each notice comes staggerMs after the one before it came: a timer that fired late (a busy page) never brings the
  // next one closer.
  const showNext = () => {
    timer = undefined;
    const next = queue.shift();
    if (!next || stopped) return;
    options.show(next);
    lastShown = Date.now();
    showLater();
  };
  const showLater = () => {
    if (timer !== undefined || queue.length === 0) return;
    timer = setTimeout(showNext, Math.max(0, lastShown + staggerMs - Date.now()));
  };

  const poll = async () => {
    let notices: StatusNotice[];
    try {
      notices = await options.load();
    } catch (error) {
      console.warn('status notices unavailable', error);
      return;
    }
    if (stopped) return;
    const inFeed = new Set(notices.map((notice) => notice.id));
    for (const id of onScreen) {
      if (!inFeed.has(id)) {
        onScreen.delete(id);
        options.withdraw(id);
      }
    }
    queue = queue.filter((notice) => inFeed.has(notice.id));
    const fresh = notices.filter((notice) => !onScreen.has(notice.id) && !options.isDismissed(notice.id));
    for (const notice of fresh) {
      onScreen.add(notice.id);
      queue.push(notice);
    }
    showLater();
  };

  void poll();
  const interval = setInterval(() => void poll(), intervalMs);
  return () => {
    stopped = true;
    clearInterval(interval);
    clearTimeout(timer);
    queue = [];
  };
}
