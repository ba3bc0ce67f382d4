import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/index.ts';
import { oidcPayloads } from '../db/schema.ts';
import { addressAllowed } from '../services/core/security-policies/rules.ts';
import { signInRulesOf } from '../services/core/security-policies/service.ts';
import {
  type Account,
  checkOneTimeCode,
  checkPassword,
  enrolTotp,
  findAccount,
  LOGIN_POLICY,
  newTotpSecret,
  type PasswordCheck,
  REQUIRED_ACTIONS,
  type RequiredAction,
  totpCodeIsValid,
  totpFor,
  updatePassword,
} from './accounts.ts';
import { databaseAdapterFactory } from './adapter.ts';
import { LOGIN_MESSAGES, type LoginLocale, pickLoginLocale } from './login-messages.ts';
import {
  configureTotpForm,
  type LoginTheme,
  loginForm,
  otpForm,
  renderPage,
  updatePasswordForm,
} from './login-page.ts';
import type { RealmRuntime } from './realms.ts';

type Step = 'otp' | RequiredAction;
const STEP_PATHS: Record<Step, string> = {
  otp: 'otp',
  UPDATE_PASSWORD: 'update-password',
  CONFIGURE_TOTP: 'configure-totp',
};
const PROGRESS_TTL_SECONDS = 600;
const PROGRESS_MODEL = 'LoginProgress';
/** Unknown and existing names get the same answer; a lock is told alike for both, as only its own address sees it. */
const REFUSALS = {
  invalid: { status: 401, message: 'invalidCredentials' },
  locked: { status: 429, message: 'locked' },
  disabled: { status: 403, message: 'disabled' },
} as const satisfies Record<Exclude<PasswordCheck['outcome'], 'ok'>, { status: number; message: string }>;
export const MIN_PASSWORD_LENGTH = 8;

/** What is left to do after the password was right, kept per interaction so any server instance can continue. */
type Progress = { accountId: string; steps: Step[]; amr: string[]; totpSecret?: string };

export type ThemeLookup = (realm: string) => Promise<LoginTheme>;

type Form = Record<string, string | undefined>;

export class LoginFlow {
  readonly #db: Db;
  readonly #progress;
  readonly #themeFor: ThemeLookup;

  constructor(db: Db, themeFor: ThemeLookup) {
    this.#db = db;
    this.#progress = databaseAdapterFactory(db)(PROGRESS_MODEL);
    this.#themeFor = themeFor;
  }

