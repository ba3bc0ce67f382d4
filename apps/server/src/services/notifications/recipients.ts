import type { Db } from '../../db/index.ts';
import * as store from './store.ts';
import { type Language, languageOf } from './texts.ts';

export type Recipient =
  | { channel: 'email'; target: string; language: Language }
  | { channel: 'webhook'; target: string };

/**
 * Everyone a rule reaches, without repeats: its users (their e-mail, in their portal locale, else their account
 * locale, else the rule's language, else English), the members of its groups, its e-mail addresses (the rule's
 * language) and its webhooks.
 */
export async function recipientsOf(
  db: Db,
  organizationId: string,
  rule: store.RuleRow,
): Promise<Recipient[]> {
  const { recipients } = rule;
  const fallback = languageOf(rule.language) ?? 'en';
  const people = await store.recipientUsers(db, organizationId, recipients.userIds, recipients.groupIds);
  const languages = await languagesOf(db, people, fallback);
  const out: Recipient[] = [];
  const seen = new Set<string>();
  const add = (recipient: Recipient) => {
    const key = recipientKey(recipient);
    if (seen.has(key)) return;
    seen.add(key);
    out.push(recipient);
  };
  for (const person of people) {
    add({
      channel: 'email',
      target: person.email.toLowerCase(),
      language: languages.get(person.id) ?? fallback,
    });
  }
  for (const email of recipients.emails)
    add({ channel: 'email', target: email.toLowerCase(), language: fallback });
  for (const url of recipients.webhooks) add({ channel: 'webhook', target: url });
  return out;
}

/**
 * The language e-mail to each of these users is written in: their portal locale (user preference), else their
 * account locale, else `fallback`.
 */
export async function languagesOf(
  db: Db,
  people: readonly { id: string; locale: string | null }[],
  fallback: Language,
): Promise<Map<string, Language>> {
  const preferences = await store.localePreferences(
    db,
    people.map((person) => person.id),
  );
  return new Map(
    people.map((person) => [
      person.id,
      languageOf(preferences.get(person.id)) ?? languageOf(person.locale) ?? fallback,
    ]),
  );
}

/** The key that makes a recipient the same one in another rule (one message per recipient and event). */
export function recipientKey(recipient: Recipient): string {
  return `${recipient.channel}:${recipient.channel === 'email' ? recipient.target.toLowerCase() : recipient.target}`;
}
