/** The TanStack Query key root of everything the dealer area loads (clients, licences, products, invoices). */
export const DEALER_KEY = 'dealer';