  /** GET login-actions/{uid}: the form of the step the interaction is at. */
  async show(request: FastifyRequest, reply: FastifyReply, realm: RealmRuntime, uid: string) {
    const details = await realm.provider.interactionDetails(request.raw, reply.raw);
    if (details.uid !== uid) return this.#expired(request, reply, realm);
    const locale = this.#locale(request, details.params);
    const progress = await this.#loadProgress(uid);
    if (progress) return this.#renderStep(reply, realm, uid, locale, progress);
    const action = String(details.params.kc_action ?? '');
    const sessionAccount = details.session?.accountId;
    if (sessionAccount && isRequiredAction(action)) {
      return this.#advance(request, reply, realm, uid, locale, {
        accountId: sessionAccount,
        steps: [action],
        amr: ['pwd'],
      });
    }
    if (details.prompt.name !== 'login') {
      return this.#finish(request, reply, realm, { consent: {} });
    }
    const loginHint = typeof details.params.login_hint === 'string' ? details.params.login_hint : '';
    return this.#renderLoginForm(reply, realm, uid, locale, loginHint);
  }

  /** POST login-actions/{uid}/{step}. */
  async submit(request: FastifyRequest, reply: FastifyReply, realm: RealmRuntime, uid: string, step: string) {
    const details = await realm.provider.interactionDetails(request.raw, reply.raw);
    if (details.uid !== uid) return this.#expired(request, reply, realm);
    const form = (request.body ?? {}) as Form;
    const locale = pickLoginLocale(form.lang, request.headers['accept-language']);
    if (step === 'authenticate') return this.#authenticate(request, reply, realm, uid, locale, form);
    const progress = await this.#loadProgress(uid);
    if (!progress || STEP_PATHS[progress.steps[0] as Step] !== step) {
      return this.#expired(request, reply, realm);
    }
    const account = await findAccount(this.#db, realm.name, progress.accountId);
    if (!account) return this.#expired(request, reply, realm);
    if (progress.steps[0] === 'otp')
      return this.#verifyCode(request, reply, realm, uid, locale, progress, account, form);
    const error = await this.#completeStep(account, progress, form);
    if (error) return this.#renderStep(reply, realm, uid, locale, progress, LOGIN_MESSAGES[locale][error]);
    return this.#advance(request, reply, realm, uid, locale, { ...progress, steps: progress.steps.slice(1) });
  }

  async #authenticate(
    request: FastifyRequest,
    reply: FastifyReply,
    realm: RealmRuntime,
    uid: string,
    locale: LoginLocale,
    form: Form,
  ) {
    const email = (form.username ?? '').trim();
    const attempt = { realm: realm.name, username: email, clientAddress: request.ip };
    const check = await checkPassword(this.#db, attempt, form.password ?? '');
    if (check.outcome !== 'ok') {
      const refusal = REFUSALS[check.outcome];
      reply.code(refusal.status);
      return this.#renderLoginForm(reply, realm, uid, locale, email, LOGIN_MESSAGES[locale][refusal.message]);
    }
    const { account } = check;
    // The security policy groups assigned to the user: where they may sign in from, and whether TOTP is a must.
    const policy = await signInRulesOf(this.#db, account.id);
    if (!addressAllowed(policy, request.ip)) {
      reply.code(403);
      return this.#renderLoginForm(
        reply,
        realm,
        uid,
        locale,
        email,
        LOGIN_MESSAGES[locale].addressNotAllowed,
      );
    }
    const mustConfigureTotp = policy.requireTotp && !account.totpSecret;
    const steps: Step[] = [
      ...(account.totpSecret ? (['otp'] as const) : []),
      ...REQUIRED_ACTIONS.filter(
        (action) =>
          account.requiredActions.includes(action) || (action === 'CONFIGURE_TOTP' && mustConfigureTotp),
      ),
    ];
    return this.#advance(request, reply, realm, uid, locale, { accountId: account.id, steps, amr: ['pwd'] });
  }

  /**
   * The one-time code: at most `otpFailuresPerSignIn` codes per sign-in (counted in the stored progress before the
   * code is checked), then the sign-in starts again at the password; every wrong code also counts towards the lock
   * of the name at this address and of the account's second factor.
   */
  async #verifyCode(
    request: FastifyRequest,
    reply: FastifyReply,
    realm: RealmRuntime,
    uid: string,
    locale: LoginLocale,
    progress: Progress,
    account: Account,
    form: Form,
  ) {
    const codesTried = await this.#reserveCode(uid);
    if (codesTried === undefined) return this.#restart(reply, realm, uid, locale, account.email);
    const attempt = { realm: realm.name, username: account.email, clientAddress: request.ip };
    const check = await checkOneTimeCode(this.#db, attempt, account, form.otp ?? '');
    if (check === 'ok') {
      return this.#advance(request, reply, realm, uid, locale, {
        ...progress,
        amr: [...progress.amr, 'otp'],
        steps: progress.steps.slice(1),
      });
    }
    if (check === 'locked') {
      reply.code(REFUSALS.locked.status);
      return this.#renderStep(reply, realm, uid, locale, progress, LOGIN_MESSAGES[locale].locked);
    }
    if (codesTried >= LOGIN_POLICY.otpFailuresPerSignIn) {
      return this.#restart(reply, realm, uid, locale, account.email);
    }
    reply.code(401);
    return this.#renderStep(reply, realm, uid, locale, progress, LOGIN_MESSAGES[locale].otpInvalid);
  }

  /** Counts a code of this sign-in in one statement; undefined when the sign-in has no codes left (or is gone). */
  async #reserveCode(uid: string): Promise<number | undefined> {
    const tried = sql<number>`coalesce((${oidcPayloads.payload} ->> 'otpCodesTried')::int, 0)`;
    const [row] = await this.#db
      .update(oidcPayloads)
      .set({ payload: sql`jsonb_set(${oidcPayloads.payload}, '{otpCodesTried}', to_jsonb(${tried} + 1))` })
      .where(
        and(
          eq(oidcPayloads.type, PROGRESS_MODEL),
          eq(oidcPayloads.id, uid),
          sql`${tried} < ${sql.raw(String(LOGIN_POLICY.otpFailuresPerSignIn))}`,
          or(isNull(oidcPayloads.expiresAt), gt(oidcPayloads.expiresAt, new Date())),
        ),
      )
      .returning({ tried: sql<number>`(${oidcPayloads.payload} ->> 'otpCodesTried')::int` });
    return row === undefined ? undefined : Number(row.tried);
  }

  /** Ends what the password began: the same interaction asks for the password again. */
  async #restart(reply: FastifyReply, realm: RealmRuntime, uid: string, locale: LoginLocale, email: string) {
    await this.#progress.destroy(uid);
    reply.code(401);
    return this.#renderLoginForm(reply, realm, uid, locale, email, LOGIN_MESSAGES[locale].otpTooManyCodes);
  }

  /** Returns the message key of what was wrong, or undefined when the step is done. */
  async #completeStep(
    account: Account,
    progress: Progress,
    form: Form,
  ): Promise<'otpInvalid' | 'passwordMismatch' | 'passwordTooShort' | undefined> {
    const step = progress.steps[0];
    if (step === 'UPDATE_PASSWORD') {
      const password = form['password-new'] ?? '';
      if (password.length < MIN_PASSWORD_LENGTH) return 'passwordTooShort';
      if (password !== form['password-confirm']) return 'passwordMismatch';
      await updatePassword(this.#db, account.id, password);
      return undefined;
    }
    if (step === 'CONFIGURE_TOTP') {
      const secret = progress.totpSecret;
      if (!secret || !totpCodeIsValid(account, secret, form.totp ?? '')) return 'otpInvalid';
      await enrolTotp(this.#db, account.id, secret);
      progress.amr.push('otp');
      return undefined;
    }
    return undefined;
  }

  async #advance(
    request: FastifyRequest,
    reply: FastifyReply,
    realm: RealmRuntime,
    uid: string,
    locale: LoginLocale,
    progress: Progress,
  ) {
    if (progress.steps.length === 0) {
      await this.#progress.destroy(uid);
      return this.#finish(request, reply, realm, {
        login: { accountId: progress.accountId, amr: progress.amr },
      });
    }
    const next =
      progress.steps[0] === 'CONFIGURE_TOTP' && !progress.totpSecret
        ? { ...progress, totpSecret: newTotpSecret() }
        : progress;
    await this.#progress.upsert(uid, next, PROGRESS_TTL_SECONDS);
    return this.#renderStep(reply, realm, uid, locale, next);
  }

  async #renderStep(
    reply: FastifyReply,
    realm: RealmRuntime,
    uid: string,
    locale: LoginLocale,
    progress: Progress,
    error?: string,
  ) {
    const step = progress.steps[0] as Step;
    const action = this.#action(realm, uid, STEP_PATHS[step]);
    if (step === 'otp')
      return this.#render(reply, realm, locale, 'otpTitle', otpForm(action, locale), uid, error);
    if (step === 'UPDATE_PASSWORD') {
      return this.#render(
        reply,
        realm,
        locale,
        'updatePasswordTitle',
        updatePasswordForm(action, locale),
        uid,
        error,
      );
    }
    const account = await findAccount(this.#db, realm.name, progress.accountId);
    const secret = progress.totpSecret ?? '';
    const uri = account ? totpFor(account, realm.displayName, secret).toString() : '';
    return this.#render(
      reply,
      realm,
      locale,
      'configureTotpTitle',
      configureTotpForm(action, locale, secret, uri),
      uid,
      error,
    );
  }

  /** The password form of the interaction, with the name typed so far and what was wrong, if anything. */
  #renderLoginForm(
    reply: FastifyReply,
    realm: RealmRuntime,
    uid: string,
    locale: LoginLocale,
    username: string,
    error?: string,
  ) {
    const form = loginForm(this.#action(realm, uid, 'authenticate'), locale, username);
    return this.#render(reply, realm, locale, 'title', form, uid, error);
  }

  async #render(
    reply: FastifyReply,
    realm: RealmRuntime,
    locale: LoginLocale,
    titleKey: 'title' | 'otpTitle' | 'updatePasswordTitle' | 'configureTotpTitle' | 'errorTitle',
    body: string,
    uid?: string,
    error?: string,
  ) {
    const theme = await this.#themeFor(realm.name);
    const languageBase = uid ? `/auth/realms/${realm.name}/login-actions/${uid}` : undefined;
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
    return reply.send(
      renderPage({ locale, theme, title: LOGIN_MESSAGES[locale][titleKey], body, languageBase, error }),
    );
  }

  async #finish(
    request: FastifyRequest,
    reply: FastifyReply,
    realm: RealmRuntime,
    result: Record<string, unknown>,
  ) {
    reply.hijack();
    await realm.provider.interactionFinished(request.raw, reply.raw, result, {
      mergeWithLastSubmission: false,
    });
  }

  #expired(request: FastifyRequest, reply: FastifyReply, realm: RealmRuntime) {
    const locale = pickLoginLocale(request.headers['accept-language']);
    reply.code(400);
    return this.#render(
      reply,
      realm,
      locale,
      'errorTitle',
      `<p id="kc-error-message">${LOGIN_MESSAGES[locale].sessionExpired}</p>`,
    );
  }

  #locale(request: FastifyRequest, params: Record<string, unknown>): LoginLocale {
    const query = request.query as Form;
    return pickLoginLocale(
      query.lang,
      params.kc_locale as string | undefined,
      params.ui_locales as string | undefined,
      request.headers['accept-language'],
    );
  }

  #action(realm: RealmRuntime, uid: string, step: string) {
    return `/auth/realms/${realm.name}/login-actions/${uid}/${step}`;
  }

  async #loadProgress(uid: string): Promise<Progress | undefined> {
    const stored = await this.#progress.find(uid);
    return stored as Progress | undefined;
  }
}

function isRequiredAction(value: string): value is RequiredAction {
  return (REQUIRED_ACTIONS as readonly string[]).includes(value);
}
