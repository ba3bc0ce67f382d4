/**
 * Operations left out of the cross-tenant matrix because they are not about another tenant's data: they name no
 * organization and no object of one, or the thing they name is a capability (an import token) or realm-wide. Each
 * entry says why. The matrix test fails for an operation that is neither matrix-testable nor listed here, and for
 * an entry that names no operation any more, so the table stays true.
 *
 * Exempt GET operations are still called with the caller's own values and their answers searched for the other
 * tenant's markers (ids, tagged names, e-mails): they must answer with the caller's own data only.
 */
export const EXEMPT: Record<string, string> = {
  // Public, realm- or host-level information.
  'GET /svc/core/api/v1/instance': 'public product/version/realm of the host; no tenant data',
  'GET /svc/core/api/v1/organizations/loginInfo': 'public: which realm a host name belongs to',
  'GET /svc/core/api/v1/agreements/last': "public: the realm's published agreements",
  'GET /svc/core/api/v1/status/issues': "public: the realm's status feed",
  'GET /svc/theme/theme': 'public: the theme of the realm the host names',
  'POST /svc/core/api/v1/organizations/selfOnBoarding':
    'public sign-up creating a new organization and account; names no existing object',

  // The caller's own account, read from the token's subject.
  'GET /svc/core/api/v1/organizations/mine': "the caller's organizations (from the token's subject)",
  'GET /svc/core/api/v1/organizations/mineRealms': "realms where the caller's e-mail has an account",
  'GET /svc/core/api/v1/organizations/myIp': "the caller's own IP address",
  'GET /svc/core/api/v1/users/mine': "the caller's own account",
  'GET /svc/core/api/v1/account': "the caller's own account",
  'GET /svc/core/api/v1/account/invitations':
    "invitations addressed to the caller's own account (from the token's subject)",
  'PATCH /svc/core/api/v1/account': "changes the caller's own names/locale",
  'DELETE /svc/core/api/v1/account/credentials/{id}':
    "removes the caller's own OTP credential ('password'/'otp' are per-account names, not ids of others)",
  'GET /svc/core/api/v1/userPreferences': "the caller's own preferences",
  'POST /svc/core/api/v1/userPreferences': "saves a preference of the caller's own",
  'GET /svc/core/api/v1/agreements/check': 'agreements the caller has not accepted yet',
  'POST /svc/core/api/v1/agreements/accept': 'records the caller accepting realm agreements',

  // Realm-wide or catalogue data, not an organization's.
  'GET /svc/core/api/v1/applicationpermissions/all': 'the shared catalogue of application permissions',
  // The status feed is the realm's, written only by the organization that owns the realm: account-takeover.test.ts
  // tries it as the other tenants (B, and C made through self-onboarding) against the owner's incident.
  'POST /svc/core/api/v1/status/issues':
    "the realm's status feed, not an organization's data (realm owner only)",
  'PUT /svc/core/api/v1/status/issues/{id}':
    "the realm's status feed, not an organization's data (realm owner only)",
  'DELETE /svc/core/api/v1/status/issues/{id}':
    "the realm's status feed, not an organization's data (realm owner only)",
  'GET /svc/core/api/v1/apps':
    'the store catalogue, shared by every organization (the apps table names none)',
  'GET /svc/core/api/v1/apps/{id}': 'one app of the shared store catalogue; no organization owns it',
  'GET /svc/core/api/v1/apps/{id}/like': "the caller's own like of a shared catalogue app (no organization)",
  'POST /svc/core/api/v1/apps/{id}/like': "the caller's own like of a shared catalogue app (no organization)",
  'DELETE /svc/core/api/v1/apps/{id}/like':
    "the caller's own like of a shared catalogue app (no organization)",

  // Creating something new, or organization given by the token rather than by the path.
  'POST /svc/core/api/v1/organizations': 'creates a new top-level organization owned by the caller',
  'GET /svc/core/api/v1/organizations/users':
    "deep user search in the token's organization and its sub-organizations (no organization in the path)",
  'GET /svc/core/api/v1/organizations/importToken/{token}':
    'the import token is the capability: whoever holds it may see the organization it moves things into',

  // Remote access: the legacy cookie login (public; the account and organization come from the form) and
  // installation-wide information.
  'POST /svc/vpn/login':
    'public form login: checks the credentials of the {email}/{domain} given, names no object',
  'POST /svc/vpn/api/login': 'public form login (second path of the same login), names no object',
  'GET /svc/vpn/ping': "keeps the caller's own cookie session alive; names nothing",
  'POST /svc/vpn/logout': "ends the caller's own cookie session; names nothing",
  'GET /svc/vpn2/api/v1/companionApp/info': 'the companion CLI download and command line; no tenant data',
  'GET /svc/vpn2/api/v1/regions': "the installation's one region (its public origin); no tenant data",

  // Dashboards (issue 6): the organization is the token's; lists and creation name no object of another tenant.
  'POST /svc/dashboard/api/v1/dashboards':
    "creates a new dashboard owned by the caller in the token's organization; names no existing object",
  'GET /svc/dashboard/api/v1/dashboards': "the dashboards the caller may open in the token's organization",
  'GET /svc/dashboard/api/v1/dashboards/mine': "the dashboards the caller owns in the token's organization",
  'GET /svc/dashboard/api/v1/dashboards/sharedWithMe':
    "the dashboards shared with the caller in the token's organization",
  'POST /svc/dashboard/api/v1/flows':
    "creates a new flow owned by the caller in the token's organization; names no existing object",
  'GET /svc/dashboard/api/v1/flows': "the flows the caller may open in the token's organization",
  'GET /svc/dashboard/api/v1/flows/mine': "the flows the caller owns in the token's organization",
  'GET /svc/dashboard/api/v1/flows/sharedWithMe':
    "the flows shared with the caller in the token's organization",
  'POST /svc/dashboard/api/v1/widgets':
    "creates a new widget owned by the caller in the token's organization; names no existing object",
  'GET /svc/dashboard/api/v1/widgets': "the widgets the caller may open in the token's organization",
  'GET /svc/dashboard/api/v1/widgets/mine': "the widgets the caller owns in the token's organization",
  'GET /svc/dashboard/api/v1/widgets/sharedWithMe':
    "the widgets shared with the caller in the token's organization",
  'GET /svc/dashboard/api/v1/assetstorage':
    "the asset storage usage of the token's organization (its own assets and gallery files)",
  'GET /svc/dashboard/api/v1/organizations/manifest': "the gallery of the token's organization",
  'GET /svc/dashboard/api/v1/organizations/gallery/widgets':
    "the widgets of the gallery of the token's organization",
  'PUT /svc/dashboard/api/v1/gallery/assets/{a}/upload':
    "multipart upload into the token's organization's gallery: {a} is a name inside the caller's own " +
    "organization (no other tenant's row is looked up); the harness sends JSON only, so gallery.test.ts " +
    'covers it: another organization uploading the same name leaves the first one untouched',
};
