/** The status colours the portal uses everywhere: green done/in force, blue waiting, orange attention, red failed. */
export const LICENSE_COLORS: Record<string, string> = {
  ISSUED: 'blue',
  ACTIVE: 'green',
  EXPIRED: 'orange',
  REVOKED: 'gray',
};

export const INVOICE_COLORS: Record<string, string> = {
  OPEN: 'blue',
  PAID: 'green',
  FAILED: 'red',
  VOID: 'gray',
};

export const TRANSACTION_COLORS: Record<string, string> = {
  ACTIVE: 'green',
  REVOKED: 'gray',
  EXHAUSTED: 'orange',
  REFUSED: 'red',
};

export const EXECUTION_COLORS: Record<string, string> = {
  PENDING: 'blue',
  PAID: 'green',
  FAILED: 'red',
};

export function colorOf(colors: Record<string, string>, status: string): string {
  return colors[status] ?? 'gray';
}
