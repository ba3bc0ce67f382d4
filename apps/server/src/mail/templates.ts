/** The languages of the e-mails (spec 9's locales); anything else falls back to English. */
export const MAIL_LANGUAGES = ['en', 'de', 'es', 'fr', 'it'] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];

export type RenderedMail = { subject: string; text: string; html: string };

type Texts = {
  greeting: (name: string) => string;
  inviteSubject: (org: string, brand: string) => string;
  inviteBody: (org: string, brand: string) => string;
  inviteButton: string;
  joinSubject: (org: string, brand: string) => string;
  joinBody: (org: string, brand: string) => string;
  joinButton: string;
  passwordSubject: (brand: string) => string;
  passwordBody: (brand: string, email: string) => string;
  passwordButton: string;
  validity: (hours: number) => string;
  ignore: string;
};

const TEXTS: Record<MailLanguage, Texts> = {
  en: {
    greeting: (name) => `Hello ${name},`,
    inviteSubject: (org, brand) => `You are invited to ${org} on ${brand}`,
    inviteBody: (org, brand) =>
      `You have been invited to the organization ${org} on ${brand}. Set your password to activate your account:`,
    inviteButton: 'Set password',
    joinSubject: (org, brand) => `${org} invites you to join on ${brand}`,
    joinBody: (org, brand) =>
      `The organization ${org} invites your ${brand} account to join it. Nothing changes until you accept: sign in and open "Invitations" in the organization list to accept or decline.`,
    joinButton: 'Show invitations',
    passwordSubject: (brand) => `Set a new password for ${brand}`,
    passwordBody: (brand, email) =>
      `An administrator asked you to change the password of your ${brand} account ${email}. Open this link to set a new password:`,
    passwordButton: 'Change password',
    validity: (hours) => `The link can be used once and is valid for ${hours} hours.`,
    ignore: 'If you did not expect this e-mail, you can ignore it.',
  },
  de: {
    greeting: (name) => `Hallo ${name},`,
    inviteSubject: (org, brand) => `Einladung zu ${org} auf ${brand}`,
    inviteBody: (org, brand) =>
      `Sie wurden in die Organisation ${org} auf ${brand} eingeladen. Legen Sie Ihr Passwort fest, um Ihr Konto zu aktivieren:`,
    inviteButton: 'Passwort festlegen',
    joinSubject: (org, brand) => `${org} lädt Sie auf ${brand} ein`,
    joinBody: (org, brand) =>
      `Die Organisation ${org} lädt Ihr ${brand}-Konto ein, Mitglied zu werden. Bis Sie annehmen, ändert sich nichts: Melden Sie sich an und öffnen Sie „Einladungen“ in der Organisationsliste, um anzunehmen oder abzulehnen.`,
    joinButton: 'Einladungen anzeigen',
    passwordSubject: (brand) => `Neues Passwort für ${brand} festlegen`,
    passwordBody: (brand, email) =>
      `ein Administrator bittet Sie, das Passwort Ihres ${brand}-Kontos ${email} zu ändern. Öffnen Sie diesen Link, um ein neues Passwort festzulegen:`,
    passwordButton: 'Passwort ändern',
    validity: (hours) => `Der Link kann einmal verwendet werden und ist ${hours} Stunden gültig.`,
    ignore: 'Wenn Sie diese E-Mail nicht erwartet haben, können Sie sie ignorieren.',
  },
  es: {
    greeting: (name) => `Hola ${name}:`,
    inviteSubject: (org, brand) => `Invitación a ${org} en ${brand}`,
    inviteBody: (org, brand) =>
      `Te han invitado a la organización ${org} en ${brand}. Establece tu contraseña para activar tu cuenta:`,
    inviteButton: 'Establecer contraseña',
    joinSubject: (org, brand) => `${org} te invita a unirte en ${brand}`,
    joinBody: (org, brand) =>
      `La organización ${org} invita a tu cuenta de ${brand} a unirse. Nada cambia hasta que aceptes: inicia sesión y abre «Invitaciones» en la lista de organizaciones para aceptar o rechazar.`,
    joinButton: 'Ver invitaciones',
    passwordSubject: (brand) => `Establece una nueva contraseña para ${brand}`,
    passwordBody: (brand, email) =>
      `Un administrador te ha pedido que cambies la contraseña de tu cuenta de ${brand} ${email}. Abre este enlace para establecer una nueva contraseña:`,
    passwordButton: 'Cambiar contraseña',
    validity: (hours) => `El enlace se puede usar una sola vez y es válido durante ${hours} horas.`,
    ignore: 'Si no esperabas este correo, puedes ignorarlo.',
  },
  fr: {
    greeting: (name) => `Bonjour ${name},`,
    inviteSubject: (org, brand) => `Invitation à ${org} sur ${brand}`,
    inviteBody: (org, brand) =>
      `Vous avez été invité dans l'organisation ${org} sur ${brand}. Définissez votre mot de passe pour activer votre compte :`,
    inviteButton: 'Définir le mot de passe',
    joinSubject: (org, brand) => `${org} vous invite à la rejoindre sur ${brand}`,
    joinBody: (org, brand) =>
      `L'organisation ${org} invite votre compte ${brand} à la rejoindre. Rien ne change tant que vous n'acceptez pas : connectez-vous et ouvrez « Invitations » dans la liste des organisations pour accepter ou refuser.`,
    joinButton: 'Voir les invitations',
    passwordSubject: (brand) => `Définissez un nouveau mot de passe pour ${brand}`,
    passwordBody: (brand, email) =>
      `Un administrateur vous demande de changer le mot de passe de votre compte ${brand} ${email}. Ouvrez ce lien pour définir un nouveau mot de passe :`,
    passwordButton: 'Changer le mot de passe',
    validity: (hours) => `Le lien ne peut être utilisé qu'une fois et reste valable ${hours} heures.`,
    ignore: "Si vous n'attendiez pas cet e-mail, vous pouvez l'ignorer.",
  },
  it: {
    greeting: (name) => `Ciao ${name},`,
    inviteSubject: (org, brand) => `Invito a ${org} su ${brand}`,
    inviteBody: (org, brand) =>
      `Sei stato invitato nell'organizzazione ${org} su ${brand}. Imposta la tua password per attivare l'account:`,
    inviteButton: 'Imposta password',
    joinSubject: (org, brand) => `${org} ti invita a unirti su ${brand}`,
    joinBody: (org, brand) =>
      `L'organizzazione ${org} invita il tuo account ${brand} a unirsi. Nulla cambia finché non accetti: accedi e apri «Inviti» nell'elenco delle organizzazioni per accettare o rifiutare.`,
    joinButton: 'Mostra inviti',
    passwordSubject: (brand) => `Imposta una nuova password per ${brand}`,
    passwordBody: (brand, email) =>
      `Un amministratore ti chiede di cambiare la password del tuo account ${brand} ${email}. Apri questo link per impostare una nuova password:`,
    passwordButton: 'Cambia password',
    validity: (hours) => `Il link può essere usato una sola volta ed è valido per ${hours} ore.`,
    ignore: 'Se non ti aspettavi questa e-mail, puoi ignorarla.',
  },
};

