import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Code,
  Loader,
  Group as Row,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { formatMoney } from '../../shared/money/money.ts';
import { confirmDanger } from '../../shared/ui/confirm.tsx';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { deleteProduct, fetchAllProducts, fetchVersions, type Product } from './api.ts';
import { formatCount, formatDate } from './format.ts';
import { useRefreshDealer } from './LicenseActions.tsx';
import { dealerFailure } from './messages.ts';
import { ProductFormModal, type ProductFormTarget } from './ProductFormModal.tsx';
import { DEALER_KEY } from './query-keys.ts';

/** The products the dealer sells: the current version's grant, term and price; versions; new product, new version, delete. */
export function ProductsPanel() {
  const { t, i18n } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const refresh = useRefreshDealer();
  const [target, setTarget] = useState<ProductFormTarget | null>(null);
  const [expanded, setExpanded] = useState<string | null>(null);
  const canCreate = ability.can('CREATE', 'products');
  const canUpdate = ability.can('UPDATE', 'products');
  const canDelete = ability.can('DELETE', 'products');

  const products = useQuery({
    queryKey: [DEALER_KEY, organization.id, 'allProducts'],
    queryFn: async ({ signal }) => fetchAllProducts(await token(), organization.id, signal),
  });

  const remove = async (product: Product) => {
    try {
      await deleteProduct(await token(), organization.id, product.id);
      notifications.show({ color: 'green', message: t('dealer.products.deleted', { name: product.name }) });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t('dealer.products.deleteFailed'),
        message: dealerFailure(t, 'deleteProduct', error),
      });
    } finally {
      await refresh();
    }
  };

  return (
    <Stack gap="sm" data-testid="dealer-products">
      <Row justify="space-between">
        <Text size="sm" c="dimmed">
          {t('dealer.products.hint')}
        </Text>
        {canCreate && (
          <Button onClick={() => setTarget({ kind: 'product' })} data-testid="new-product">
            {t('dealer.products.new')}
          </Button>
        )}
      </Row>
      {products.isPending && (
        <Row gap="sm" aria-busy="true">
          <Loader size="sm" />
          <Text c="dimmed">{t('common.loading')}</Text>
        </Row>
      )}
      {products.isError && (
        <LoadFailed
          title={t('dealer.products.loadFailed')}
          message={describeError(t, products.error)}
          onRetry={() => void products.refetch()}
        />
      )}
      {products.data?.length === 0 && (
        <Stack gap={4} align="center" py="lg" data-testid="products-empty">
          <Text fw={500}>{t('dealer.products.empty')}</Text>
          <Text size="sm" c="dimmed">
            {canCreate ? t('dealer.products.emptyHint') : t('dealer.products.emptyAskHint')}
          </Text>
        </Stack>
      )}
      {products.data && products.data.length > 0 && (
        <Table.ScrollContainer minWidth={760}>
          <Table aria-label={t('dealer.products.tableLabel')} highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40}>
                  <VisuallyHidden>{t('dealer.products.columns.versions')}</VisuallyHidden>
                </Table.Th>
                <Table.Th>{t('dealer.products.columns.code')}</Table.Th>
                <Table.Th>{t('dealer.products.columns.name')}</Table.Th>
                <Table.Th>{t('dealer.products.columns.resourceType')}</Table.Th>
                <Table.Th ta="right">{t('dealer.products.columns.quantity')}</Table.Th>
                <Table.Th ta="right">{t('dealer.products.columns.termDays')}</Table.Th>
                <Table.Th ta="right">{t('dealer.products.columns.price')}</Table.Th>
                <Table.Th>{t('dealer.products.columns.version')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('dealer.products.columns.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {products.data.map((product) => {
                const open = expanded === product.id;
                return (
                  <Fragment key={product.id}>
                    <Table.Tr data-product-code={product.code}>
                      <Table.Td>
                        <ActionIcon
                          variant="subtle"
                          color="gray"
                          aria-expanded={open}
                          aria-label={t(
                            open ? 'dealer.products.hideVersions' : 'dealer.products.showVersions',
                            {
                              code: product.code,
                            },
                          )}
                          onClick={() => setExpanded(open ? null : product.id)}
                        >
                          {open ? '▾' : '▸'}
                        </ActionIcon>
                      </Table.Td>
                      <Table.Td>
                        <Code style={{ whiteSpace: 'nowrap' }}>{product.code}</Code>
                      </Table.Td>
                      <Table.Td>{product.name}</Table.Td>
                      <Table.Td>
                        {t(`dealer.resourceTypes.${product.resourceType}`)}
                        {product.current.vpn && (
                          <Badge ml={6} size="xs" variant="outline" tt="none">
                            {t('organization.vpn')}
                          </Badge>
                        )}
                      </Table.Td>
                      <Table.Td ta="right">{formatCount(product.current.quantity, i18n.language)}</Table.Td>
                      <Table.Td ta="right">{formatCount(product.current.termDays, i18n.language)}</Table.Td>
                      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }} data-testid="product-price">
                        {formatMoney(product.current.priceMinor, product.current.currency, i18n.language)}
                      </Table.Td>
                      <Table.Td>{t('dealer.licenses.version', { version: product.currentVersion })}</Table.Td>
                      <Table.Td>
                        <Row gap="xs" wrap="nowrap" justify="flex-end">
                          {canUpdate && (
                            <Button
                              size="compact-sm"
                              variant="subtle"
                              aria-label={t('dealer.products.newVersionLabel', { code: product.code })}
                              onClick={() => setTarget({ kind: 'version', product })}
                            >
                              {t('dealer.products.newVersion')}
                            </Button>
                          )}
                          {canDelete && (
                            <Button
                              size="compact-sm"
                              variant="subtle"
                              color="red"
                              aria-label={t('dealer.products.deleteLabel', { code: product.code })}
                              onClick={() =>
                                confirmDanger({
                                  title: t('dealer.products.deleteTitle'),
                                  message: t('dealer.products.deleteConfirm', {
                                    name: product.name,
                                    code: product.code,
                                  }),
                                  confirmLabel: t('dealer.products.delete'),
                                  onConfirm: () => remove(product),
                                })
                              }
                            >
                              {t('dealer.products.delete')}
                            </Button>
                          )}
                        </Row>
                      </Table.Td>
                    </Table.Tr>
                    {open && (
                      <Table.Tr>
                        <Table.Td colSpan={9} p={0}>
                          <ProductVersions product={product} />
                        </Table.Td>
                      </Table.Tr>
                    )}
                  </Fragment>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ProductFormModal target={target} onClose={() => setTarget(null)} />
    </Stack>
  );
}

/** Every version of a product, newest first: what licences of each version grant and cost. */
function ProductVersions({ product }: { product: Product }) {
  const { t, i18n } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const versions = useQuery({
    queryKey: [DEALER_KEY, organization.id, 'versions', product.id, product.currentVersion],
    queryFn: async ({ signal }) => fetchVersions(await token(), organization.id, product.id, signal),
  });
  if (versions.isPending)
    return (
      <Row gap="sm" p="sm" aria-busy="true">
        <Loader size="xs" />
        <Text size="sm" c="dimmed">
          {t('common.loading')}
        </Text>
      </Row>
    );
  if (versions.isError)
    return (
      <Alert color="red" m="sm" title={t('dealer.products.versionsFailed')}>
        <Text size="sm">{describeError(t, versions.error)}</Text>
      </Alert>
    );
  return (
    <Table
      m="sm"
      withTableBorder
      aria-label={t('dealer.products.versionsLabel', { code: product.code })}
      data-testid="product-versions"
    >
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('dealer.products.columns.version')}</Table.Th>
          <Table.Th ta="right">{t('dealer.products.columns.quantity')}</Table.Th>
          <Table.Th ta="right">{t('dealer.products.columns.termDays')}</Table.Th>
          <Table.Th ta="right">{t('dealer.products.columns.price')}</Table.Th>
          <Table.Th>{t('dealer.products.columns.createdAt')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {versions.data.items.map((version) => (
          <Table.Tr key={version.version}>
            <Table.Td>
              {t('dealer.licenses.version', { version: version.version })}
              {version.version === product.currentVersion && (
                <Badge ml={6} size="xs" variant="light" tt="none">
                  {t('dealer.products.current')}
                </Badge>
              )}
            </Table.Td>
            <Table.Td ta="right">{formatCount(version.quantity, i18n.language)}</Table.Td>
            <Table.Td ta="right">{formatCount(version.termDays, i18n.language)}</Table.Td>
            <Table.Td ta="right">{formatMoney(version.priceMinor, version.currency, i18n.language)}</Table.Td>
            <Table.Td>{formatDate(version.createdAt, i18n.language)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
