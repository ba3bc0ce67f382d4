import { Badge, CloseButton, Group, Paper, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { fetchStatusNotices, type StatusNotice } from './api.ts';
import { dismissedNotices, rememberDismissed } from './dismissed.ts';
import classes from './StatusNotices.module.css';
import { scheduleStatusNotices } from './scheduler.ts';

/** Spec 9: below this screen width the frames take the full width. */
const MOBILE_QUERY = '(max-width: 599px)';

function useStatusNotices() {
  const [notices, setNotices] = useState<StatusNotice[]>([]);
  useEffect(
    () =>
      scheduleStatusNotices({
        load: fetchStatusNotices,
        isDismissed: (id) => dismissedNotices().has(id),
        // On screen before the timer's task ends: the next one is counted from when this one appeared.
        show: (notice) => flushSync(() => setNotices((shown) => [...shown, notice])),
        withdraw: (id) => setNotices((shown) => shown.filter((notice) => notice.id !== id)),
      }),
    [],
  );
  const dismiss = (id: string) => {
    rememberDismissed(id);
    setNotices((shown) => shown.filter((notice) => notice.id !== id));
  };
  return { notices, dismiss };
}

/** Spec 2/4: incidents and maintenances as stacked frames (365x180; full width on mobile). */
export function StatusNotices() {
  const { t } = useTranslation();
  const { notices, dismiss } = useStatusNotices();
  const mobile = useMediaQuery(MOBILE_QUERY, false, { getInitialValueInEffect: false });
  if (notices.length === 0) return null;
  return (
    <section
      aria-label={t('statusNotices.region', { count: notices.length })}
      className={mobile ? `${classes.stack} ${classes.mobile}` : classes.stack}
      data-testid="status-notices"
    >
      {notices.map((notice) => (
        <NoticeFrame key={notice.id} notice={notice} onDismiss={() => dismiss(notice.id)} />
      ))}
    </section>
  );
}

function NoticeFrame({ notice, onDismiss }: { notice: StatusNotice; onDismiss: () => void }) {
  const { t, i18n } = useTranslation();
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const incident = notice.type === 'incident';
  return (
    <Paper
      role="status"
      shadow="md"
      withBorder
      className={classes.frame}
      data-type={notice.type}
      data-testid="status-notice"
      data-notice-id={notice.id}
    >
      <Stack gap={6} h="100%">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap">
            <Badge color={incident ? 'red' : 'blue'} variant="light">
              {t(incident ? 'statusNotices.incident' : 'statusNotices.maintenance')}
            </Badge>
            <Text size="xs" c="dimmed" truncate>
              {t('statusNotices.status', { status: notice.status })}
            </Text>
          </Group>
          <CloseButton aria-label={t('statusNotices.dismiss')} onClick={onDismiss} />
        </Group>
        <Text fw={600} lineClamp={3} className={classes.title}>
          {notice.title}
        </Text>
        <Text size="xs" c="dimmed">
          {t(incident ? 'statusNotices.since' : 'statusNotices.scheduled', {
            date: date.format(new Date(notice.date)),
          })}
        </Text>
        <Text size="xs" c="dimmed">
          {t('statusNotices.updated', { date: date.format(new Date(notice.updatedAt)) })}
        </Text>
      </Stack>
    </Paper>
  );
}
