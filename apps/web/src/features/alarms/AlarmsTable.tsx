import { Alert, Group as Row, Stack, Text, Tooltip } from '@mantine/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { DataTable, type PageRequest, usePageRequest } from '../../shared/ui/DataTable.tsx';
import { RowLinkButton } from '../../shared/ui/RowLinkButton.tsx';
import { AlarmActionsBar } from './AlarmActionsBar.tsx';
import { AlarmFiltersBar } from './AlarmFiltersBar.tsx';
import { ACTION_PERMISSION, ALARM_ACTIONS } from './actions.ts';
import {
  ALL_ALARMS,
  type AlarmFilters,
  alarmFilter,
  isFiltered,
  OPEN_ALARMS,
  reversedRange,
  searchBody,
} from './alarm-query.ts';
import { type Alarm, type AlarmPage, searchAlarms } from './api.ts';
import { formatTime, formatValue } from './format.ts';
import { mergeLiveAlarm, refreshChosen } from './live-merge.ts';
import { ALARMS_KEY } from './query-keys.ts';
import { SeverityBadge } from './SeverityBadge.tsx';
import { SeveritySummary } from './SeveritySummary.tsx';
import { AlarmStatusBadge, RequirementText } from './StateBadges.tsx';
import type { Severity } from './severity.ts';
import { useAlarmRefresh } from './use-alarm-refresh.ts';

type Mode = 'open' | 'history';

/**
 * The alarms of the organization, server-paged: open ones (/alarms, with the severity summary and the operator's
 * steps) or all of them (the history). Live: each alarm change updates its row at once and reloads the page, so new
 * alarms appear without a reload.
 */
