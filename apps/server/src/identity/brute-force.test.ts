import { and, eq } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../../test/support/fixtures.ts';
import {
  formAction,
  type LoginStart,
  startLogin,
  submitForm,
  TestBrowser,
} from '../../test/support/oidc-client.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { loginFailures, users } from '../db/schema.ts';
import { createUser } from '../services/core/organizations/provisioning.ts';
import { LOGIN_POLICY } from './accounts.ts';
import { LOGIN_MESSAGES } from './login-messages.ts';

const REALM = 'acme';
const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const m = LOGIN_MESSAGES.en;

let server: TestServer;

// The test server trusts the loopback proxy, so X-Forwarded-For gives each simulated client its own address.
beforeAll(async () => {
  server = await startTestServer({ trustedProxies: ['127.0.0.1'] });
  await server.app.realms.create(REALM, 'ACME');
});
afterAll(() => server.close());

/** A browser at one client address. */
class BrowserAt extends TestBrowser {
  readonly address: string;

  constructor(address: string) {
    super(server.app, REALM);
    this.address = address;
  }

  override request(
    method: 'GET' | 'POST',
    url: string,
    form?: Record<string, string>,
    headers: Record<string, string> = {},
  ) {
    return super.request(method, url, form, { 'x-forwarded-for': this.address, ...headers });
  }
}

type Answer = Awaited<ReturnType<TestBrowser['request']>>;

async function account(email: string, options: { totp?: boolean } = {}) {
  const user = await createUser(server.database.db, { realm: REALM, email, password: PASSWORD });
  if (options.totp)
    await server.database.db.update(users).set({ totpSecret: TOTP_SECRET }).where(eq(users.id, user.id));
  return user;
}

const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(TOTP_SECRET) });

/** A code that is wrong now and in the neighbouring periods the server also accepts. */
function wrongCode(): string {
  return (
    ['000000', '111111', '222222'].find((code) => totp.validate({ token: code, window: 2 }) === null) ?? ''
  );
}

