import { vpn } from '@edgeport/contract/values';

export type ClientOs = (typeof vpn.CLIENT_OS)[number];
export type RemoteClientOs = Exclude<(typeof vpn.REMOTE_CLIENT_OS)[number], ''>;
export type AppProtocol = (typeof vpn.ENDPOINT_PROTOCOLS)[number];

export const CLIENT_OS: readonly ClientOs[] = vpn.CLIENT_OS;
export const APP_PROTOCOLS: readonly AppProtocol[] = vpn.ENDPOINT_PROTOCOLS;
/** Spec 3: remote-access calls name Linux, Mac or Win. */
export const REMOTE_CLIENT_OS: readonly RemoteClientOs[] = ['Win', 'Linux', 'Mac'];

export const NAME_MAX = 100;
export const DESCRIPTION_MAX = 500;
export const PATH_MAX = 500;

const DEFAULT_PORTS: Readonly<Record<AppProtocol, number | undefined>> = {
  HTTP: 80,
  HTTPS: 443,
  TCP: undefined,
};

/** Whether an application of `protocol` opens in a browser (and so has a path). */
export function isWebProtocol(protocol: AppProtocol): boolean {
  return protocol === 'HTTP' || protocol === 'HTTPS';
}

/** Names end up in addresses (spec 7 paths): neither empty nor holding a slash or backslash. */
export function nameProblem(name: string): string | undefined {
  const trimmed = name.trim();
  if (trimmed === '') return 'nameRequired';
  if (trimmed.length > NAME_MAX) return 'nameTooLong';
  if (/[/\\]/.test(trimmed)) return 'nameSlash';
  return undefined;
}

/** The port as a number when it is a whole number 1..65535, else undefined. */
export function parsePort(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d{1,5}$/.test(trimmed)) return undefined;
  const port = Number(trimmed);
  return port >= 1 && port <= 65535 ? port : undefined;
}

// --- applications ------------------------------------------------------------------------------------------------

/** What the application form holds; `profileId` '' is "no profile". */
export type ApplicationFormValues = {
  name: string;
  profileId: string;
  protocol: AppProtocol;
  port: string;
  path: string;
  clientOs: ClientOs[];
  description: string;
};

export type ApplicationField = 'name' | 'port' | 'path' | 'description';
export type ApplicationProblems = Partial<Record<ApplicationField, string>>;

/** The stored shape of an application the form edits. */
export type ApplicationLike = {
  name: string;
  profileId: string | null;
  protocol: AppProtocol;
  port: number;
  path: string;
  clientOs: readonly ClientOs[];
  description: string;
};

export function applicationFormValues(application?: ApplicationLike): ApplicationFormValues {
  if (!application)
    return {
      name: '',
      profileId: '',
      protocol: 'HTTP',
      port: '80',
      path: '/',
      clientOs: [],
      description: '',
    };
  return {
    name: application.name,
    profileId: application.profileId ?? '',
    protocol: application.protocol,
    port: String(application.port),
    path: application.path || (isWebProtocol(application.protocol) ? '/' : ''),
    clientOs: [...application.clientOs],
    description: application.description,
  };
}

export function applicationFormProblems(values: ApplicationFormValues): ApplicationProblems {
  const problems: ApplicationProblems = {};
  const name = nameProblem(values.name);
  if (name) problems.name = name;
  if (parsePort(values.port) === undefined) problems.port = 'portRange';
  if (isWebProtocol(values.protocol)) {
    const path = values.path.trim();
    if (path !== '' && !path.startsWith('/')) problems.path = 'pathSlash';
    else if (path.length > PATH_MAX) problems.path = 'pathTooLong';
  }
  if (values.description.length > DESCRIPTION_MAX) problems.description = 'descriptionTooLong';
  return problems;
}

/**
 * The port after the protocol changes: the new protocol's default when the port was empty or the old protocol's
 * default, otherwise what the user typed.
 */
export function portAfterProtocolChange(previous: AppProtocol, next: AppProtocol, port: string): string {
  const previousDefault = DEFAULT_PORTS[previous];
  const untouched =
    port.trim() === '' || (previousDefault !== undefined && port.trim() === String(previousDefault));
  if (!untouched) return port;
  const nextDefault = DEFAULT_PORTS[next];
  return nextDefault === undefined ? '' : String(nextDefault);
}

