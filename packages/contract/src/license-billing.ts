// Spec 7 "Licence", preauthorized transactions with execution orders, and the invoices of the default payment provider.
import { type Static, type TSchema, Type } from 'typebox';
import { literals, Paged } from './common.ts';

const orgParam = Type.String({ minLength: 1, maxLength: 80, description: 'organization id or resourceId' });
const uuid = Type.String({ format: 'uuid' });
const dateTime = Type.String({ format: 'date-time' });
const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
/** Money is integer minor units (cents), never floating point. */
const minor = Type.Integer({
  minimum: 0,
  maximum: Number.MAX_SAFE_INTEGER,
  description: 'integer minor units (cents)',
});
const currency = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code, e.g. EUR' });
const pageFields = {
  page: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 50 })),
};

export const OrganizationParams = Type.Object({ org: orgParam });
export const InvoiceParams = Type.Object({ org: orgParam, id: uuid });
export const TransactionParams = Type.Object({ org: orgParam, id: uuid });
export const ExecutionParams = Type.Object({
  org: orgParam,
  id: uuid,
  n: Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'execution order, 1 for the first charge' }),
});

export const INVOICE_STATUSES = ['OPEN', 'PAID', 'FAILED', 'VOID'] as const;
export const InvoiceStatus = literals(INVOICE_STATUSES);
export type InvoiceStatus = Static<typeof InvoiceStatus>;

export const Invoice = Type.Object({
  id: uuid,
  number: Type.Integer({ description: 'sequential invoice number' }),
  organizationId: uuid,
  organizationName: Type.String(),
  description: Type.String(),
  amountMinor: minor,
  currency: Type.String(),
  status: InvoiceStatus,
  provider: Type.String({
    description: 'the payment provider that issued it: invoice (default) or a card processor',
  }),
  reference: Type.String({
    description: 'what it pays for: license:{id}, app:{organizationAppId}, transaction:{id}/{n}',
  }),
  createdAt: dateTime,
  paidAt: nullable(dateTime),
  paidBy: nullable(Type.String({ description: "the user who marked it paid, or the provider's payment id" })),
});
export type Invoice = Static<typeof Invoice>;
export const InvoicePage = Paged(Invoice);
export type InvoicePage = Static<typeof InvoicePage>;

export const InvoiceListQuery = Type.Object(
  { ...pageFields, status: Type.Optional(InvoiceStatus) },
  { additionalProperties: false },
);
export type InvoiceListQuery = Static<typeof InvoiceListQuery>;

export const ClientInvoiceListQuery = Type.Object(
  {
    ...pageFields,
    status: Type.Optional(InvoiceStatus),
    organizationId: Type.Optional(
      Type.String({ format: 'uuid', description: 'only this descendant organization' }),
    ),
  },
  { additionalProperties: false },
);
export type ClientInvoiceListQuery = Static<typeof ClientInvoiceListQuery>;

export const TRANSACTION_RESULTS = [
  'AUTHORIZED',
  'USER_REJECTED',
  'ERROR_NO_EMPTY_TRANSACTIONS',
  'ERROR_NO_IN_APP_PURCHASES',
] as const;
export const TransactionResult = literals(TRANSACTION_RESULTS);
export type TransactionResult = Static<typeof TransactionResult>;

export const TRANSACTION_STATUSES = ['ACTIVE', 'REVOKED', 'EXHAUSTED', 'REFUSED'] as const;
export const TransactionStatus = literals(TRANSACTION_STATUSES);
export type TransactionStatus = Static<typeof TransactionStatus>;

export const Transaction = Type.Object({
  id: uuid,
  organizationId: uuid,
  description: Type.String(),
  purpose: Type.String(),
  currency: Type.String(),
  maxAmountMinor: minor,
  maxExecutions: Type.Integer({ minimum: 0 }),
  executions: Type.Integer({ minimum: 0, description: 'execution orders made so far' }),
  result: TransactionResult,
  status: TransactionStatus,
  createdBy: nullable(uuid),
  createdAt: dateTime,
  revokedAt: nullable(dateTime),
});
export type Transaction = Static<typeof Transaction>;
export const TransactionPage = Paged(Transaction);
export type TransactionPage = Static<typeof TransactionPage>;

export const TransactionListQuery = Type.Object(
  { ...pageFields, status: Type.Optional(TransactionStatus) },
  { additionalProperties: false },
);
export type TransactionListQuery = Static<typeof TransactionListQuery>;

export const TransactionCreate = Type.Object(
  {
    description: Type.String({ minLength: 1, maxLength: 500, pattern: '\\S' }),
    purpose: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: '\\S',
      description: 'what it pays for, as in invoices.reference (e.g. app:{organizationAppId})',
    }),
    currency,
    maxAmountMinor: Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description:
        'the most one execution may charge, integer minor units; 0 answers ERROR_NO_EMPTY_TRANSACTIONS',
    }),
    maxExecutions: Type.Integer({
      minimum: 0,
      maximum: 100_000,
      description: 'how many charges are allowed; 0 answers ERROR_NO_EMPTY_TRANSACTIONS',
    }),
    approved: Type.Boolean({
      description: 'the user\'s answer to "authorize these payments?"; false: USER_REJECTED',
    }),
  },
  { additionalProperties: false },
);
export type TransactionCreate = Static<typeof TransactionCreate>;

export const EXECUTION_STATUSES = ['PENDING', 'PAID', 'FAILED'] as const;
export const ExecutionStatus = literals(EXECUTION_STATUSES);
export type ExecutionStatus = Static<typeof ExecutionStatus>;

export const Execution = Type.Object({
  transactionId: uuid,
  n: Type.Integer({ minimum: 1 }),
  amountMinor: minor,
  invoiceId: nullable(uuid),
  invoiceStatus: nullable(InvoiceStatus),
  status: ExecutionStatus,
  error: nullable(Type.String()),
  createdAt: dateTime,
  updatedAt: dateTime,
});
export type Execution = Static<typeof Execution>;

export const ExecutionList = Type.Object({ items: Type.Array(Execution) });
export type ExecutionList = Static<typeof ExecutionList>;
