import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  attachSocketAddress,
  type ClientAddressPolicy,
  clientAddress,
  socketAddress,
} from '../../lib/http/index.js';
import { createLocalApp } from '../../lib/local-server/index.js';

const socketOnly: ClientAddressPolicy = { hops: 1, onVercel: false };

function requestFrom(socket: string | undefined, headers: Record<string, string> = {}): Request {
  const request = new Request('http://test/api/chat', { headers });
  attachSocketAddress(request, socket);
  return request;
}

describe('clientAddress', () => {
  it('counts the socket address and ignores X-Real-IP and X-Forwarded-For when no header is trusted', () => {
    const request = requestFrom('::ffff:198.51.100.7', {
      'x-real-ip': '10.9.9.9',
      'x-forwarded-for': '10.1.1.1, 10.2.2.2',
    });
    expect(clientAddress(request, socketOnly)).toBe('198.51.100.7');
  });

  it('is "unknown" without a socket address and without a trusted header', () => {
    expect(clientAddress(requestFrom(undefined, { 'x-real-ip': '10.9.9.9' }), socketOnly)).toBe('unknown');
  });

  it('takes the right-most X-Forwarded-For entry (the one your proxy appended) when trusted', () => {
    const policy: ClientAddressPolicy = { trustHeader: 'x-forwarded-for', hops: 1, onVercel: false };
    const request = requestFrom('127.0.0.1', { 'x-forwarded-for': '6.6.6.6, 1.2.3.4, 203.0.113.9' });
    expect(clientAddress(request, policy)).toBe('203.0.113.9');
  });

  it('counts TRUST_PROXY_HOPS entries from the right behind two proxies', () => {
    const policy: ClientAddressPolicy = { trustHeader: 'x-forwarded-for', hops: 2, onVercel: false };
    const request = requestFrom('127.0.0.1', { 'x-forwarded-for': '6.6.6.6, 203.0.113.9, 10.0.0.2' });
    expect(clientAddress(request, policy)).toBe('203.0.113.9');
  });

  it('falls back to the socket when the trusted header is missing or shorter than the hops', () => {
    const policy: ClientAddressPolicy = { trustHeader: 'x-forwarded-for', hops: 2, onVercel: false };
    expect(clientAddress(requestFrom('192.0.2.1'), policy)).toBe('192.0.2.1');
    expect(clientAddress(requestFrom('192.0.2.1', { 'x-forwarded-for': '6.6.6.6' }), policy)).toBe(
      '192.0.2.1',
    );
  });

  it('reads a trusted X-Real-IP whole and ignores an overlong value', () => {
    const policy: ClientAddressPolicy = { trustHeader: 'x-real-ip', hops: 1, onVercel: false };
    expect(clientAddress(requestFrom('127.0.0.1', { 'x-real-ip': ' 2001:db8::1 ' }), policy)).toBe(
      '2001:db8::1',
    );
    expect(clientAddress(requestFrom('127.0.0.1', { 'x-real-ip': 'x'.repeat(200) }), policy)).toBe(
      '127.0.0.1',
    );
  });

  it('uses the header the Vercel edge overwrites (x-real-ip) on Vercel, never X-Forwarded-For', () => {
    const policy: ClientAddressPolicy = { hops: 1, onVercel: true };
    const request = requestFrom(undefined, { 'x-real-ip': '203.0.113.50', 'x-forwarded-for': '6.6.6.6' });
    expect(clientAddress(request, policy)).toBe('203.0.113.50');
  });

  it('lets TRUST_PROXY_HEADER win on Vercel, for a proxy in front of it', () => {
    const policy: ClientAddressPolicy = { trustHeader: 'cf-connecting-ip', hops: 1, onVercel: true };
    const request = requestFrom(undefined, {
      'x-real-ip': '198.51.100.1',
      'cf-connecting-ip': '203.0.113.8',
    });
    expect(clientAddress(request, policy)).toBe('203.0.113.8');
  });

  it('gets the socket address from the local server without a copy of the request', async () => {
    const root = resolve(import.meta.dirname, '../..');
    const app = await createLocalApp({ apiDir: resolve(root, 'api'), publicDir: resolve(root, 'public') });
    const request = new Request('http://127.0.0.1/api/openapi.json', {
      headers: { 'x-real-ip': '10.6.6.6' },
    });
    const response = await app.fetch(request, {
      incoming: { socket: { remoteAddress: '::ffff:203.0.113.4' } },
    });
    expect(response.status).toBe(200);
    expect(socketAddress(request)).toBe('203.0.113.4');
    expect(clientAddress(request, socketOnly)).toBe('203.0.113.4');
  });
});