/** The body of create (POST) or edit (PUT, with `id`): the path only for HTTP(S), '/' when left empty. */
export function applicationInput(values: ApplicationFormValues, id?: string) {
  const description = values.description.trim();
  const path = values.path.trim();
  return {
    ...(id && { id }),
    name: values.name.trim(),
    profileId: values.profileId === '' ? null : values.profileId,
    protocol: values.protocol,
    port: parsePort(values.port) ?? 0,
    ...(isWebProtocol(values.protocol) && { path: path === '' ? '/' : path }),
    clientOs: CLIENT_OS.filter((os) => values.clientOs.includes(os)),
    description,
  };
}

/** The client systems an application is for, in the contract's order; empty means every system. */
export function clientOsList(clientOs: readonly string[]): ClientOs[] {
  return CLIENT_OS.filter((os) => clientOs.includes(os));
}

// --- profiles ----------------------------------------------------------------------------------------------------

export type ProfileFormValues = { name: string; description: string; otpRequired: boolean };

export function profileFormProblems(
  values: ProfileFormValues,
): Partial<Record<'name' | 'description', string>> {
  const problems: Partial<Record<'name' | 'description', string>> = {};
  const name = nameProblem(values.name);
  if (name) problems.name = name;
  if (values.description.length > DESCRIPTION_MAX) problems.description = 'descriptionTooLong';
  return problems;
}

/** The body of `POST actionProfiles` (edit is also POST, with the id). */
export function profileInput(values: ProfileFormValues, id?: string) {
  return {
    ...(id && { id }),
    name: values.name.trim(),
    description: values.description.trim(),
    otpRequired: values.otpRequired,
  };
}

// --- shortcuts (application preferences) -------------------------------------------------------------------------

/** The remote-access system of this browser (spec 3: Linux, Mac or Win); Windows when it cannot tell. */
export function detectRemoteClientOs(userAgent: string): RemoteClientOs {
  if (/Mac OS X|Macintosh|iPhone|iPad/i.test(userAgent)) return 'Mac';
  if (/Linux|X11|Android|CrOS/i.test(userAgent)) return 'Linux';
  return 'Win';
}

const APPLICATION_OS: Record<RemoteClientOs, ClientOs> = { Win: 'Win', Linux: 'Lin', Mac: 'Mac' };

/** The applications a shortcut for `os` may start: those for every system and those naming it. */
export function applicationsFor<A extends { clientOs: readonly string[] }>(
  applications: readonly A[],
  os: RemoteClientOs,
): A[] {
  const wanted = APPLICATION_OS[os];
  return applications.filter(
    (application) => application.clientOs.length === 0 || application.clientOs.includes(wanted),
  );
}

export type ShortcutFormValues = {
  gateway: string;
  endpoint: string;
  application: string;
  clientOs: RemoteClientOs;
  label: string;
};

export function shortcutFormProblems(
  values: ShortcutFormValues,
): Partial<Record<'gateway' | 'endpoint' | 'application' | 'label', string>> {
  const problems: Partial<Record<'gateway' | 'endpoint' | 'application' | 'label', string>> = {};
  if (values.gateway === '') problems.gateway = 'gatewayRequired';
  if (values.endpoint === '') problems.endpoint = 'endpointRequired';
  if (values.application === '') problems.application = 'applicationRequired';
  const label = nameProblem(values.label);
  if (label) problems.label = label === 'nameRequired' ? 'labelRequired' : label;
  return problems;
}

/** How client systems are shown: product names, the same in every language. */
export const OS_LABELS: Readonly<Record<ClientOs | RemoteClientOs, string>> = {
  Win: 'Windows',
  Lin: 'Linux',
  Linux: 'Linux',
  Mac: 'macOS',
  Android: 'Android',
  iOS: 'iOS',
};

/** The name of a stored client system value (unknown values as they are). */
export function osLabel(value: string): string {
  return value in OS_LABELS ? OS_LABELS[value as ClientOs | RemoteClientOs] : value;
}
