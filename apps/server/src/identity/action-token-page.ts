import { and, eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/index.ts';
import { users } from '../db/schema.ts';
import { updatePassword } from './accounts.ts';
import { claimActionToken, usableActionToken } from './action-tokens.ts';
import { MIN_PASSWORD_LENGTH, type ThemeLookup } from './login-flow.ts';
import { LOGIN_MESSAGES, type LoginLocale, pickLoginLocale } from './login-messages.ts';
import { escapeHtml, renderPage, updatePasswordForm } from './login-page.ts';
import type { RealmRuntime } from './realms.ts';

type Form = Record<string, string | undefined>;

/**
 * Keycloak's action-token page (`login-actions/action-token?key=…`): the link of an invitation or password-change
 * e-mail. GET shows the set-password form in the realm's look; POST sets the password (the UPDATE_PASSWORD rules of
 * the login flow), removes the required action and the password-change flag, spends the token and sends the browser
 * to the portal. Unknown, used and expired links get an explanation with status 400.
 */
export class ActionTokenPages {
  readonly #db: Db;
  readonly #themeFor: ThemeLookup;

  constructor(db: Db, themeFor: ThemeLookup) {
    this.#db = db;
    this.#themeFor = themeFor;
  }

  async show(request: FastifyRequest, reply: FastifyReply, realm: RealmRuntime) {
    const query = (request.query ?? {}) as Form;
    const key = query.key ?? '';
    const found = await usableActionToken(this.#db, realm.name, key);
    const locale = pickLoginLocale(query.lang, found?.account.locale ?? undefined, acceptLanguage(request));
    if (!found?.token.actions.includes('UPDATE_PASSWORD')) return this.#invalid(reply, realm, locale);
    return this.#form(reply, realm, locale, key, found.account.email);
  }

  async submit(request: FastifyRequest, reply: FastifyReply, realm: RealmRuntime) {
    const query = (request.query ?? {}) as Form;
    const form = (request.body ?? {}) as Form;
    const key = query.key ?? form.key ?? '';
    const found = await usableActionToken(this.#db, realm.name, key);
    const locale = pickLoginLocale(
      form.lang,
      query.lang,
      found?.account.locale ?? undefined,
      acceptLanguage(request),
    );
    if (!found?.token.actions.includes('UPDATE_PASSWORD')) return this.#invalid(reply, realm, locale);
    const password = form['password-new'] ?? '';
    const problem =
      password.length < MIN_PASSWORD_LENGTH
        ? 'passwordTooShort'
        : password !== form['password-confirm']
          ? 'passwordMismatch'
          : undefined;
    if (problem) {
      reply.code(400);
      return this.#form(reply, realm, locale, key, found.account.email, LOGIN_MESSAGES[locale][problem]);
    }
    const claimed = await claimActionToken(this.#db, key);
    if (!claimed) return this.#invalid(reply, realm, locale);
    await updatePassword(this.#db, found.account.id, password);
    // A new password also lifts a brute-force lock: the person proved they read the account's mailbox.
    await this.#db
      .update(users)
      .set({ failedLogins: 0, lockedUntil: null })
      .where(and(eq(users.id, found.account.id), eq(users.realm, realm.name)));
    const target = claimed.redirectUri?.startsWith(realm.origin) ? claimed.redirectUri : `${realm.origin}/`;
    return reply.header('cache-control', 'no-store').redirect(target, 303);
  }

  async #form(
    reply: FastifyReply,
    realm: RealmRuntime,
    locale: LoginLocale,
    key: string,
    email: string,
    error?: string,
  ) {
    const m = LOGIN_MESSAGES[locale];
    const action = `/auth/realms/${realm.name}/login-actions/action-token?key=${encodeURIComponent(key)}`;
    const body = `<p id="kc-account">${m.email}: <strong>${escapeHtml(email)}</strong></p>\n${updatePasswordForm(action, locale)}`;
    return this.#render(reply, realm, locale, m.updatePasswordTitle, body, action, error);
  }

  #invalid(reply: FastifyReply, realm: RealmRuntime, locale: LoginLocale) {
    const m = LOGIN_MESSAGES[locale];
    reply.code(400);
    return this.#render(
      reply,
      realm,
      locale,
      m.errorTitle,
      `<p id="kc-error-message">${m.linkInvalid}</p>\n<p><a href="${escapeHtml(realm.origin)}/">${escapeHtml(realm.displayName)}</a></p>`,
    );
  }

  async #render(
    reply: FastifyReply,
    realm: RealmRuntime,
    locale: LoginLocale,
    title: string,
    body: string,
    languageBase?: string,
    error?: string,
  ) {
    const theme = await this.#themeFor(realm.name);
    reply
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .type('text/html; charset=utf-8');
    return reply.send(renderPage({ locale, theme, title, body, languageBase, error }));
  }
}

function acceptLanguage(request: FastifyRequest): string | undefined {
  return request.headers['accept-language'];
}