function alertOf(answer: Answer | string): string | undefined {
  const page = typeof answer === 'string' ? answer : answer.body;
  return /id="input-error">([^<]*)</.exec(page)?.[1]?.replace(/&#39;/g, "'");
}

const signInAt = (address: string) => startLogin(new BrowserAt(address), REALM);

function postPassword(start: LoginStart, username: string, password: string, action = start.action) {
  return start.browser.request('POST', action, { username, password });
}

/** Signs in with the right password up to the one-time-code form; its action. */
async function toCodeStep(start: LoginStart, email: string, action = start.action): Promise<string> {
  const step = await submitForm(start, action, { username: email, password: PASSWORD });
  expect(step.page, 'the password step leads to the code').toContain('id="otp"');
  return formAction(step.page);
}

async function failuresAt(username: string, clientAddress: string) {
  const [row] = await server.database.db
    .select()
    .from(loginFailures)
    .where(
      and(
        eq(loginFailures.realm, REALM),
        eq(loginFailures.username, username),
        eq(loginFailures.clientAddress, clientAddress),
      ),
    );
  return row;
}

async function setFailures(
  username: string,
  clientAddress: string,
  values: Partial<typeof loginFailures.$inferInsert>,
) {
  await server.database.db
    .insert(loginFailures)
    .values({ realm: REALM, username, clientAddress, ...values })
    .onConflictDoUpdate({
      target: [loginFailures.realm, loginFailures.username, loginFailures.clientAddress],
      set: values,
    });
}

const secondsUntil = (date: Date | null | undefined) => ((date?.getTime() ?? 0) - Date.now()) / 1000;

describe('F4: failures are counted before the password is checked', () => {
  it('a burst of 40 parallel wrong passwords gets at most maxFailures evaluated; a right password inside it is refused', async () => {
    const user = await account('burst@acme.test');
    const start = await signInAt('198.51.100.10');
    const passwords = [...Array<string>(39).fill('wrong password'), PASSWORD];
    const answers = await Promise.all(passwords.map((password) => postPassword(start, user.email, password)));

    const evaluated = answers.filter((answer) => alertOf(answer) === m.invalidCredentials);
    expect(evaluated.length).toBeGreaterThan(0);
    expect(evaluated.length).toBeLessThanOrEqual(LOGIN_POLICY.maxFailures);
    const refused = answers.filter((answer) => answer.statusCode === 429 && alertOf(answer) === m.locked);
    expect(refused.length).toBe(answers.length - evaluated.length);
    const right = answers.at(-1);
    expect(right?.statusCode, 'the right password after the limit').toBe(429);
    expect(right?.headers.location).toBeUndefined();
    expect((await failuresAt(user.email, '198.51.100.10'))?.failures).toBe(evaluated.length);

    const afterwards = await postPassword(start, user.email, PASSWORD);
    expect(afterwards.statusCode).toBe(429);
  });
});

describe('F11: no account enumeration, no free lock-out', () => {
  it('answers an unknown name exactly like an existing one, locked or not, and slows both alike', async () => {
    const user = await account('known@acme.test');
    const attempts = async (username: string, address: string) => {
      const start = await signInAt(address);
      const seen: Array<{ status: number; alert?: string; ms: number }> = [];
      for (let i = 0; i < LOGIN_POLICY.maxFailures + 2; i++) {
        const began = performance.now();
        const answer = await postPassword(start, username, 'wrong password');
        seen.push({ status: answer.statusCode, alert: alertOf(answer), ms: performance.now() - began });
      }
      return seen;
    };
    const known = await attempts(user.email, '198.51.100.20');
    const unknown = await attempts('nobody@acme.test', '198.51.100.21');

    const answers = (seen: typeof known) => seen.map(({ status, alert }) => ({ status, alert }));
    expect(answers(unknown)).toEqual(answers(known));
    expect(known.map(({ status }) => status)).toEqual([
      ...Array<number>(LOGIN_POLICY.maxFailures).fill(401),
      429,
      429,
    ]);
    // The last failure of a round waits as long for an unknown name as for an existing one.
    const lastOfRound = LOGIN_POLICY.maxFailures - 1;
    for (const seen of [known, unknown]) {
      expect(seen[lastOfRound]?.ms).toBeGreaterThanOrEqual(LOGIN_POLICY.slowdownMsPerFailure * lastOfRound);
    }
  }, 40_000);

  it('five failures from one address do not lock the owner out at another address', async () => {
    const user = await account('owner@acme.test');
    const attacker = await signInAt('198.51.100.30');
    for (let i = 0; i < LOGIN_POLICY.maxFailures; i++) await postPassword(attacker, user.email, 'guess');
    expect((await postPassword(attacker, user.email, PASSWORD)).statusCode, 'the attacker waits').toBe(429);

    const owner = await signInAt('203.0.113.30');
    const signedIn = await submitForm(owner, owner.action, { username: user.email, password: PASSWORD });
    expect(signedIn.code, 'the owner signs in from their own address').toBeDefined();
  }, 30_000);

  it('counts an IPv6 client per /64, so its other addresses wait too', async () => {
    const user = await account('v6@acme.test');
    for (let i = 1; i <= LOGIN_POLICY.maxFailures; i++) {
      const start = await signInAt(`2001:db8:1:2::${i.toString(16)}`);
      expect((await postPassword(start, user.email, 'guess')).statusCode).toBe(401);
    }
    const samePrefix = await signInAt('2001:db8:1:2:ffff:ffff:ffff:ffff');
    expect((await postPassword(samePrefix, user.email, PASSWORD)).statusCode).toBe(429);
    const otherPrefix = await signInAt('2001:db8:1:3::1');
    expect(
      (await submitForm(otherPrefix, otherPrefix.action, { username: user.email, password: PASSWORD })).code,
    ).toBeDefined();
  }, 30_000);

  it('waits twice as long with each further round, at most maxWaitSeconds, and forgets an idle count', async () => {
    const user = await account('rounds@acme.test');
    const address = '198.51.100.35';
    const start = await signInAt(address);
    const { maxFailures, waitIncrementSeconds, maxWaitSeconds, failureResetSeconds } = LOGIN_POLICY;

    await setFailures(user.email, address, {
      failures: 2 * maxFailures - 1,
      lockedUntil: new Date(Date.now() - 1000),
    });
    expect((await postPassword(start, user.email, 'guess')).statusCode).toBe(401);
    const second = await failuresAt(user.email, address);
    expect(second?.failures).toBe(2 * maxFailures);
    expect(secondsUntil(second?.lockedUntil)).toBeGreaterThan(2 * waitIncrementSeconds - 10);
    expect(secondsUntil(second?.lockedUntil)).toBeLessThanOrEqual(2 * waitIncrementSeconds);
    expect((await postPassword(start, user.email, PASSWORD)).statusCode, 'locked, even the right one').toBe(
      429,
    );

    await setFailures(user.email, address, { failures: 20 * maxFailures - 1, lockedUntil: null });
    await postPassword(start, user.email, 'guess');
    expect(secondsUntil((await failuresAt(user.email, address))?.lockedUntil)).toBeGreaterThan(
      maxWaitSeconds - 10,
    );
    expect(secondsUntil((await failuresAt(user.email, address))?.lockedUntil)).toBeLessThanOrEqual(
      maxWaitSeconds,
    );

    const idleSince = new Date(Date.now() - (failureResetSeconds + 60) * 1000);
    await setFailures(user.email, address, {
      failures: maxFailures - 1,
      lastFailureAt: idleSince,
      lockedUntil: null,
    });
    await postPassword(start, user.email, 'guess');
    const fresh = await failuresAt(user.email, address);
    expect(fresh?.failures).toBe(1);
    expect(fresh?.lockedUntil).toBeNull();
    expect(
      (await submitForm(start, start.action, { username: user.email, password: PASSWORD })).code,
    ).toBeDefined();
    expect(await failuresAt(user.email, address), 'a completed sign-in clears the count').toBeUndefined();
  }, 30_000);
});

describe('F3: the one-time code has an attempt limit', () => {
  it('ends the sign-in after otpFailuresPerSignIn wrong codes of 300 tried; the right code then fails in it', async () => {
    const user = await account('codes@acme.test', { totp: true });
    const start = await signInAt('198.51.100.40');
    const codeAction = await toCodeStep(start, user.email);
    const alerts: Array<string | undefined> = [];
    for (let i = 0; i < 300; i++) {
      const answer = await start.browser.request('POST', codeAction, { otp: wrongCode() });
      alerts.push(alertOf(answer));
      if (alerts.at(-1) !== m.otpInvalid) break;
    }
    expect(alerts).toEqual([
      ...Array<string>(LOGIN_POLICY.otpFailuresPerSignIn - 1).fill(m.otpInvalid),
      m.otpTooManyCodes,
    ]);
    const right = await submitForm(start, codeAction, { otp: totp.generate() });
    expect(right.code).toBeUndefined();
    expect(right.status).toBe(400);
  }, 30_000);

  it('a burst of 40 parallel codes in one sign-in gets at most otpFailuresPerSignIn checked; the right one in it is refused', async () => {
    const user = await account('code-burst@acme.test', { totp: true });
    const start = await signInAt('198.51.100.45');
    const codeAction = await toCodeStep(start, user.email);
    const codes = [...Array<string>(39).fill(wrongCode()), totp.generate()];
    const answers = await Promise.all(codes.map((otp) => start.browser.request('POST', codeAction, { otp })));
    const checked = answers.filter((answer) => alertOf(answer) === m.otpInvalid);
    expect(checked.length).toBeLessThan(LOGIN_POLICY.otpFailuresPerSignIn);
    expect(answers.at(-1)?.headers.location, 'the right code after the limit').toBeUndefined();
    expect(answers.every((answer) => answer.statusCode >= 400)).toBe(true);
  }, 30_000);

  it('counts wrong codes towards the lock of the name at that address, not elsewhere', async () => {
    const user = await account('code-lock@acme.test', { totp: true });
    const start = await signInAt('198.51.100.50');
    let page = '';
    for (let i = 0; i < LOGIN_POLICY.otpFailuresPerSignIn; i++) {
      const codeAction = i === 0 ? await toCodeStep(start, user.email) : formAction(page);
      page = (await submitForm(start, codeAction, { otp: wrongCode() })).page;
    }
    expect(page).toContain(m.otpTooManyCodes);
    const again = await toCodeStep(start, user.email, formAction(page));
    const rest = LOGIN_POLICY.maxFailures - LOGIN_POLICY.otpFailuresPerSignIn;
    let codeAction = again;
    for (let i = 0; i < rest; i++) {
      const wrong = await submitForm(start, codeAction, { otp: wrongCode() });
      codeAction = formAction(wrong.page);
    }
    const locked = await postPassword(start, user.email, PASSWORD, formAction(page));
    expect(locked.statusCode, 'the password step waits at this address').toBe(429);

    const elsewhere = await signInAt('203.0.113.50');
    const done = await submitForm(elsewhere, await toCodeStep(elsewhere, user.email), {
      otp: totp.generate(),
    });
    expect(done.code, 'the owner at another address').toBeDefined();
  }, 40_000);

  it("locks the account's second factor after otpFailuresPerAccount wrong codes from any addresses", async () => {
    const user = await account('code-spread@acme.test', { totp: true });
    for (let i = 0; i < LOGIN_POLICY.otpFailuresPerAccount; i++) {
      const start = await signInAt(`198.51.100.${100 + i}`);
      const wrong = await submitForm(start, await toCodeStep(start, user.email), { otp: wrongCode() });
      expect(alertOf(wrong.page)).toBe(m.otpInvalid);
    }
    const owner = await signInAt('203.0.113.60');
    const ownerCodeAction = await toCodeStep(owner, user.email);
    const refused = await submitForm(owner, ownerCodeAction, { otp: totp.generate() });
    expect(refused.code, 'the right code while the second factor is locked').toBeUndefined();
    expect(refused.status).toBe(429);
    expect(refused.page).toContain(m.locked);

    await server.database.db
      .update(users)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(users.id, user.id));
    const later = await submitForm(owner, formAction(refused.page), { otp: totp.generate() });
    expect(later.code, 'once the wait is over').toBeDefined();
    const [row] = await server.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.failedLogins).toBe(0);
  }, 40_000);
});
