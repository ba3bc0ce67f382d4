import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SectionTabs } from '../../app/routing/section-tabs.tsx';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { RolesTable } from './RolesTable.tsx';

/** Spec 2 /permission/roles: every role of the organization, each linking to its editor under /roles. */
export default function PermissionRolesPage() {
  const { t } = useTranslation();
  const { ability } = useOrganizationApi();
  return (
    <Stack gap="md" p="md" data-testid="permission-roles">
      <Title order={1} size="h2">
        {t('iamRoles.permissionTitle')}
      </Title>
      <SectionTabs section="permission" />
      <Text c="dimmed" size="sm">
        {t('iamRoles.intro.all')}
      </Text>
      {ability.can('READ', 'roles') ? (
        <RolesTable
          toolbar={
            ability.can('CREATE', 'roles') ? (
              <Button component={Link} to="/roles?role=new">
                {t('iamRoles.newRole')}
              </Button>
            ) : null
          }
        />
      ) : (
        <Alert color="yellow">{t('iamRoles.noAccess')}</Alert>
      )}
    </Stack>
  );
}
