import { Button, Group, Select, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Facets } from './api.ts';
import { actionPrefixes, fromLocalInput, type LogView, toLocalInput } from './log-query.ts';

type Props = {
  view: LogView;
  facets: Facets | undefined;
  facetsFailed: boolean;
  reversed: boolean;
  onChange: (changes: Partial<LogView>) => void;
  onReset: () => void;
};

const TYPING_DELAY_MS = 300;

/** Present options plus the current value, so a shared link's filter shows even when the log no longer has it. */
function withCurrent(values: readonly string[], current: string): string[] {
  return current === '' || values.includes(current) ? [...values] : [current, ...values];
}

/** The log's filters: who, what, resource type and time range (the search box sits in the table). */
export function LogFilters({ view, facets, facetsFailed, reversed, onChange, onReset }: Props) {
  const { t } = useTranslation();
  const [who, setWho] = useState(view.who);

  useEffect(() => {
    if (who === view.who) return;
    const timer = setTimeout(() => onChange({ who }), TYPING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [who, view.who, onChange]);

  const actions = facets?.actions ?? [];
  const prefixes = actionPrefixes(actions);
  const whatData = [
    ...(prefixes.length > 0
      ? [
          {
            group: t('auditLog.filters.areas'),
            items: prefixes.map((prefix) => ({
              value: prefix,
              label: t('auditLog.filters.anyChangeOf', { area: prefix.slice(0, -1) }),
            })),
          },
        ]
      : []),
    {
      group: t('auditLog.filters.actions'),
      items: withCurrent(actions, prefixes.includes(view.what) ? '' : view.what),
    },
  ];
  const placeholder = facetsFailed ? t('auditLog.filters.optionsFailed') : t('auditLog.filters.any');

  return (
    <Group align="flex-end" gap="sm" wrap="wrap" data-testid="audit-filters">
      <TextInput
        label={t('auditLog.filters.who')}
        placeholder={t('auditLog.filters.whoPlaceholder')}
        value={who}
        onChange={(event) => setWho(event.currentTarget.value)}
        w={220}
      />
      <Select
        label={t('auditLog.filters.what')}
        placeholder={placeholder}
        data={whatData}
        value={view.what || null}
        onChange={(value) => onChange({ what: value ?? '' })}
        searchable
        clearable
        nothingFoundMessage={t('auditLog.filters.nothingFound')}
        w={240}
      />
      <Select
        label={t('auditLog.filters.resourceType')}
        placeholder={placeholder}
        data={withCurrent(facets?.resourceTypes ?? [], view.resourceType)}
        value={view.resourceType || null}
        onChange={(value) => onChange({ resourceType: value ?? '' })}
        searchable
        clearable
        nothingFoundMessage={t('auditLog.filters.nothingFound')}
        w={200}
      />
      <TextInput
        type="datetime-local"
        label={t('auditLog.filters.from')}
        value={toLocalInput(view.from)}
        onChange={(event) => onChange({ from: fromLocalInput(event.currentTarget.value, 'start') })}
        w={210}
      />
      <TextInput
        type="datetime-local"
        label={t('auditLog.filters.to')}
        value={toLocalInput(view.to)}
        onChange={(event) => onChange({ to: fromLocalInput(event.currentTarget.value, 'end') })}
        error={reversed ? t('auditLog.filters.reversedShort') : undefined}
        w={210}
      />
      <Button variant="default" onClick={onReset}>
        {t('auditLog.filters.reset')}
      </Button>
    </Group>
  );
}
