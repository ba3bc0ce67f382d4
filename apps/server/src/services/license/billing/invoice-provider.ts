import type { Db } from '../../../db/index.ts';
import type { Charge, ChargeResult, PaymentProvider } from './payment-provider.ts';

/** The default provider: every charge becomes an OPEN invoice; an operator marks it paid (see billing/service.ts). */
export class InvoiceProvider implements PaymentProvider {
  readonly name = 'invoice';

  async charge(_db: Db, _charge: Charge): Promise<ChargeResult> {
    throw new Error('InvoiceProvider.charge is not built yet');
  }
}
