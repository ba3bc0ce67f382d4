export type Option = { value: string; label: string };

/**
 * Picker options with an entry for every chosen id the list does not hold (deleted meanwhile, or a list the user may
 * not read), so a chosen value never silently disappears from the form.
 */
export function withChosen(
  options: readonly Option[],
  chosen: readonly string[],
  missing: (id: string) => string,
) {
  const known = new Set(options.map((option) => option.value));
  return [
    ...options,
    ...chosen.filter((id) => !known.has(id)).map((id) => ({ value: id, label: missing(id) })),
  ];
}

/** "Ada Lovelace <ada@example.com>", or the address alone for someone without a name. */
export function userLabel(user: { email: string; firstName?: string; lastName?: string }): string {
  const name = `${user.firstName ?? ''} ${user.lastName ?? ''}`.trim();
  return name ? `${name} <${user.email}>` : user.email;
}
