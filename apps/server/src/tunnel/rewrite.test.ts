import { describe, expect, it } from 'vitest';
import {
  cookieValues,
  hopByHopHeaders,
  rewriteHtml,
  rewriteLocation,
  rewriteSetCookie,
  targetHost,
  targetOrigin,
  withoutCookie,
} from './rewrite.ts';

const id = '0b6f4f3e-8a1c-4c4e-9d1e-3f2a1b0c9d8e';
const http = { protocol: 'HTTP', address: '10.213.0.1', port: 8080 } as const;
const https = { protocol: 'HTTPS', address: '10.213.0.7', port: 443 } as const;

describe('Location', () => {
  it('moves root-relative paths and absolute URLs to the machine under the session prefix', () => {
    expect(rewriteLocation('/login?next=%2F', id, http)).toBe(`/remote/${id}/login?next=%2F`);
    expect(rewriteLocation('http://10.213.0.1:8080/a/b#top', id, http)).toBe(`/remote/${id}/a/b#top`);
    expect(rewriteLocation('https://10.213.0.7/setup', id, https)).toBe(`/remote/${id}/setup`);
    expect(rewriteLocation('//10.213.0.1:8080/x', id, http)).toBe(`/remote/${id}/x`);
    expect(rewriteLocation(`/remote/${id}/done`, id, http)).toBe(`/remote/${id}/done`);
  });

  it('leaves relative paths, other hosts, other ports and other schemes alone', () => {
    expect(rewriteLocation('login', id, http)).toBe('login');
    expect(rewriteLocation('../up', id, http)).toBe('../up');
    expect(rewriteLocation('https://vendor.example.com/help', id, http)).toBe(
      'https://vendor.example.com/help',
    );
    expect(rewriteLocation('http://10.213.0.1:9090/', id, http)).toBe('http://10.213.0.1:9090/');
    expect(rewriteLocation('//cdn.example.com/x.js', id, http)).toBe('//cdn.example.com/x.js');
    expect(rewriteLocation('mailto:ops@example.com', id, http)).toBe('mailto:ops@example.com');
  });
});

describe('Set-Cookie', () => {
  const plain = { secure: false, reservedName: 'edgeport_remote' };
  it('drops Domain and puts Path under the session prefix', () => {
    expect(rewriteSetCookie('sid=abc; Path=/; Domain=10.213.0.1; HttpOnly', id, plain)).toBe(
      `sid=abc; Path=/remote/${id}/; HttpOnly`,
    );
    expect(rewriteSetCookie('lang=de; path=/ui; Max-Age=60', id, plain)).toBe(
      `lang=de; Path=/remote/${id}/ui; Max-Age=60`,
    );
    expect(rewriteSetCookie('x=1', id, plain)).toBe('x=1');
  });

  it('drops Secure on a plain-HTTP portal (SameSite=None becomes Lax) and keeps it on HTTPS', () => {
    expect(rewriteSetCookie('t=1; Secure; SameSite=None', id, plain)).toBe('t=1; SameSite=Lax');
    expect(rewriteSetCookie('t=1; Secure; SameSite=None', id, { ...plain, secure: true })).toBe(
      't=1; Secure; SameSite=None',
    );
  });

  it("refuses a cookie that would replace the portal's session cookie", () => {
    expect(rewriteSetCookie('edgeport_remote=evil; Path=/', id, plain)).toBeUndefined();
  });
});

describe('HTML', () => {
  it('moves root-relative href, src and action under the prefix, byte for byte elsewhere', () => {
    const page = Buffer.from(
      '<a href="/login">in</a><img src=\'/logo.png\'><form action=/save method=post>' +
        '<a href="//cdn.example.com/x">cdn</a><a href="rel/x">rel</a><a href="https://x.example/">abs</a>' +
        `<script src="/remote/${id}/already.js"></script>\u00e9`,
      'latin1',
    );
    expect(rewriteHtml(page, id).toString('latin1')).toBe(
      `<a href="/remote/${id}/login">in</a><img src='/remote/${id}/logo.png'>` +
        `<form action=/remote/${id}/save method=post>` +
        '<a href="//cdn.example.com/x">cdn</a><a href="rel/x">rel</a><a href="https://x.example/">abs</a>' +
        `<script src="/remote/${id}/already.js"></script>\u00e9`,
    );
    const utf8 = Buffer.from('<p>Grüße</p><a HREF = "/ü">x</a>', 'utf8');
    expect(rewriteHtml(utf8, id).toString('utf8')).toBe(`<p>Grüße</p><a HREF = "/remote/${id}/ü">x</a>`);
  });
});

describe('headers', () => {
  it('names the machine by address and port unless it is the default one', () => {
    expect(targetHost(http)).toBe('10.213.0.1:8080');
    expect(targetHost(https)).toBe('10.213.0.7');
    expect(targetOrigin(https)).toBe('https://10.213.0.7');
  });

  it('knows hop-by-hop headers, including those Connection names', () => {
    const names = hopByHopHeaders('close, X-Private');
    expect(names.has('x-private')).toBe(true);
    expect(names.has('transfer-encoding')).toBe(true);
    expect(names.has('content-type')).toBe(false);
  });

  it("finds and removes the portal's cookie among the machine's", () => {
    const header = 'sid=1; edgeport_remote=abc; theme=dark; edgeport_remote=def';
    expect(cookieValues(header, 'edgeport_remote')).toEqual(['abc', 'def']);
    expect(withoutCookie(header, 'edgeport_remote')).toBe('sid=1; theme=dark');
    expect(withoutCookie('edgeport_remote=abc', 'edgeport_remote')).toBeUndefined();
  });
});
