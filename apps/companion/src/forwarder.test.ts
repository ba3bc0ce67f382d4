import { describe, expect, it } from 'vitest';
import { ForwarderError, sessionIdOf, startForwarder, tunnelUrl } from './forwarder.ts';

const id = '0b6f4f3e-8a1c-4c4e-9d1e-3f2a1b0c9d8e';

describe('the companion CLI', () => {
  it('reads the session id of a token and refuses anything else', () => {
    expect(sessionIdOf(`${id}.${'a'.repeat(43)}`)).toBe(id);
    expect(() => sessionIdOf('not-a-token')).toThrow(ForwarderError);
    expect(() => sessionIdOf(`${id}.short`)).toThrow('the token is not an Edgeport session token');
  });

  it('connects with https to an https portal and http to plain http', () => {
    expect(tunnelUrl('https://portal.example.com', id)).toBe(`https://portal.example.com/tunnel/tcp/${id}`);
    expect(tunnelUrl('http://127.0.0.1:8080/', id)).toBe(`http://127.0.0.1:8080/tunnel/tcp/${id}`);
    expect(() => tunnelUrl('ftp://portal.example.com', id)).toThrow(
      '--server must start with https:// or http://',
    );
    expect(() => tunnelUrl('portal', id)).toThrow("--server must be the portal's address");
  });

  it('says so when the server cannot be reached', async () => {
    await expect(
      startForwarder({ server: 'http://127.0.0.1:9', token: `${id}.${'a'.repeat(43)}`, localPort: 0 }),
    ).rejects.toThrow(/^cannot reach the server http:\/\/127\.0\.0\.1:9: /);
  });
});
