import { formatTime, type Language, oneLine } from '../../notifications/texts.ts';

/** The licence expiry warning e-mail in every portal language (the languages of the notification texts). */

/** What a warning tells: the same facts in every language. */
export type ExpiryFacts = {
  licenseCode: string;
  productName: string;
  /** The organization holding the licence. */
  holderName: string;
  quantity: number;
  daysLeft: number;
  expiresAt: Date;
  autorenew: boolean;
  /** To the holder's administrators; otherwise to those of the dealer who issued it. */
  toHolder: boolean;
};

export type ExpiryWarning = { subject: string; body: string };

/** `date` is the expiry written for the language (in UTC). */
type Texts = {
  subject: (facts: ExpiryFacts) => string;
  expires: (facts: ExpiryFacts, date: string) => string;
  renewsAutomatically: string;
  renewManually: string;
};

const TEXTS: Record<Language, Texts> = {
  en: {
    subject: (f) =>
      `Licence ${f.licenseCode} (${f.productName}) expires in ${f.daysLeft} ${f.daysLeft === 1 ? 'day' : 'days'}`,
    expires: (f, date) =>
      f.toHolder
        ? `The licence ${f.licenseCode} (${f.productName}, quantity ${f.quantity}) of ${f.holderName} expires on ${date}.`
        : `The licence ${f.licenseCode} (${f.productName}, quantity ${f.quantity}) you issued to ${f.holderName} expires on ${date}.`,
    renewsAutomatically: 'It renews automatically at the end of its term; the renewal is charged.',
    renewManually:
      'Renew it before then, or switch on autorenew; when it expires, its devices can no longer connect.',
  },
  de: {
    subject: (f) =>
      `Lizenz ${f.licenseCode} (${f.productName}) läuft in ${f.daysLeft} ${f.daysLeft === 1 ? 'Tag' : 'Tagen'} ab`,
    expires: (f, date) =>
      f.toHolder
        ? `Die Lizenz ${f.licenseCode} (${f.productName}, Menge ${f.quantity}) von ${f.holderName} läuft am ${date} ab.`
        : `Die Lizenz ${f.licenseCode} (${f.productName}, Menge ${f.quantity}), die Sie an ${f.holderName} vergeben haben, läuft am ${date} ab.`,
    renewsAutomatically:
      'Sie wird am Ende ihrer Laufzeit automatisch verlängert; die Verlängerung wird in Rechnung gestellt.',
    renewManually:
      'Verlängern Sie sie vorher oder schalten Sie die automatische Verlängerung ein; nach dem Ablauf können sich ihre Geräte nicht mehr verbinden.',
  },
  es: {
    subject: (f) =>
      `La licencia ${f.licenseCode} (${f.productName}) vence en ${f.daysLeft} ${f.daysLeft === 1 ? 'día' : 'días'}`,
    expires: (f, date) =>
      f.toHolder
        ? `La licencia ${f.licenseCode} (${f.productName}, cantidad ${f.quantity}) de ${f.holderName} vence el ${date}.`
        : `La licencia ${f.licenseCode} (${f.productName}, cantidad ${f.quantity}) que emitió para ${f.holderName} vence el ${date}.`,
    renewsAutomatically: 'Se renueva automáticamente al final de su periodo; la renovación se cobra.',
    renewManually:
      'Renuévela antes de esa fecha o active la renovación automática; cuando venza, sus dispositivos ya no podrán conectarse.',
  },
  fr: {
    subject: (f) =>
      `La licence ${f.licenseCode} (${f.productName}) expire dans ${f.daysLeft} ${f.daysLeft <= 1 ? 'jour' : 'jours'}`,
    expires: (f, date) =>
      f.toHolder
        ? `La licence ${f.licenseCode} (${f.productName}, quantité ${f.quantity}) de ${f.holderName} expire le ${date}.`
        : `La licence ${f.licenseCode} (${f.productName}, quantité ${f.quantity}) que vous avez émise pour ${f.holderName} expire le ${date}.`,
    renewsAutomatically:
      'Elle est renouvelée automatiquement à la fin de sa période ; le renouvellement est facturé.',
    renewManually:
      "Renouvelez-la d'ici là ou activez le renouvellement automatique ; à son expiration, ses appareils ne pourront plus se connecter.",
  },
  it: {
    subject: (f) =>
      `La licenza ${f.licenseCode} (${f.productName}) scade tra ${f.daysLeft} ${f.daysLeft === 1 ? 'giorno' : 'giorni'}`,
    expires: (f, date) =>
      f.toHolder
        ? `La licenza ${f.licenseCode} (${f.productName}, quantità ${f.quantity}) di ${f.holderName} scade il ${date}.`
        : `La licenza ${f.licenseCode} (${f.productName}, quantità ${f.quantity}) che hai rilasciato a ${f.holderName} scade il ${date}.`,
    renewsAutomatically: 'Si rinnova automaticamente alla fine del periodo; il rinnovo viene addebitato.',
    renewManually:
      'Rinnovala prima di allora oppure attiva il rinnovo automatico; alla scadenza i suoi dispositivi non potranno più connettersi.',
  },
};

/** The warning that a licence's term ends soon, in the recipient's language. */
export function expiryWarningText(language: Language, facts: ExpiryFacts): ExpiryWarning {
  const t = TEXTS[language];
  const date = formatTime(facts.expiresAt.toISOString(), language, 'UTC');
  const next = facts.autorenew ? t.renewsAutomatically : t.renewManually;
  return { subject: oneLine(t.subject(facts), 200), body: `${t.expires(facts, date)}\n\n${next}\n` };
}