export function AlarmsTable({ mode, onOpenAlarm }: { mode: Mode; onOpenAlarm: (id: string) => void }) {
  const { t, i18n } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const base = mode === 'open' ? OPEN_ALARMS : ALL_ALARMS;
  const [request, setRequest] = usePageRequest({ sort: 'raisedAt', order: 'desc' });
  const [filters, setFilters] = useState<AlarmFilters>(base);
  const [chosen, setChosen] = useState<ReadonlyMap<string, Alarm>>(() => new Map());
  const reversed = reversedRange(filters);
  const body = searchBody(request, filters);
  const queryKey = [ALARMS_KEY, organization.id, 'list', body];

  const list = useQuery({
    queryKey,
    queryFn: async ({ signal }) => searchAlarms(await token(), organization.id, body, signal),
    placeholderData: keepPreviousData,
    enabled: !reversed,
  });

  const { connected } = useAlarmRefresh(true, (message) => {
    queryClient.setQueryData<AlarmPage>(queryKey, (page) =>
      page
        ? mergeLiveAlarm(page, message.alarm, {
            filter: alarmFilter(filters, request.search),
            page: request.page,
            sort: request.sort,
            order: request.order,
          })
        : page,
    );
    setChosen((current) => refreshChosen(current, message.alarm));
  });

  const onRequestChange = useCallback((next: PageRequest) => setRequest(next), [setRequest]);
  const changeFilters = useCallback(
    (changes: Partial<AlarmFilters>) => {
      setFilters((current) => ({ ...current, ...changes }));
      setRequest((current) => ({ ...current, page: 0 }));
      // What was chosen under other filters is not what the steps should act on now.
      setChosen(new Map());
    },
    [setRequest],
  );
  const toggleSeverity = (severity: Severity) =>
    changeFilters({
      severities: filters.severities.includes(severity)
        ? filters.severities.filter((entry) => entry !== severity)
        : [...filters.severities, severity],
    });

  const pageItems = list.data?.items;
  const onSelectionChange = useCallback(
    (next: Set<string>) =>
      setChosen((current) => {
        const map = new Map<string, Alarm>();
        for (const id of next) {
          const alarm = current.get(id) ?? pageItems?.find((item) => item.id === id);
          if (alarm) map.set(id, alarm);
        }
        return map;
      }),
    [pageItems],
  );

  const columns = useMemo<ColumnDef<Alarm>[]>(() => {
    const all: (ColumnDef<Alarm> | false)[] = [
      {
        id: 'severity',
        header: t('alarms.columns.severity'),
        cell: ({ row }) => <SeverityBadge severity={row.original.severity} />,
      },
      {
        id: 'deviceLabel',
        header: t('alarms.columns.device'),
        cell: ({ row }) =>
          row.original.deviceLabel ?? (
            <Text size="sm" c="dimmed">
              {t('alarms.noDevice')}
            </Text>
          ),
      },
      {
        id: 'name',
        header: t('alarms.columns.name'),
        cell: ({ row }) => (
          <Stack gap={0}>
            <RowLinkButton
              onClick={() => onOpenAlarm(row.original.id)}
              label={t('alarms.open', { name: row.original.name, device: row.original.deviceLabel ?? '' })}
            >
              {row.original.name}
            </RowLinkButton>
            <Text size="xs" c="dimmed" lineClamp={2} maw={360}>
              {row.original.message}
            </Text>
          </Stack>
        ),
      },
      {
        id: 'value',
        header: t('alarms.columns.value'),
        enableSorting: false,
        cell: ({ row }) => formatValue(row.original.value, i18n.language),
      },
      {
        id: 'status',
        header: t('alarms.columns.status'),
        enableSorting: false,
        cell: ({ row }) => <AlarmStatusBadge status={row.original.status} />,
      },
      {
        id: 'ack',
        header: t('alarms.columns.ack'),
        enableSorting: false,
        cell: ({ row }) => <RequirementText kind="ack" value={row.original.ack} />,
      },
      {
        id: 'reset',
        header: t('alarms.columns.reset'),
        enableSorting: false,
        cell: ({ row }) => <RequirementText kind="reset" value={row.original.reset} />,
      },
      {
        id: 'raisedAt',
        header: t('alarms.columns.raisedAt'),
        cell: ({ row }) => formatTime(row.original.raisedAt, i18n.language),
      },
      mode === 'history' && {
        id: 'clearedAt',
        header: t('alarms.columns.closedAt'),
        enableSorting: false,
        cell: ({ row }) =>
          row.original.clearedAt ? (
            <Tooltip
              label={
                row.original.clearedBy
                  ? t('alarms.closedBy', { user: row.original.clearedBy })
                  : t('alarms.closedBySystem')
              }
            >
              <Text size="sm" component="span" tabIndex={0}>
                {formatTime(row.original.clearedAt, i18n.language)}
              </Text>
            </Tooltip>
          ) : (
            <Text size="sm" c="dimmed">
              {t('alarms.stillOpen')}
            </Text>
          ),
      },
    ];
    return all.filter((column): column is ColumnDef<Alarm> => column !== false);
  }, [t, i18n.language, mode, onOpenAlarm]);

  const filtered = isFiltered(filters, base, request.search);
  const narrowed = isFiltered(filters, base);
  // Rows are chosen only to act on them: with none of ACK, RESET, CLEAR on alarms there is nothing to choose for.
  const selectable =
    mode === 'open' && ALARM_ACTIONS.some((action) => ability.can(ACTION_PERMISSION[action], 'alarms'));

  return (
    <Stack gap="sm">
      {mode === 'open' && <SeveritySummary selected={filters.severities} onToggle={toggleSeverity} />}
      <AlarmFiltersBar
        filters={filters}
        onChange={changeFilters}
        onReset={() => {
          setFilters(base);
          setRequest((current) => ({ ...current, page: 0 }));
          setChosen(new Map());
        }}
        history={mode === 'history'}
        filtered={narrowed}
      />
      {selectable && (
        <AlarmActionsBar
          chosen={[...chosen.values()]}
          filter={alarmFilter(filters, request.search)}
          matching={list.data?.total ?? 0}
          onDone={() => setChosen(new Map())}
        />
      )}
      {reversed ? (
        <Alert color="orange">{t('alarms.filters.reversedHint')}</Alert>
      ) : (
        <DataTable<Alarm>
          label={mode === 'open' ? t('alarms.tableLabel') : t('alarms.historyTableLabel')}
          columns={columns}
          request={request}
          onRequestChange={onRequestChange}
          query={list}
          rowId={(alarm) => alarm.id}
          selection={
            selectable
              ? {
                  selected: new Set(chosen.keys()),
                  onChange: onSelectionChange,
                  rowLabel: (alarm) =>
                    t('alarms.select.row', { name: alarm.name, device: alarm.deviceLabel ?? '' }),
                  pageLabel: t('alarms.select.page'),
                }
              : undefined
          }
          toolbar={
            <Row gap={6}>
              <Text size="xs" c={connected ? 'teal' : 'dimmed'} data-testid="alarms-live" aria-live="polite">
                {connected ? t('alarms.live.on') : t('alarms.live.off')}
              </Text>
            </Row>
          }
          empty={
            <Stack gap={4} align="center">
              <Text fw={500}>
                {filtered
                  ? t('alarms.empty.noMatch')
                  : mode === 'open'
                    ? t('alarms.empty.noOpen')
                    : t('alarms.empty.noHistory')}
              </Text>
              <Text size="sm" c="dimmed">
                {filtered ? t('alarms.empty.noMatchHint') : t('alarms.empty.hint')}
              </Text>
            </Stack>
          }
        />
      )}
    </Stack>
  );
}
