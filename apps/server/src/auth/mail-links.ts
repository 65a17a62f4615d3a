import type { AddressInfo } from 'node:net';

import { type Config, ownUrlOf } from '../config.ts';

/**
 * The base URL of links that leave by mail (password reset): ANTARES_PUBLIC_URL, else the URL `npm start`
 * gave the server, else the address it listens on (mail then only goes to the outbox folder and the log:
 * configuration requires ANTARES_PUBLIC_URL with SMTP). Never a request's Host or X-Forwarded-* headers,
 * which anyone can set: a link built from them would hand a victim's reset token to the sender's host.
 */
export function mailLinkBase(
  config: Pick<Config, 'publicUrl' | 'ownUrl' | 'host' | 'port'>,
  listening: AddressInfo | string | null,
): string {
  if (config.publicUrl) return config.publicUrl.replace(/\/$/, '');
  if (config.ownUrl) return config.ownUrl.replace(/\/$/, '');
  if (listening && typeof listening === 'object') return ownUrlListening(listening);
  return ownUrlOf(config.host, config.port);
}

function ownUrlListening(address: AddressInfo): string {
  // A wildcard address is no place to send a browser to; the machine's own name for itself is.
  if (address.address === '0.0.0.0' || address.address === '::') return ownUrlOf('localhost', address.port);
  const host = address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
