/**
 * A route at the path the spec names, and at the paths this server answered first, kept for clients written against
 * them: one handler, the older paths left out of the API document (so the generated client knows only the spec's).
 */
export function specPathAndAliases(
  specPath: string,
  ...aliases: string[]
): { path: string; hide: boolean; operationId: (id: string) => string | undefined }[] {
  return [
    { path: specPath, hide: false, operationId: (id) => id },
    ...aliases.map((path) => ({ path, hide: true, operationId: () => undefined })),
  ];
}
