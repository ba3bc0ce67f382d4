import { Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DealerLayout } from './DealerLayout.tsx';
import { IssuedLicensesTable } from './IssuedLicensesTable.tsx';
import { ProductsPanel } from './ProductsPanel.tsx';

type View = 'issued' | 'products';

/**
 * Spec 2 /dealer/licenses: the licences the dealer issued (server-paged; renew, autorenew, revoke) and, in a second
 * tab (`?view=products`), the products it sells with their versions.
 */
export default function LicensesPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const view: View = params.get('view') === 'products' ? 'products' : 'issued';
  return (
    <DealerLayout title={t('dealer.licenses.title')} testId="dealer-licenses-page">
      <Tabs
        value={view}
        onChange={(value) =>
          setParams(
            (current) => {
              const next = new URLSearchParams(current);
              if (value === 'products') next.set('view', 'products');
              else next.delete('view');
              return next;
            },
            { replace: true },
          )
        }
        keepMounted={false}
      >
        <Tabs.List aria-label={t('dealer.licenses.views')}>
          <Tabs.Tab value="issued">{t('dealer.licenses.issuedTab')}</Tabs.Tab>
          <Tabs.Tab value="products">{t('dealer.products.tab')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="issued" pt="md">
          <IssuedLicensesTable />
        </Tabs.Panel>
        <Tabs.Panel value="products" pt="md">
          <ProductsPanel />
        </Tabs.Panel>
      </Tabs>
    </DealerLayout>
  );
}
