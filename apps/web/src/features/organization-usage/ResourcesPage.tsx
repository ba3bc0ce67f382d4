import { Divider, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { BillingSection } from './components/BillingSection.tsx';
import { DeviceLicensesSection } from './components/DeviceLicensesSection.tsx';
import { LicensesSection } from './components/LicensesSection.tsx';
import { SubOrganizationsSection } from './components/SubOrganizationsSection.tsx';
import { TrialNotice } from './components/TrialNotice.tsx';
import { UsageSection } from './components/UsageSection.tsx';
import { OrganizationTabs } from './OrganizationTabs.tsx';

/**
 * Spec 2 /organizations/resources: what the organization holds (allowances of its licences, what it uses of them,
 * its device licences), what is assigned to each sub-organization, and its billing (invoices, preauthorized
 * transactions).
 */
export default function ResourcesPage() {
  const { t } = useTranslation();
  const { organization, ability } = useOrganizationApi();
  const canManage = ability.can('UPDATE', 'organizations');
  return (
    <Stack gap="lg" data-testid="organization-resources-page">
      <OrganizationTabs />
      <Stack gap={4}>
        <Title order={1} size="h2">
          {t('organizationUsage.resources.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('organizationUsage.resources.intro', { name: organization.name })}
        </Text>
      </Stack>
      <TrialNotice />
      <UsageSection />
      <LicensesSection canManage={canManage} />
      {ability.can('READ', 'devices') && <DeviceLicensesSection />}
      <SubOrganizationsSection />
      <Divider />
      <BillingSection canManage={canManage} />
    </Stack>
  );
}
