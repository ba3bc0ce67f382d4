import { LOGIN_LOCALES, LOGIN_MESSAGES, type LoginLocale } from './login-messages.ts';

export type LoginTheme = {
  brandName: string;
  primaryColor: string;
  logoUrl?: string | null;
  colorScheme?: 'light' | 'dark' | 'auto';
};

export const DEFAULT_LOGIN_THEME: LoginTheme = { brandName: 'Edgeport', primaryColor: '#1c7ed6' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

type Page = {
  locale: LoginLocale;
  theme: LoginTheme;
  title: string;
  body: string;
  /** Where the language links point; `lang` is appended. Omit to hide the language picker. */
  languageBase?: string;
  error?: string;
};

export function renderPage(page: Page): string {
  const { theme, locale } = page;
  const logo = theme.logoUrl
    ? `<img class="logo" src="${escapeHtml(theme.logoUrl)}" alt="${escapeHtml(theme.brandName)}">`
    : `<div class="brand">${escapeHtml(theme.brandName)}</div>`;
  const error = page.error
    ? `<div class="alert" role="alert" id="input-error">${escapeHtml(page.error)}</div>`
    : '';
  return `<!DOCTYPE html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)} · ${escapeHtml(theme.brandName)}</title>
<style>
:root{--primary:${cssColor(theme.primaryColor)}}
*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f1f3f5;color:#212529;display:flex;min-height:100vh;align-items:center;justify-content:center}
${darkStyles(theme.colorScheme ?? 'auto')}
.card{width:min(400px,94vw);background:#fff;border:1px solid #dee2e6;border-radius:8px;padding:28px 28px 20px;box-shadow:0 1px 3px rgba(0,0,0,.08)}
.brand{font-weight:700;font-size:22px;color:var(--primary);margin-bottom:8px}.logo{max-height:48px;margin-bottom:8px}
h1{font-size:18px;font-weight:600;margin:0 0 18px}label{display:block;font-weight:500;margin:12px 0 4px}
input{width:100%;padding:9px 10px;border:1px solid #ced4da;border-radius:4px;font:inherit}
input:focus,button:focus,a:focus{outline:2px solid var(--primary);outline-offset:1px}
button{margin-top:18px;width:100%;padding:10px;border:0;border-radius:4px;background:var(--primary);color:#fff;font:inherit;font-weight:600;cursor:pointer}
button.secondary{background:transparent;color:var(--primary);border:1px solid var(--primary)}
.alert{background:#fff5f5;color:#c92a2a;border:1px solid #ffc9c9;border-radius:4px;padding:8px 10px;margin-bottom:8px}
.hint{color:#868e96;font-size:13px}code{word-break:break-all;font-size:14px}
nav{margin-top:18px;display:flex;gap:10px;justify-content:center;font-size:13px}nav a{color:#868e96}nav a[aria-current]{color:var(--primary);font-weight:600}
</style>
</head>
<body>
<main class="card">
${logo}
<h1>${escapeHtml(page.title)}</h1>
${error}
${page.body}
${page.languageBase ? languagePicker(page.languageBase, locale) : ''}
</main>
</body>
</html>`;
}

const DARK =
  'body{background:#1a1b1e;color:#e9ecef}.card{background:#25262b!important;border-color:#373a40!important}input{background:#1a1b1e;color:#e9ecef;border-color:#373a40!important}';

function darkStyles(scheme: 'light' | 'dark' | 'auto'): string {
  if (scheme === 'light') return ':root{color-scheme:light}';
  if (scheme === 'dark') return `:root{color-scheme:dark}${DARK}`;
  return `:root{color-scheme:light dark}@media (prefers-color-scheme:dark){${DARK}}`;
}

function cssColor(color: string): string {
  return /^#[0-9a-fA-F]{3,8}$/.test(color) ? color : DEFAULT_LOGIN_THEME.primaryColor;
}

function languagePicker(base: string, current: LoginLocale): string {
  const separator = base.includes('?') ? '&' : '?';
  const links = LOGIN_LOCALES.map(
    (locale) =>
      `<a href="${escapeHtml(`${base}${separator}lang=${locale}`)}" hreflang="${locale}"${locale === current ? ' aria-current="true"' : ''}>${locale.toUpperCase()}</a>`,
  ).join('');
  return `<nav aria-label="${escapeHtml(LOGIN_MESSAGES[current].language)}">${links}</nav>`;
}

export function loginForm(action: string, locale: LoginLocale, email = ''): string {
  const m = LOGIN_MESSAGES[locale];
  return `<form method="post" action="${escapeHtml(action)}" id="kc-form-login">
<label for="username">${m.email}</label>
<input id="username" name="username" type="text" autocomplete="username" value="${escapeHtml(email)}" autofocus required>
<label for="password">${m.password}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<input type="hidden" name="lang" value="${locale}">
<button type="submit" id="kc-login">${m.signIn}</button>
</form>`;
}

export function otpForm(action: string, locale: LoginLocale): string {
  const m = LOGIN_MESSAGES[locale];
  return `<form method="post" action="${escapeHtml(action)}" id="kc-otp-login-form">
<label for="otp">${m.otpCode}</label>
<input id="otp" name="otp" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" autofocus required>
<input type="hidden" name="lang" value="${locale}">
<button type="submit" id="kc-login">${m.verify}</button>
</form>`;
}

export function updatePasswordForm(action: string, locale: LoginLocale): string {
  const m = LOGIN_MESSAGES[locale];
  return `<p class="hint">${m.updatePasswordHint}</p>
<form method="post" action="${escapeHtml(action)}" id="kc-passwd-update-form">
<label for="password-new">${m.newPassword}</label>
<input id="password-new" name="password-new" type="password" autocomplete="new-password" autofocus required>
<label for="password-confirm">${m.confirmPassword}</label>
<input id="password-confirm" name="password-confirm" type="password" autocomplete="new-password" required>
<input type="hidden" name="lang" value="${locale}">
<button type="submit">${m.save}</button>
</form>`;
}

export function configureTotpForm(
  action: string,
  locale: LoginLocale,
  secret: string,
  otpauthUri: string,
): string {
  const m = LOGIN_MESSAGES[locale];
  return `<p class="hint">${m.configureTotpHint}</p>
<p>${m.secretKey}: <code id="kc-totp-secret-key">${escapeHtml(secret.replace(/(.{4})/g, '$1 ').trim())}</code></p>
<p><a href="${escapeHtml(otpauthUri)}" id="kc-totp-uri">${escapeHtml(otpauthUri.split('?')[0] ?? '')}</a></p>
<form method="post" action="${escapeHtml(action)}" id="kc-totp-settings-form">
<label for="totp">${m.otpCode}</label>
<input id="totp" name="totp" inputmode="numeric" autocomplete="one-time-code" autofocus required>
<input type="hidden" name="lang" value="${locale}">
<button type="submit">${m.save}</button>
</form>`;
}
