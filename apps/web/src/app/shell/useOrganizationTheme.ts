import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Organization } from '../../auth/organizations.ts';
import { applyTheme, fetchOrganizationTheme } from '../../shared/theme/portal-theme.ts';
import { currentPortal } from '../portal.ts';

/** Spec 7: the organization's theme (colours, logo, brand name) dresses the shell once the user is inside. */
export function useOrganizationTheme(organization: Organization | undefined): void {
  const { organizations } = currentPortal();
  const organizationId = organization?.id;
  const theme = useQuery({
    queryKey: ['theme', organizationId],
    queryFn: async () => fetchOrganizationTheme(organizationId ?? '', await organizations.permissionToken()),
    enabled: organizationId !== undefined,
    staleTime: 5 * 60_000,
    retry: 1,
  });
  useEffect(() => {
    if (theme.data) applyTheme(theme.data);
  }, [theme.data]);
  useEffect(() => {
    if (theme.error) console.warn('organization theme unavailable', theme.error);
  }, [theme.error]);
}
