import {
  Alert,
  Button,
  Modal,
  Group as Row,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { formatMoney, minorToInput } from '../../shared/money/money.ts';
import { createProduct, createVersion, type Product, RESOURCE_TYPES, type ResourceType } from './api.ts';
import { useRefreshDealer } from './LicenseActions.tsx';
import { dealerFailure } from './messages.ts';
import {
  checkProduct,
  checkVersion,
  LIMITS,
  type Problem,
  type ProductDraft,
  problemText,
} from './product-form.ts';

export type ProductFormTarget = { kind: 'product' } | { kind: 'version'; product: Product };

const EMPTY: ProductDraft = {
  code: '',
  name: '',
  description: '',
  resourceType: 'devices',
  quantity: '1',
  termDays: '365',
  price: '',
  currency: 'EUR',
  vpn: false,
};

function draftOf(target: ProductFormTarget): ProductDraft {
  if (target.kind === 'product') return EMPTY;
  const { product } = target;
  const current = product.current;
  return {
    ...EMPTY,
    code: product.code,
    name: product.name,
    resourceType: product.resourceType,
    quantity: String(current.quantity),
    termDays: String(current.termDays),
    price: minorToInput(current.priceMinor, current.currency),
    currency: current.currency,
    vpn: current.vpn,
  };
}

/**
 * A new product (code, name, resource type and its version 1), or a new version of one (grant, term, price): the
 * price is typed as a decimal and sent exactly as integer minor units.
 */
export function ProductFormModal({
  target,
  onClose,
}: {
  target: ProductFormTarget | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const refresh = useRefreshDealer();
  const [draft, setDraft] = useState<ProductDraft>(EMPTY);
  const [problems, setProblems] = useState<Partial<Record<keyof ProductDraft, Problem>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const isVersion = target?.kind === 'version';

  useEffect(() => {
    if (target === null) return;
    setDraft(draftOf(target));
    setProblems({});
    setFailure(null);
  }, [target]);

  const save = useMutation({
    mutationFn: async () => {
      const bearer = await token();
      if (target?.kind === 'version') {
        const checked = checkVersion(draft);
        if (!checked.ok) return null;
        await createVersion(bearer, organization.id, target.product.id, checked.input);
        return draft.name;
      }
      const checked = checkProduct(draft);
      if (!checked.ok) return null;
      return (await createProduct(bearer, organization.id, checked.input)).name;
    },
    onSuccess: async (name) => {
      if (name === null) return;
      notifications.show({
        color: 'green',
        message: t(isVersion ? 'dealer.products.versionCreated' : 'dealer.products.created', { name }),
      });
      await refresh();
      onClose();
    },
    onError: (error) => setFailure(dealerFailure(t, isVersion ? 'version' : 'product', error)),
  });

  const submit = () => {
    const checked = isVersion ? checkVersion(draft) : checkProduct(draft);
    if (!checked.ok) {
      setProblems(checked.problems);
      return;
    }
    setProblems({});
    setFailure(null);
    save.mutate();
  };

  const set = <Field extends keyof ProductDraft>(field: Field, value: ProductDraft[Field]) =>
    setDraft((current) => ({ ...current, [field]: value }));
  const errorOf = (field: keyof ProductDraft) => {
    const problem = problems[field];
    return problem ? problemText(t, problem) : undefined;
  };
  const preview = checkVersion(draft);

  return (
    <Modal
      opened={target !== null}
      onClose={onClose}
      size="lg"
      title={
        target?.kind === 'version'
          ? t('dealer.products.versionTitle', { name: target.product.name })
          : t('dealer.products.createTitle')
      }
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form
        noValidate
        data-testid="product-form"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          {isVersion ? (
            <Text size="sm" c="dimmed">
              {t('dealer.products.versionHint')}
            </Text>
          ) : (
            <>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  label={t('dealer.products.fields.code')}
                  description={t('dealer.products.fields.codeHint')}
                  required
                  maxLength={LIMITS.code}
                  data-autofocus
                  value={draft.code}
                  onChange={(event) => set('code', event.currentTarget.value)}
                  error={errorOf('code')}
                />
                <Select
                  label={t('dealer.products.fields.resourceType')}
                  required
                  allowDeselect={false}
                  data={RESOURCE_TYPES.map((type) => ({
                    value: type,
                    label: t(`dealer.resourceTypes.${type}`),
                  }))}
                  value={draft.resourceType}
                  onChange={(value) => value && set('resourceType', value as ResourceType)}
                />
              </SimpleGrid>
              <TextInput
                label={t('dealer.products.fields.name')}
                required
                maxLength={LIMITS.name}
                value={draft.name}
                onChange={(event) => set('name', event.currentTarget.value)}
                error={errorOf('name')}
              />
              <Textarea
                label={t('dealer.products.fields.description')}
                autosize
                minRows={2}
                maxLength={LIMITS.description}
                value={draft.description}
                onChange={(event) => set('description', event.currentTarget.value)}
              />
            </>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('dealer.products.fields.quantity')}
              description={t(`dealer.products.fields.quantityHint.${draft.resourceType}`)}
              inputMode="numeric"
              required
              data-autofocus={isVersion || undefined}
              value={draft.quantity}
              onChange={(event) => set('quantity', event.currentTarget.value)}
              error={errorOf('quantity')}
            />
            <TextInput
              label={t('dealer.products.fields.termDays')}
              inputMode="numeric"
              required
              value={draft.termDays}
              onChange={(event) => set('termDays', event.currentTarget.value)}
              error={errorOf('termDays')}
            />
            <TextInput
              label={t('dealer.products.fields.price')}
              description={t('dealer.products.fields.priceHint')}
              inputMode="decimal"
              required
              value={draft.price}
              onChange={(event) => set('price', event.currentTarget.value)}
              error={errorOf('price')}
            />
            <TextInput
              label={t('dealer.products.fields.currency')}
              description={t('dealer.products.fields.currencyHint')}
              required
              maxLength={3}
              value={draft.currency}
              onChange={(event) => set('currency', event.currentTarget.value.toUpperCase())}
              error={errorOf('currency')}
            />
          </SimpleGrid>
          {draft.resourceType === 'devices' && (
            <Switch
              label={t('dealer.products.fields.vpn')}
              description={t('dealer.products.fields.vpnHint')}
              checked={draft.vpn}
              onChange={(event) => set('vpn', event.currentTarget.checked)}
            />
          )}
          {preview.ok && (
            <Text size="sm" c="dimmed" data-testid="product-price-preview">
              {t('dealer.products.pricePreview', {
                price: formatMoney(preview.input.priceMinor, preview.input.currency, i18n.language),
                days: preview.input.termDays,
              })}
            </Text>
          )}
          {failure && <Alert color="red">{failure}</Alert>}
          <Row justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {isVersion ? t('dealer.products.createVersion') : t('dealer.products.create')}
            </Button>
          </Row>
        </Stack>
      </form>
    </Modal>
  );
}
