export const LOGIN_LOCALES = ['en', 'de', 'es', 'fr', 'it'] as const;
export type LoginLocale = (typeof LOGIN_LOCALES)[number];

type Messages = {
  title: string;
  email: string;
  password: string;
  signIn: string;
  invalidCredentials: string;
  locked: string;
  disabled: string;
  otpTitle: string;
  otpCode: string;
  otpInvalid: string;
  otpTooManyCodes: string;
  verify: string;
  updatePasswordTitle: string;
  updatePasswordHint: string;
  newPassword: string;
  confirmPassword: string;
  passwordMismatch: string;
  passwordTooShort: string;
  save: string;
  configureTotpTitle: string;
  configureTotpHint: string;
  secretKey: string;
  signedOut: string;
  signOutQuestion: string;
  signOutYes: string;
  signOutNo: string;
  errorTitle: string;
  sessionExpired: string;
  language: string;
  linkInvalid: string;
  addressNotAllowed: string;
};

export const LOGIN_MESSAGES: Record<LoginLocale, Messages> = {
  en: {
    title: 'Sign in to your account',
    email: 'Email',
    password: 'Password',
    signIn: 'Sign in',
    invalidCredentials: 'Invalid username or password.',
    locked: 'Too many failed attempts. Wait a few minutes, then try again.',
    disabled: 'Account is disabled, contact your administrator.',
    otpTitle: 'Two-factor authentication',
    otpCode: 'One-time code',
    otpInvalid: 'Invalid authenticator code.',
    otpTooManyCodes: 'Too many invalid codes. Sign in again.',
    verify: 'Verify',
    updatePasswordTitle: 'Update password',
    updatePasswordHint: 'You need to change your password to activate your account.',
    newPassword: 'New password',
    confirmPassword: 'Confirm password',
    passwordMismatch: "Passwords don't match.",
    passwordTooShort: 'Invalid password: minimum length 8.',
    save: 'Submit',
    configureTotpTitle: 'Mobile authenticator setup',
    configureTotpHint:
      'Install an authenticator app, add an account with the key below (or open the link), then enter the code it shows.',
    secretKey: 'Key',
    signedOut: 'You are signed out.',
    signOutQuestion: 'Do you want to sign out?',
    signOutYes: 'Sign out',
    signOutNo: 'Stay signed in',
    errorTitle: 'We are sorry...',
    sessionExpired: 'Your login attempt timed out. Login will start from the beginning.',
    language: 'Language',
    linkInvalid:
      'This link is invalid, has expired or was already used. Ask your administrator for a new one.',
    addressNotAllowed: "Your organization's security policy does not allow signing in from this network.",
  },
  de: {
    title: 'Melden Sie sich bei Ihrem Konto an',
    email: 'E-Mail',
    password: 'Passwort',
    signIn: 'Anmelden',
    invalidCredentials: 'Ungültiger Benutzername oder Passwort.',
    locked: 'Zu viele fehlgeschlagene Versuche. Warten Sie einige Minuten und versuchen Sie es dann erneut.',
    disabled: 'Das Konto ist deaktiviert, wenden Sie sich an Ihren Administrator.',
    otpTitle: 'Zwei-Faktor-Authentifizierung',
    otpCode: 'Einmalcode',
    otpInvalid: 'Ungültiger Authenticator-Code.',
    otpTooManyCodes: 'Zu viele ungültige Codes. Melden Sie sich erneut an.',
    verify: 'Bestätigen',
    updatePasswordTitle: 'Passwort aktualisieren',
    updatePasswordHint: 'Sie müssen Ihr Passwort ändern, um Ihr Konto zu aktivieren.',
    newPassword: 'Neues Passwort',
    confirmPassword: 'Passwort bestätigen',
    passwordMismatch: 'Die Passwörter stimmen nicht überein.',
    passwordTooShort: 'Ungültiges Passwort: Mindestlänge 8.',
    save: 'Absenden',
    configureTotpTitle: 'Mobilen Authenticator einrichten',
    configureTotpHint:
      'Installieren Sie eine Authenticator-App, fügen Sie ein Konto mit dem Schlüssel unten hinzu (oder öffnen Sie den Link) und geben Sie den angezeigten Code ein.',
    secretKey: 'Schlüssel',
    signedOut: 'Sie sind abgemeldet.',
    signOutQuestion: 'Möchten Sie sich abmelden?',
    signOutYes: 'Abmelden',
    signOutNo: 'Angemeldet bleiben',
    errorTitle: 'Es tut uns leid...',
    sessionExpired: 'Die Anmeldung ist abgelaufen. Sie beginnt von vorn.',
    language: 'Sprache',
    linkInvalid:
      'Dieser Link ist ungültig, abgelaufen oder wurde bereits verwendet. Bitten Sie Ihren Administrator um einen neuen.',
    addressNotAllowed:
      'Die Sicherheitsrichtlinie Ihrer Organisation erlaubt keine Anmeldung aus diesem Netzwerk.',
  },
  es: {
    title: 'Inicia sesión en tu cuenta',
    email: 'Correo electrónico',
    password: 'Contraseña',
    signIn: 'Iniciar sesión',
    invalidCredentials: 'Usuario o contraseña incorrectos.',
    locked: 'Demasiados intentos fallidos. Espera unos minutos y vuelve a intentarlo.',
    disabled: 'La cuenta está desactivada, contacta con tu administrador.',
    otpTitle: 'Autenticación en dos pasos',
    otpCode: 'Código de un solo uso',
    otpInvalid: 'Código de autenticador no válido.',
    otpTooManyCodes: 'Demasiados códigos no válidos. Vuelve a iniciar sesión.',
    verify: 'Verificar',
    updatePasswordTitle: 'Actualizar contraseña',
    updatePasswordHint: 'Debes cambiar tu contraseña para activar tu cuenta.',
    newPassword: 'Nueva contraseña',
    confirmPassword: 'Confirmar contraseña',
    passwordMismatch: 'Las contraseñas no coinciden.',
    passwordTooShort: 'Contraseña no válida: longitud mínima 8.',
    save: 'Enviar',
    configureTotpTitle: 'Configurar autenticador móvil',
    configureTotpHint:
      'Instala una aplicación de autenticación, añade una cuenta con la clave de abajo (o abre el enlace) e introduce el código que muestra.',
    secretKey: 'Clave',
    signedOut: 'Has cerrado la sesión.',
    signOutQuestion: '¿Quieres cerrar la sesión?',
    signOutYes: 'Cerrar sesión',
    signOutNo: 'Seguir conectado',
    errorTitle: 'Lo sentimos...',
    sessionExpired: 'El intento de inicio de sesión ha caducado. Se empezará de nuevo.',
    language: 'Idioma',
    linkInvalid: 'Este enlace no es válido, ha caducado o ya se ha usado. Pide uno nuevo a tu administrador.',
    addressNotAllowed:
      'La política de seguridad de su organización no permite iniciar sesión desde esta red.',
  },
  fr: {
    title: 'Connectez-vous à votre compte',
    email: 'E-mail',
    password: 'Mot de passe',
    signIn: 'Se connecter',
    invalidCredentials: "Nom d'utilisateur ou mot de passe invalide.",
    locked: 'Trop de tentatives échouées. Patientez quelques minutes, puis réessayez.',
    disabled: 'Le compte est désactivé, contactez votre administrateur.',
    otpTitle: 'Authentification à deux facteurs',
    otpCode: 'Code à usage unique',
    otpInvalid: "Code d'authentification invalide.",
    otpTooManyCodes: 'Trop de codes invalides. Reconnectez-vous.',
    verify: 'Vérifier',
    updatePasswordTitle: 'Mettre à jour le mot de passe',
    updatePasswordHint: 'Vous devez changer votre mot de passe pour activer votre compte.',
    newPassword: 'Nouveau mot de passe',
    confirmPassword: 'Confirmer le mot de passe',
    passwordMismatch: 'Les mots de passe ne correspondent pas.',
    passwordTooShort: 'Mot de passe invalide : longueur minimale 8.',
    save: 'Valider',
    configureTotpTitle: "Configurer l'authentificateur mobile",
    configureTotpHint:
      "Installez une application d'authentification, ajoutez un compte avec la clé ci-dessous (ou ouvrez le lien), puis saisissez le code affiché.",
    secretKey: 'Clé',
    signedOut: 'Vous êtes déconnecté.',
    signOutQuestion: 'Voulez-vous vous déconnecter ?',
    signOutYes: 'Se déconnecter',
    signOutNo: 'Rester connecté',
    errorTitle: 'Nous sommes désolés...',
    sessionExpired: 'La tentative de connexion a expiré. Elle va recommencer depuis le début.',
    language: 'Langue',
    linkInvalid:
      'Ce lien est invalide, a expiré ou a déjà été utilisé. Demandez-en un nouveau à votre administrateur.',
    addressNotAllowed:
      "La politique de sécurité de votre organisation n'autorise pas la connexion depuis ce réseau.",
  },
  it: {
    title: 'Accedi al tuo account',
    email: 'E-mail',
    password: 'Password',
    signIn: 'Accedi',
    invalidCredentials: 'Nome utente o password non validi.',
    locked: 'Troppi tentativi non riusciti. Attendi qualche minuto e riprova.',
    disabled: "L'account è disabilitato, contatta l'amministratore.",
    otpTitle: 'Autenticazione a due fattori',
    otpCode: 'Codice monouso',
    otpInvalid: 'Codice di autenticazione non valido.',
    otpTooManyCodes: 'Troppi codici non validi. Accedi di nuovo.',
    verify: 'Verifica',
    updatePasswordTitle: 'Aggiorna password',
    updatePasswordHint: 'Devi cambiare la password per attivare il tuo account.',
    newPassword: 'Nuova password',
    confirmPassword: 'Conferma password',
    passwordMismatch: 'Le password non corrispondono.',
    passwordTooShort: 'Password non valida: lunghezza minima 8.',
    save: 'Invia',
    configureTotpTitle: 'Configura autenticatore mobile',
    configureTotpHint:
      "Installa un'app di autenticazione, aggiungi un account con la chiave qui sotto (o apri il link) e inserisci il codice mostrato.",
    secretKey: 'Chiave',
    signedOut: 'Sei disconnesso.',
    signOutQuestion: 'Vuoi disconnetterti?',
    signOutYes: 'Esci',
    signOutNo: 'Resta connesso',
    errorTitle: 'Siamo spiacenti...',
    sessionExpired: 'Il tentativo di accesso è scaduto. Ricomincerà dall’inizio.',
    language: 'Lingua',
    linkInvalid:
      "Questo link non è valido, è scaduto o è già stato usato. Chiedine uno nuovo all'amministratore.",
    addressNotAllowed:
      "La politica di sicurezza della tua organizzazione non consente l'accesso da questa rete.",
  },
};

/** `kc_locale` / `ui_locales` first, then the browser's Accept-Language, then English. */
export function pickLoginLocale(...candidates: Array<string | undefined>): LoginLocale {
  for (const candidate of candidates) {
    if (!candidate) continue;
    for (const part of candidate.split(/[ ,]/)) {
      const language = part.split(';')[0]?.trim().slice(0, 2).toLowerCase();
      const match = LOGIN_LOCALES.find((locale) => locale === language);
      if (match) return match;
    }
  }
  return 'en';
}
