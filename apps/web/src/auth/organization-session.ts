import { type AppAbility, buildAbility, type OrgFeatures, type RptRule } from '@edgeport/permissions';
import { decideEntry, type EntryDecision } from './organization-entry.ts';
import type { Organization } from './organizations.ts';
import { type PermissionRequest, type PermissionToken, type PermissionTokens, permissionsOf } from './rpt.ts';
import { forgetEntry, rememberEntry, storedOrganizationId } from './storage.ts';

export type EnteredOrganization = {
  organization: Organization;
  features: OrgFeatures;
  permissions: RptRule[];
  ability: AppAbility;
  /** The permission token the ability was built from. */
  token: string;
};

/** Spec 8: the login errors the selector shows. */
export type EntryFailure =
  | { kind: 'noPermissions'; organizationId: string }
  | { kind: 'failed'; message: string };

export class EntryError extends Error {
  readonly failure: EntryFailure;
  constructor(failure: EntryFailure, cause?: unknown) {
    super(failure.kind === 'failed' ? failure.message : `no permissions in ${failure.organizationId}`, {
      cause,
    });
    this.failure = failure;
  }
}

export type OrganizationState = {
  entered: EnteredOrganization | undefined;
  failure: EntryFailure | undefined;
};

type Dependencies = {
  loadOrganizations: () => Promise<Organization[]>;
  permissionTokens: Pick<PermissionTokens, 'get' | 'clear'>;
  storage: Storage;
};

export function featuresOf(organization: Organization): OrgFeatures {
  return { iot: organization.iotEnabled, vpn: organization.vpnEnabled };
}

function permissionRequest(organization: Organization): PermissionRequest {
  return { permission: organization.resourceId, organizationId: organization.id };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The organization the user is in (spec 4): which one to enter, entering it (the permission token scoped
 * 'org:{id} app:*' and the ability built from it), and the login error when that fails.
 */
export class OrganizationSession {
  readonly #deps: Dependencies;
  #organizations: Promise<Organization[]> | undefined;
  #entering: { organizationId: string; promise: Promise<EnteredOrganization> } | undefined;
  #state: OrganizationState = { entered: undefined, failure: undefined };
  readonly #listeners = new Set<() => void>();

  constructor(deps: Dependencies) {
    this.#deps = deps;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  getState = (): OrganizationState => this.#state;

  #set(state: Partial<OrganizationState>): void {
    this.#state = { ...this.#state, ...state };
    for (const listener of this.#listeners) listener();
  }

  /** The user's organizations, loaded once; `reload` asks the server again (after an error, or new memberships). */
  organizations(options: { reload?: boolean } = {}): Promise<Organization[]> {
    if (options.reload || !this.#organizations) {
      const loading = this.#deps.loadOrganizations();
      this.#organizations = loading;
      loading.catch(() => {
        if (this.#organizations === loading) this.#organizations = undefined;
      });
    }
    return this.#organizations;
  }

  async decide(requested: string | undefined): Promise<EntryDecision> {
    return decideEntry({ organizations: await this.organizations(), requested });
  }

  /** The organization entered last (kept until sign-out): the selector preselects it. */
  lastEntered(): string | undefined {
    return storedOrganizationId(this.#deps.storage);
  }

  /** Enters `organization`; concurrent calls for the same organization share one entry. */
  enter(organization: Organization, options: { forceRefresh?: boolean } = {}): Promise<EnteredOrganization> {
    const entering = this.#entering;
    if (!options.forceRefresh && entering?.organizationId === organization.id) return entering.promise;
    const promise = this.#enter(organization, options);
    this.#entering = { organizationId: organization.id, promise };
    const done = () => {
      if (this.#entering?.promise === promise) this.#entering = undefined;
    };
    promise.then(done, done);
    return promise;
  }

  async #enter(
    organization: Organization,
    options: { forceRefresh?: boolean },
  ): Promise<EnteredOrganization> {
    let token: PermissionToken;
    try {
      token = await this.#deps.permissionTokens.get(permissionRequest(organization), options);
    } catch (error) {
      console.warn('entering the organization failed', error);
      throw this.#fail({ kind: 'failed', message: errorMessage(error) }, error);
    }
    const permissions = permissionsOf(token.token);
    if (permissions.length === 0) {
      this.#deps.permissionTokens.clear();
      throw this.#fail({ kind: 'noPermissions', organizationId: organization.id });
    }
    const features = featuresOf(organization);
    const entered: EnteredOrganization = {
      organization,
      features,
      permissions,
      ability: buildAbility(permissions, features),
      token: token.token,
    };
    rememberEntry(this.#deps.storage, organization.id, token.scope);
    this.#set({ entered, failure: undefined });
    return entered;
  }

  #fail(failure: EntryFailure, cause?: unknown): EntryError {
    forgetEntry(this.#deps.storage);
    this.#set({ entered: undefined, failure });
    return new EntryError(failure, cause);
  }

  /** Spec 8 for any other error on the way in: the login error, selection cleared, scope removed. */
  failEntry(error: unknown): EntryError {
    if (error instanceof EntryError) return error;
    return this.#fail({ kind: 'failed', message: errorMessage(error) }, error);
  }

  dismissFailure(): void {
    if (this.#state.failure) this.#set({ failure: undefined });
  }

  /**
   * The permission token of the entered organization for a service call; a renewed token with other permissions
   * rebuilds the ability. `forceRefresh` asks the identity server again (after a role change, say).
   */
  async permissionToken(options: { forceRefresh?: boolean } = {}): Promise<string> {
    const entered = this.#state.entered;
    if (!entered) throw new Error('no organization entered');
    const token = await this.#deps.permissionTokens.get(permissionRequest(entered.organization), options);
    const current = this.#state.entered;
    if (token.token !== entered.token && current?.organization.id === entered.organization.id) {
      const permissions = permissionsOf(token.token);
      this.#set({
        entered: {
          ...current,
          permissions,
          ability: buildAbility(permissions, current.features),
          token: token.token,
        },
      });
    }
    return token.token;
  }
}
