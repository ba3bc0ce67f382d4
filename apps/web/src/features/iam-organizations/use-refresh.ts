import { useQueryClient } from '@tanstack/react-query';
import { ORGANIZATIONS_QUERY } from '../../app/shell/OrganizationSwitcher.tsx';
import { useOrganizationApi } from '../../app/use-organization-api.ts';

/** The query key of the entered organization's tree on this page. */
export function treeQueryKey(enteredId: string) {
  return ['iam-organizations', enteredId, 'tree'] as const;
}

/** Refreshes what shows organizations (this page's tree and the shell's organization list) after a change. */
export function useRefreshOrganizations() {
  const queryClient = useQueryClient();
  const { organization } = useOrganizationApi();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: treeQueryKey(organization.id) }),
      queryClient.invalidateQueries({ queryKey: ORGANIZATIONS_QUERY }),
    ]);
  };
}
