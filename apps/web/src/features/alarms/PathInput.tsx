import { Autocomplete } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { fetchDevicePaths, searchModelPaths } from './api.ts';
import { ALARM_RULES_KEY } from './query-keys.ts';

type Props = {
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  deviceId: string | null;
  /** Only paths of this type are offered (a boolean condition needs a boolean path); the field still takes any. */
  types: readonly string[];
  error?: string;
};

/**
 * The model path a rule watches: free text starting with '/', with suggestions (READ models) — the chosen device's
 * paths, or without a device the paths of the organization's models matching what is typed.
 */
export function PathInput({ value, onChange, onBlur, deviceId, types, error }: Props) {
  const { t } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const canSuggest = ability.can('READ', 'models');
  const [typed] = useDebouncedValue(value, 250);
  const devicePaths = useQuery({
    queryKey: [ALARM_RULES_KEY, organization.id, 'device-paths', deviceId],
    queryFn: async ({ signal }) => fetchDevicePaths(await token(), organization.id, deviceId ?? '', signal),
    enabled: canSuggest && deviceId !== null,
    staleTime: 60_000,
  });
  const modelPaths = useQuery({
    queryKey: [ALARM_RULES_KEY, organization.id, 'model-paths', typed],
    queryFn: async ({ signal }) => searchModelPaths(await token(), organization.id, typed, signal),
    enabled: canSuggest && deviceId === null,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
  const entries =
    deviceId !== null
      ? (devicePaths.data?.paths ?? []).map((entry) => ({ path: entry.path, type: entry.type }))
      : (modelPaths.data?.items ?? []).map((entry) => ({ path: entry.path, type: entry.type }));
  const suggestions = [
    ...new Set(entries.filter((entry) => types.includes(entry.type)).map((entry) => entry.path)),
  ].sort();

  return (
    <Autocomplete
      label={t('alarms.rules.fields.path')}
      description={
        canSuggest
          ? deviceId
            ? t('alarms.rules.pathHintDevice')
            : t('alarms.rules.pathHintModels')
          : t('alarms.rules.pathHint')
      }
      placeholder="/motor/temperature"
      required
      value={value}
      onChange={onChange}
      onBlur={onBlur}
      data={suggestions}
      limit={50}
      error={error}
      maxLength={300}
      data-testid="rule-path"
    />
  );
}
