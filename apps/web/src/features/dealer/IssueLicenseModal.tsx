import { Alert, Button, Modal, Group as Row, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { formatMoney, totalMinor } from '../../shared/money/money.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { type Client, fetchProducts, type IssueInput, issueLicense, type Product } from './api.ts';
import { formatCount } from './format.ts';
import { useRefreshDealer } from './LicenseActions.tsx';
import { dealerFailure } from './messages.ts';
import { LIMITS, parseCount, problemText } from './product-form.ts';
import { DEALER_KEY } from './query-keys.ts';

type Props = { client: Client | null; onClose: () => void };

/**
 * Issues a licence of one of the dealer's products to a client: how many licence units, whether its term starts now
 * (ACTIVE, charged at once) or when the client activates its code (ISSUED), and autorenew.
 */
export function IssueLicenseModal({ client, onClose }: Props) {
  const { t, i18n } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const refresh = useRefreshDealer();
  const [productId, setProductId] = useState<string | null>(null);
  const [quantity, setQuantity] = useState('1');
  const [activate, setActivate] = useState(true);
  const [autorenew, setAutorenew] = useState(false);
  const [touched, setTouched] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const products = useQuery({
    queryKey: [DEALER_KEY, organization.id, 'products'],
    queryFn: async ({ signal }) => fetchProducts(await token(), organization.id, signal),
    enabled: client !== null,
  });

  useEffect(() => {
    if (client === null) return;
    setProductId(null);
    setQuantity('1');
    setActivate(true);
    setAutorenew(false);
    setTouched(false);
    setFailure(null);
  }, [client]);

  const product = products.data?.items.find((item) => item.id === productId);
  const count = parseCount(quantity, LIMITS.issueQuantity.min, LIMITS.issueQuantity.max);

  const issue = useMutation({
    mutationFn: async (input: IssueInput) =>
      issueLicense(await token(), organization.id, client?.id ?? '', input),
    onSuccess: async (issued) => {
      notifications.show({
        color: 'green',
        message: t(
          issued.license.status === 'ACTIVE' ? 'dealer.issue.doneActive' : 'dealer.issue.doneIssued',
          {
            code: issued.license.licenseCode,
            name: issued.license.organizationName,
          },
        ),
      });
      await refresh();
      onClose();
    },
    onError: (error) => setFailure(dealerFailure(t, 'issue', error)),
  });

  const submit = () => {
    setTouched(true);
    if (!product || !count.ok) return;
    issue.mutate({ productId: product.id, quantity: count.value, activate, autorenew });
  };

  const options = (products.data?.items ?? []).map((item) => ({
    value: item.id,
    label: t('dealer.issue.productOption', {
      name: item.name,
      code: item.code,
      price: formatMoney(item.current.priceMinor, item.current.currency, i18n.language),
      days: item.current.termDays,
    }),
  }));

  return (
    <Modal
      opened={client !== null}
      onClose={onClose}
      title={t('dealer.issue.title', { name: client?.name ?? '' })}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      size="lg"
    >
      <form
        noValidate
        data-testid="issue-license-form"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          {products.isError && (
            <LoadFailed
              title={t('dealer.products.loadFailed')}
              message={describeError(t, products.error)}
              onRetry={() => void products.refetch()}
            />
          )}
          {products.data?.items.length === 0 && (
            <Alert color="yellow" data-testid="issue-no-products">
              {t('dealer.issue.noProducts')}
            </Alert>
          )}
          <Select
            label={t('dealer.issue.product')}
            placeholder={products.isPending ? t('common.loading') : t('dealer.issue.pickProduct')}
            data={options}
            value={productId}
            onChange={setProductId}
            searchable
            required
            data-autofocus
            nothingFoundMessage={t('dealer.issue.noMatch')}
            error={touched && !product ? t('dealer.validation.productRequired') : undefined}
          />
          <TextInput
            label={t('dealer.issue.quantity')}
            description={t('dealer.issue.quantityHint')}
            inputMode="numeric"
            required
            value={quantity}
            onChange={(event) => setQuantity(event.currentTarget.value)}
            error={touched && !count.ok ? problemText(t, count.problem) : undefined}
          />
          <Switch
            label={t('dealer.issue.activate')}
            description={t('dealer.issue.activateHint')}
            checked={activate}
            onChange={(event) => setActivate(event.currentTarget.checked)}
          />
          <Switch
            label={t('dealer.issue.autorenew')}
            description={t('dealer.issue.autorenewHint')}
            checked={autorenew}
            onChange={(event) => setAutorenew(event.currentTarget.checked)}
          />
          {product && count.ok && (
            <IssueSummary product={product} quantity={count.value} activate={activate} />
          )}
          {failure && <Alert color="red">{failure}</Alert>}
          <Row justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={issue.isPending}>
              {t('dealer.issue.submit')}
            </Button>
          </Row>
        </Stack>
      </form>
    </Modal>
  );
}

/** What the licence grants and what one term costs the client, before it is issued. */
function IssueSummary({
  product,
  quantity,
  activate,
}: {
  product: Product;
  quantity: number;
  activate: boolean;
}) {
  const { t, i18n } = useTranslation();
  const grant = product.current.quantity * quantity;
  const total = totalMinor(product.current.priceMinor, quantity);
  return (
    <Alert color="blue" variant="light" data-testid="issue-summary">
      <Stack gap={2}>
        <Text size="sm">
          {t('dealer.issue.grants', {
            amount: formatCount(grant, i18n.language),
            resource: t(`dealer.resourceTypes.${product.resourceType}`),
            days: product.current.termDays,
          })}
        </Text>
        {total !== null && (
          <Text size="sm">
            {t(activate ? 'dealer.issue.chargedNow' : 'dealer.issue.chargedOnActivation', {
              price: formatMoney(total, product.current.currency, i18n.language),
            })}
          </Text>
        )}
        {product.resourceType === 'devices' && (
          <Text size="sm">
            {t(product.current.vpn ? 'dealer.issue.vpnKeys' : 'dealer.issue.deviceKeys', { count: grant })}
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