/** `de-DE`, `de`, `DE_ch` -> `de`; unknown or missing -> `en`. */
export function mailLanguage(locale: string | null | undefined): MailLanguage {
  const language = (locale ?? '').slice(0, 2).toLowerCase();
  return MAIL_LANGUAGES.find((candidate) => candidate === language) ?? 'en';
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

type Recipient = { email: string; firstName: string; lastName: string; locale: string | null };

function displayName(recipient: Recipient): string {
  return `${recipient.firstName} ${recipient.lastName}`.trim() || recipient.email;
}

function compose(
  language: MailLanguage,
  recipient: Recipient,
  subject: string,
  body: string,
  button: string,
  link: string,
  validHours?: number,
): RenderedMail {
  const t = TEXTS[language];
  const greeting = t.greeting(displayName(recipient));
  const notes = validHours === undefined ? [t.ignore] : [t.validity(validHours), t.ignore];
  const text = [greeting, '', body, '', link, '', ...notes, ''].join('\n');
  const html = `<!DOCTYPE html>
<html lang="${language}"><body style="font-family:system-ui,sans-serif;font-size:15px;line-height:1.5;color:#212529">
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(body)}</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 16px;background:#1c7ed6;color:#fff;border-radius:4px;text-decoration:none">${escapeHtml(button)}</a></p>
<p style="word-break:break-all;color:#495057">${escapeHtml(link)}</p>
<p style="color:#868e96">${escapeHtml(notes.join(' '))}</p>
</body></html>`;
  return { subject, text, html };
}

/** The e-mail inviting a new account into an organization, with its one-time set-password link. */
export function invitationMail(input: {
  recipient: Recipient;
  organizationName: string;
  brandName: string;
  link: string;
  validHours: number;
}): RenderedMail {
  const language = mailLanguage(input.recipient.locale);
  const t = TEXTS[language];
  return compose(
    language,
    input.recipient,
    t.inviteSubject(input.organizationName, input.brandName),
    t.inviteBody(input.organizationName, input.brandName),
    t.inviteButton,
    input.link,
    input.validHours,
  );
}

/**
 * The e-mail telling an existing account that an organization invites it to join: it is not a member until its owner
 * accepts in the portal, so the link only opens the portal (no token, nothing happens by following it).
 */
export function joinInvitationMail(input: {
  recipient: Recipient;
  organizationName: string;
  brandName: string;
  link: string;
}): RenderedMail {
  const language = mailLanguage(input.recipient.locale);
  const t = TEXTS[language];
  return compose(
    language,
    input.recipient,
    t.joinSubject(input.organizationName, input.brandName),
    t.joinBody(input.organizationName, input.brandName),
    t.joinButton,
    input.link,
  );
}

/** The e-mail asking a user to change their password (an administrator's password-change invitation). */
export function passwordChangeMail(input: {
  recipient: Recipient;
  brandName: string;
  link: string;
  validHours: number;
}): RenderedMail {
  const language = mailLanguage(input.recipient.locale);
  const t = TEXTS[language];
  return compose(
    language,
    input.recipient,
    t.passwordSubject(input.brandName),
    t.passwordBody(input.brandName, input.recipient.email),
    t.passwordButton,
    input.link,
    input.validHours,
  );
}
