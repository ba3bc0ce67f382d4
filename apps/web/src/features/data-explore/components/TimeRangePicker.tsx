import { Button, Group, SegmentedControl, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  fromLocalInput,
  PRESETS,
  type Preset,
  type RangeChoice,
  type RangeProblem,
  resolveRange,
  toLocalInput,
} from '../time-range.ts';

type Props = {
  choice: RangeChoice;
  /** Changes when the range is set from outside the inputs (zoom, back): the inputs then show it afresh. */
  revision: number;
  highFreq: boolean;
  problem: RangeProblem | undefined;
  onChange: (choice: RangeChoice) => void;
  /** Moves a quick range to end now. */
  onRefresh: () => void;
  /** Returns to the range before the last zoom; absent when there is none. */
  onBack?: () => void;
};

const CUSTOM = 'custom';

/** Quick ranges ending now, or explicit bounds (native date-time inputs; milliseconds with `highFreq`). */
export function TimeRangePicker({ choice, revision, highFreq, problem, onChange, onRefresh, onBack }: Props) {
  const { t } = useTranslation();
  const range = resolveRange(choice);
  return (
    <Stack gap="xs" maw="100%">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <SegmentedControl
          // Six ranges do not fit a phone's width (390 px): they wrap instead of widening the page.
          maw="100%"
          style={{ flexWrap: 'wrap' }}
          aria-label={t('dataExplore.range.label')}
          value={choice.kind === 'custom' ? CUSTOM : choice.preset}
          onChange={(value) => {
            if (value === CUSTOM) onChange({ kind: 'custom', ...range });
            else onChange({ kind: 'preset', preset: value as Preset, anchor: Date.now() });
          }}
          data={[
            ...PRESETS.map((preset) => ({ value: preset, label: t(`dataExplore.range.presets.${preset}`) })),
            { value: CUSTOM, label: t('dataExplore.range.presets.custom') },
          ]}
        />
        {choice.kind === 'preset' && (
          <Button variant="default" size="sm" onClick={onRefresh}>
            {t('dataExplore.range.refresh')}
          </Button>
        )}
        {onBack && (
          <Button variant="subtle" size="sm" onClick={onBack} aria-label={t('dataExplore.range.backLabel')}>
            {t('dataExplore.range.back')}
          </Button>
        )}
      </Group>
      {choice.kind === 'custom' && (
        <CustomRange
          key={revision}
          from={choice.from}
          to={choice.to}
          highFreq={highFreq}
          problem={problem}
          onChange={(from, to) => onChange({ kind: 'custom', from, to })}
        />
      )}
    </Stack>
  );
}

function CustomRange({
  from,
  to,
  highFreq,
  problem,
  onChange,
}: {
  from: number;
  to: number;
  highFreq: boolean;
  problem: RangeProblem | undefined;
  onChange: (from: number, to: number) => void;
}) {
  const { t } = useTranslation();
  const [fromText, setFromText] = useState(() => toLocalInput(from, highFreq));
  const [toText, setToText] = useState(() => toLocalInput(to, highFreq));
  const step = highFreq ? 0.001 : 1;
  const commit = (nextFrom: string, nextTo: string) => {
    const start = fromLocalInput(nextFrom);
    const end = fromLocalInput(nextTo);
    onChange(start, end);
  };
  const message = problem ? t(`dataExplore.range.${problem}`) : undefined;
  return (
    <Group gap="sm" align="flex-start" wrap="wrap">
      <TextInput
        type="datetime-local"
        label={t('dataExplore.range.from')}
        value={fromText}
        step={step}
        onChange={(event) => {
          setFromText(event.currentTarget.value);
          commit(event.currentTarget.value, toText);
        }}
        error={problem === 'invalid' && Number.isNaN(fromLocalInput(fromText)) ? message : undefined}
        data-testid="range-from"
      />
      <TextInput
        type="datetime-local"
        label={t('dataExplore.range.to')}
        value={toText}
        step={step}
        onChange={(event) => {
          setToText(event.currentTarget.value);
          commit(fromText, event.currentTarget.value);
        }}
        error={
          problem && !(problem === 'invalid' && Number.isNaN(fromLocalInput(fromText))) ? message : undefined
        }
        data-testid="range-to"
      />
    </Group>
  );
}
