import type { alarms, notifications } from '@edgeport/contract';
import type { TriggerNotice } from './notifier.ts';

/** The e-mail texts of notifications in every portal language (spec 9). */

export type Language = (typeof notifications.LANGUAGES)[number];
export const NOTIFICATION_LANGUAGES: readonly Language[] = ['en', 'de', 'es', 'fr', 'it'];

/** 'de-DE', 'de', 'DE_at' -> 'de'; anything that is no portal language -> undefined. */
export function languageOf(locale: string | null | undefined): Language | undefined {
  const code = (locale ?? '').trim().slice(0, 2).toLowerCase();
  return NOTIFICATION_LANGUAGES.find((language) => language === code);
}

export type Rendered = { subject: string; text: string };
export type TextContext = {
  organizationName: string;
  /** The portal of the organization's realm (`https://acme.app.example.com`). */
  portalOrigin: string;
  /** Times are written in this zone (the quiet-hours zone of the organization, else UTC). */
  timeZone: string;
};

type Texts = {
  locale: string;
  events: Record<alarms.AlarmEventKind, string>;
  severities: Record<alarms.Severity, string>;
  severity: string;
  device: string;
  message: string;
  event: string;
  time: string;
  value: string;
  rule: string;
  organization: string;
  noDevice: string;
  openAlarms: string;
  triggerSubject: (name: string) => string;
  triggerIntro: (name: string) => string;
  openTriggers: string;
  automatic: string;
};

const TEXTS: Record<Language, Texts> = {
  en: {
    locale: 'en-GB',
    events: {
      RAISED: 'Alarm raised',
      ACKNOWLEDGED: 'Alarm acknowledged',
      RESET: 'Alarm reset',
      CONDITION_CLEARED: 'Alarm condition cleared',
      CLEARED: 'Alarm cleared',
      CLOSED: 'Alarm closed',
    },
    severities: {
      CRITICAL: 'Critical',
      MAJOR: 'Major',
      MINOR: 'Minor',
      WARNING: 'Warning',
      INFO: 'Info',
    },
    severity: 'Severity',
    device: 'Device',
    message: 'Message',
    event: 'Event',
    time: 'Time',
    value: 'Value',
    rule: 'Rule',
    organization: 'Organization',
    noDevice: '(no device)',
    openAlarms: 'Open the alarms in the portal:',
    triggerSubject: (name) => `Trigger fired: ${name}`,
    triggerIntro: (name) => `The trigger rule "${name}" fired.`,
    openTriggers: 'Open the trigger rules in the portal:',
    automatic: 'This message was sent automatically by a notification rule of your organization.',
  },
  de: {
    locale: 'de-DE',
    events: {
      RAISED: 'Alarm ausgelöst',
      ACKNOWLEDGED: 'Alarm quittiert',
      RESET: 'Alarm zurückgesetzt',
      CONDITION_CLEARED: 'Alarmbedingung nicht mehr erfüllt',
      CLEARED: 'Alarm aufgehoben',
      CLOSED: 'Alarm abgeschlossen',
    },
    severities: {
      CRITICAL: 'Kritisch',
      MAJOR: 'Schwerwiegend',
      MINOR: 'Geringfügig',
      WARNING: 'Warnung',
      INFO: 'Information',
    },
    severity: 'Schweregrad',
    device: 'Gerät',
    message: 'Meldung',
    event: 'Ereignis',
    time: 'Zeitpunkt',
    value: 'Wert',
    rule: 'Regel',
    organization: 'Organisation',
    noDevice: '(kein Gerät)',
    openAlarms: 'Alarme im Portal öffnen:',
    triggerSubject: (name) => `Trigger ausgelöst: ${name}`,
    triggerIntro: (name) => `Die Trigger-Regel „${name}“ wurde ausgelöst.`,
    openTriggers: 'Trigger-Regeln im Portal öffnen:',
    automatic:
      'Diese Nachricht wurde automatisch von einer Benachrichtigungsregel Ihrer Organisation gesendet.',
  },
  es: {
    locale: 'es-ES',
    events: {
      RAISED: 'Alarma activada',
      ACKNOWLEDGED: 'Alarma reconocida',
      RESET: 'Alarma restablecida',
      CONDITION_CLEARED: 'La condición de alarma ha desaparecido',
      CLEARED: 'Alarma borrada',
      CLOSED: 'Alarma cerrada',
    },
    severities: {
      CRITICAL: 'Crítica',
      MAJOR: 'Grave',
      MINOR: 'Leve',
      WARNING: 'Advertencia',
      INFO: 'Información',
    },
    severity: 'Gravedad',
    device: 'Dispositivo',
    message: 'Mensaje',
    event: 'Evento',
    time: 'Hora',
    value: 'Valor',
    rule: 'Regla',
    organization: 'Organización',
    noDevice: '(sin dispositivo)',
    openAlarms: 'Abrir las alarmas en el portal:',
    triggerSubject: (name) => `Disparador activado: ${name}`,
    triggerIntro: (name) => `Se ha activado la regla de disparo «${name}».`,
    openTriggers: 'Abrir las reglas de disparo en el portal:',
    automatic: 'Este mensaje lo ha enviado automáticamente una regla de notificación de su organización.',
  },
  fr: {
    locale: 'fr-FR',
    events: {
      RAISED: 'Alarme déclenchée',
      ACKNOWLEDGED: 'Alarme acquittée',
      RESET: 'Alarme réinitialisée',
      CONDITION_CLEARED: "La condition d'alarme a disparu",
      CLEARED: 'Alarme effacée',
      CLOSED: 'Alarme clôturée',
    },
    severities: {
      CRITICAL: 'Critique',
      MAJOR: 'Majeure',
      MINOR: 'Mineure',
      WARNING: 'Avertissement',
      INFO: 'Information',
    },
    severity: 'Gravité',
    device: 'Appareil',
    message: 'Message',
    event: 'Événement',
    time: 'Heure',
    value: 'Valeur',
    rule: 'Règle',
    organization: 'Organisation',
    noDevice: '(aucun appareil)',
    openAlarms: 'Ouvrir les alarmes dans le portail :',
    triggerSubject: (name) => `Déclencheur activé : ${name}`,
    triggerIntro: (name) => `La règle de déclenchement « ${name} » s'est déclenchée.`,
    openTriggers: 'Ouvrir les règles de déclenchement dans le portail :',
    automatic: 'Ce message a été envoyé automatiquement par une règle de notification de votre organisation.',
  },
  it: {
    locale: 'it-IT',
    events: {
      RAISED: 'Allarme attivato',
      ACKNOWLEDGED: 'Allarme riconosciuto',
      RESET: 'Allarme ripristinato',
      CONDITION_CLEARED: "La condizione d'allarme è cessata",
      CLEARED: 'Allarme cancellato',
      CLOSED: 'Allarme chiuso',
    },
    severities: {
      CRITICAL: 'Critico',
      MAJOR: 'Grave',
      MINOR: 'Lieve',
      WARNING: 'Avviso',
      INFO: 'Informazione',
    },
    severity: 'Gravità',
    device: 'Dispositivo',
    message: 'Messaggio',
    event: 'Evento',
    time: 'Ora',
    value: 'Valore',
    rule: 'Regola',
    organization: 'Organizzazione',
    noDevice: '(nessun dispositivo)',
    openAlarms: 'Apri gli allarmi nel portale:',
    triggerSubject: (name) => `Trigger attivato: ${name}`,
    triggerIntro: (name) => `La regola trigger "${name}" si è attivata.`,
    openTriggers: 'Apri le regole trigger nel portale:',
    automatic:
      'Questo messaggio è stato inviato automaticamente da una regola di notifica della tua organizzazione.',
  },
};

