import { Badge, Group, Radio, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AppPlan } from './api.ts';
import { planPriceText } from './plans.ts';

type PlanPickerProps = {
  plans: readonly AppPlan[];
  value: string | null;
  onChange: (planId: string) => void;
  label: string;
  /** The plan in use (change of plan): marked, and not offered. */
  current?: string;
};

/** The app's price plans as radio cards: name, price per period (integer minor units, formatted for the locale). */
export function PlanPicker({ plans, value, onChange, label, current }: PlanPickerProps) {
  const { t, i18n } = useTranslation();
  return (
    <Radio.Group value={value} onChange={onChange} label={label} data-testid="plan-picker">
      <SimpleGrid cols={{ base: 1, sm: Math.min(3, Math.max(1, plans.length)) }} spacing="sm" mt="xs">
        {plans.map((plan) => (
          <Radio.Card
            key={plan.id}
            value={plan.id}
            radius="md"
            p="md"
            disabled={plan.id === current}
            aria-label={t('store.plan.optionLabel', {
              name: plan.name,
              price: planPriceText(t, i18n.language, plan),
            })}
            data-testid="plan-option"
            data-plan={plan.id}
            style={plan.id === current ? { opacity: 0.7, cursor: 'not-allowed' } : undefined}
          >
            <Group wrap="nowrap" align="flex-start">
              <Radio.Indicator disabled={plan.id === current} />
              <Stack gap={2}>
                <Group gap="xs">
                  <Text fw={600}>{plan.name}</Text>
                  {plan.id === current && (
                    <Badge size="sm" variant="light">
                      {t('store.plan.current')}
                    </Badge>
                  )}
                </Group>
                <PlanPrice plan={plan} />
              </Stack>
            </Group>
          </Radio.Card>
        ))}
      </SimpleGrid>
    </Radio.Group>
  );
}

/** "9,90 € per month" or "Free". */
export function PlanPrice({ plan }: { plan: AppPlan }) {
  const { t, i18n } = useTranslation();
  return (
    <Text size="sm" c="dimmed" data-testid="plan-price">
      {planPriceText(t, i18n.language, plan)}
    </Text>
  );
}
