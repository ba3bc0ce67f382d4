import { canSeeScreen } from '@edgeport/permissions';
import { ActionIcon, Indicator, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useEnteredOrganization } from '../../app/shell/useEnteredOrganization.ts';
import { badgeCount, highestSeverity, SEVERITY_COLOR } from './severity.ts';
import { useAlarmRefresh } from './use-alarm-refresh.ts';
import { useSeverityCounts } from './use-severity-counts.ts';

/**
 * The top bar's alarm bell: the organization's open alarms (spec 4's count) in the colour of the highest severity
 * present, live, linking to /alarms. Shown only to whoever may open the alarms screen (IoT on, READ devices).
 */
export function AlarmBadge() {
  const entered = useEnteredOrganization();
  const allowed = entered ? canSeeScreen(entered.ability, 'alarms', entered.features) : false;
  if (!allowed) return null;
  return <AlarmBell />;
}

function AlarmBell() {
  const { t } = useTranslation();
  const counts = useSeverityCounts();
  useAlarmRefresh(true);
  const total = counts.data?.total ?? 0;
  const highest = highestSeverity(counts.data);
  const label = counts.data ? t('alarms.badge.label', { count: total }) : t('alarms.badge.labelUnknown');
  return (
    <Tooltip label={label}>
      <Indicator
        label={badgeCount(total)}
        size={18}
        color={highest ? SEVERITY_COLOR[highest] : 'gray'}
        autoContrast
        disabled={total === 0}
        offset={4}
        data-testid="alarm-badge"
        data-count={counts.data ? total : undefined}
        data-severity={highest ?? undefined}
      >
        <ActionIcon component={Link} to="/alarms" variant="subtle" size="lg" aria-label={label}>
          <BellIcon />
        </ActionIcon>
      </Indicator>
    </Tooltip>
  );
}

function BellIcon() {
  return (
    <svg
      width="20"
      height="20"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" strokeLinecap="round" strokeLinejoin="round" />
      <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
