/**
 * The small pages keycloak-js loads in hidden frames. The session check answers keycloak-js's message
 * `"{clientId} {sessionId}"` with unchanged / changed / error, asking the server whether the browser's session
 * cookie still belongs to that session.
 */
export function checkSessionIframe(nonce: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>session</title></head><body>
<script nonce="${nonce}">
window.addEventListener('message', async function (event) {
  if (event.origin !== window.location.origin || typeof event.data !== 'string') {
    event.source && event.source.postMessage('error', event.origin);
    return;
  }
  var parts = event.data.split(' ');
  if (parts.length !== 2 || !parts[1]) { event.source.postMessage('error', event.origin); return; }
  try {
    var response = await fetch(window.location.pathname + '/check?sid=' + encodeURIComponent(parts[1]), { credentials: 'same-origin', cache: 'no-store' });
    var body = await response.json();
    event.source.postMessage(body.state === 'unchanged' ? 'unchanged' : 'changed', event.origin);
  } catch (error) {
    event.source.postMessage('error', event.origin);
  }
});
</script></body></html>`;
}

export function thirdPartyCookiesStep1(nonce: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>3p cookies</title></head><body>
<script nonce="${nonce}">
document.cookie = 'KEYCLOAK_3P_COOKIE_SAMESITE=supported; max-age=60; samesite=none; secure';
document.cookie = 'KEYCLOAK_3P_COOKIE=supported; max-age=60';
window.location = 'step2.html';
</script></body></html>`;
}

export function thirdPartyCookiesStep2(nonce: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>3p cookies</title></head><body>
<script nonce="${nonce}">
var supported = document.cookie.indexOf('KEYCLOAK_3P_COOKIE') !== -1;
document.cookie = 'KEYCLOAK_3P_COOKIE_SAMESITE=; max-age=0; samesite=none; secure';
document.cookie = 'KEYCLOAK_3P_COOKIE=; max-age=0';
window.parent.postMessage(supported ? 'supported' : 'unsupported', '*');
</script></body></html>`;
}
