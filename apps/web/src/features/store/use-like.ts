import { notifications } from '@mantine/notifications';
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { type CatalogueApp, type CataloguePage, setLike, storeKeys } from './api.ts';
import { type LikeState, toggledLike, updateApp } from './likes.ts';

type Snapshot = { pages: [QueryKey, CataloguePage | undefined][]; app: CatalogueApp | undefined };

/**
 * Like / unlike an app of the catalogue. The button shows the new state at once (every cached catalogue page and the
 * app's detail); the server's answer then sets the exact count, and a failure puts the previous state back.
 */
export function useLike() {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const queryClient = useQueryClient();
  const pagesKey = storeKeys.catalogue(organization.id);

  const apply = (id: string, change: (app: CatalogueApp) => CatalogueApp) => {
    queryClient.setQueriesData<CataloguePage>({ queryKey: pagesKey }, (page) => updateApp(page, id, change));
    queryClient.setQueryData<CatalogueApp>(storeKeys.app(organization.id, id), (app) => app && change(app));
  };

  return useMutation<LikeState, unknown, CatalogueApp, Snapshot>({
    mutationFn: async (app) => setLike(await token(), app.id, !app.liked),
    onMutate: async (app) => {
      await queryClient.cancelQueries({ queryKey: pagesKey });
      const snapshot: Snapshot = {
        pages: queryClient.getQueriesData<CataloguePage>({ queryKey: pagesKey }),
        app: queryClient.getQueryData<CatalogueApp>(storeKeys.app(organization.id, app.id)),
      };
      apply(app.id, toggledLike);
      return snapshot;
    },
    onSuccess: (like, app) => apply(app.id, (current) => ({ ...current, ...like })),
    onError: (error, app, snapshot) => {
      if (snapshot) {
        for (const [key, page] of snapshot.pages) queryClient.setQueryData(key, page);
        queryClient.setQueryData(storeKeys.app(organization.id, app.id), snapshot.app);
      }
      notifications.show({
        color: 'red',
        title: t(app.liked ? 'store.like.unlikeFailed' : 'store.like.likeFailed', { name: app.name }),
        message: describeError(t, error),
      });
    },
  });
}