/** One line: no line breaks (a subject is a header), runs of blanks collapsed, at most `max` characters. */
export function oneLine(text: string, max: number): string {
  const flat = text
    .replace(/[\r\n\t\u2028\u2029]+/g, ' ')
    .replace(/\s{2,}/g, ' ')
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function formatTime(iso: string, language: Language, timeZone: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return new Intl.DateTimeFormat(TEXTS[language].locale, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZone,
    timeZoneName: 'short',
  }).format(at);
}

export function severityName(severity: alarms.Severity, language: Language): string {
  return TEXTS[language].severities[severity];
}

/** The e-mail about one alarm change, in the recipient's language. */
export function alarmText(
  language: Language,
  change: { event: alarms.AlarmEventKind; alarm: alarms.Alarm },
  context: TextContext,
): Rendered {
  const t = TEXTS[language];
  const { alarm } = change;
  const severity = t.severities[alarm.severity];
  const device = alarm.deviceLabel ?? t.noDevice;
  const event = t.events[change.event];
  const at = change.event === 'RAISED' ? alarm.raisedAt : alarm.updatedAt;
  const subject = oneLine(`[${severity}] ${event}: ${device} – ${alarm.message || alarm.name}`, 200);
  const lines = [
    `${event}: ${alarm.message || alarm.name}`,
    '',
    `${t.severity}: ${severity}`,
    `${t.device}: ${device}`,
    `${t.message}: ${alarm.message}`,
    `${t.rule}: ${alarm.name}`,
    ...(alarm.value === null
      ? []
      : [`${t.value}: ${String(alarm.value)}${alarm.path ? ` (${alarm.path})` : ''}`]),
    `${t.event}: ${event}`,
    `${t.time}: ${formatTime(at, language, context.timeZone)}`,
    `${t.organization}: ${context.organizationName}`,
    '',
    t.openAlarms,
    `${context.portalOrigin}/alarms`,
    '',
    t.automatic,
  ];
  return { subject, text: lines.join('\n') };
}

/** The e-mail a trigger rule's "send notification" action sends, in the recipient's language. */
export function triggerText(
  language: Language,
  notice: TriggerNotice,
  at: Date,
  context: TextContext,
): Rendered {
  const t = TEXTS[language];
  const lines = [
    t.triggerIntro(notice.triggerName),
    '',
    ...(notice.detail ? [notice.detail, ''] : []),
    `${t.time}: ${formatTime(at.toISOString(), language, context.timeZone)}`,
    `${t.organization}: ${context.organizationName}`,
    '',
    t.openTriggers,
    `${context.portalOrigin}/trigger`,
    '',
    t.automatic,
  ];
  return { subject: oneLine(t.triggerSubject(notice.triggerName), 200), text: lines.join('\n') };
}
