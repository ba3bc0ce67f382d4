import { MultiSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DataPath } from '../api.ts';

/** The most paths one query may name (the server's limit). */
export const MAX_PATHS = 20;

type Props = {
  paths: DataPath[] | undefined;
  loading: boolean;
  failed: boolean;
  devicesChosen: boolean;
  value: string[];
  onChange: (paths: string[]) => void;
};

/** Multi-select over the model paths the chosen devices have (text paths go to the table and the CSV only). */
export function PathPicker({ paths, loading, failed, devicesChosen, value, onChange }: Props) {
  const { t } = useTranslation();
  const data = (paths ?? []).map((entry) => {
    const unit = entry.unit ? ` (${entry.unit})` : '';
    const text = entry.type === 'string' ? ` · ${t('dataExplore.paths.textOnly')}` : '';
    return { value: entry.path, label: `${entry.path}${unit}${text}` };
  });
  const description = !devicesChosen
    ? t('dataExplore.paths.pickDevicesFirst')
    : paths && paths.length === 0
      ? t('dataExplore.paths.none')
      : undefined;
  return (
    <MultiSelect
      label={t('dataExplore.paths.label')}
      placeholder={value.length === 0 ? t('dataExplore.paths.placeholder') : undefined}
      description={description}
      data={data}
      value={value}
      onChange={onChange}
      searchable
      maxValues={MAX_PATHS}
      clearable
      hidePickedOptions
      disabled={!devicesChosen}
      nothingFoundMessage={loading ? t('common.loading') : t('dataExplore.paths.noMatch')}
      error={failed ? t('dataExplore.paths.failed') : undefined}
      data-testid="path-picker"
      style={{ flex: 1, minWidth: 260 }}
    />
  );
}
