import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../shared/money/money.ts';
import type { InstalledApp } from './api.ts';

/** The last charge of an installed app when it still needs attention (an open or failed invoice). */
export function InvoiceNotice({ app }: { app: InstalledApp }) {
  const { t, i18n } = useTranslation();
  const invoice = app.lastInvoice;
  if (!invoice || (invoice.status !== 'OPEN' && invoice.status !== 'FAILED')) return null;
  const amount = formatMoney(invoice.amountMinor, invoice.currency, i18n.language);
  return (
    <Alert
      color={invoice.status === 'OPEN' ? 'yellow' : 'red'}
      title={t(`store.invoice.${invoice.status}.title`)}
      data-testid="invoice-notice"
    >
      {t(`store.invoice.${invoice.status}.message`, { number: invoice.number, amount })}
    </Alert>
  );
}
