import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SectionTabs } from '../../app/routing/section-tabs.tsx';
import { useSearchParam } from '../../app/routing/use-search-param.ts';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { type RoleKind, rolesPathOf } from './api.ts';
import { RoleEditor } from './RoleEditor.tsx';
import { RolesTable } from './RolesTable.tsx';

/** Spec 2 /roles, /roles/data, /roles/device: the roles of one kind, and the editor (`?role={id}` or `?role=new`). */
function RolesOfKind({ kind }: { kind: RoleKind }) {
  const { t } = useTranslation();
  const { ability } = useOrganizationApi();
  const [roleId, setRoleId] = useSearchParam('role');
  const close = () => setRoleId(null);

  return (
    <Stack gap="md" p="md" data-testid={`roles-${kind}`}>
      <Title order={1} size="h2">
        {t('iamRoles.title')}
      </Title>
      <SectionTabs section="roles" />
      <Text c="dimmed" size="sm">
        {t(`iamRoles.intro.${kind}`)}
      </Text>
      {ability.can('READ', 'roles') ? (
        <RolesTable
          kind={kind}
          toolbar={
            ability.can('CREATE', 'roles') ? (
              <Button component={Link} to={`${rolesPathOf(kind)}?role=new`}>
                {t('iamRoles.newRole')}
              </Button>
            ) : null
          }
        />
      ) : (
        <Alert color="yellow">{t('iamRoles.noAccess')}</Alert>
      )}
      <RoleEditor roleId={roleId} kind={kind} onClose={close} />
    </Stack>
  );
}

export default function GeneralRolesPage() {
  return <RolesOfKind kind="general" />;
}

export function DataRolesPage() {
  return <RolesOfKind kind="data" />;
}

export function DeviceRolesPage() {
  return <RolesOfKind kind="device" />;
}
