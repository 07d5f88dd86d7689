import { hostname as osHostname, networkInterfaces as osNetworkInterfaces } from 'node:os';
import type { Logger } from 'pino';

/** What the Host-name list needs from the operating system (tests replace it). */
export interface HostNameSources {
  networkInterfaces: () => NodeJS.Dict<{ address: string }[]>;
  hostname: () => string;
}

const osSources: HostNameSources = { networkInterfaces: osNetworkInterfaces, hostname: osHostname };

/**
 * Host header names the HTTP app accepts besides loopback: the configured host, and when bound to
 * a wildcard address every address of this machine and its name, so a POS on the LAN can reach a
 * register started with `--host 0.0.0.0 --token …` while a DNS-rebinding page (a foreign name)
 * still cannot.
 *
 * Listing the interfaces needs a netlink socket (AF_NETLINK) on Linux; a sandbox that forbids it
 * (a systemd unit's RestrictAddressFamilies= without AF_NETLINK, a seccomp profile) makes
 * `os.networkInterfaces()` throw. That must not end the start (ADR 0803): kasa falls back to the
 * configured host and the machine's name and says why — a POS then reaches it by name (or by a
 * `--host` given as the LAN address) rather than by a bare IP address.
 */
export function allowedHostNames(
  host: string,
  logger: Pick<Logger, 'warn'>,
  sources: HostNameSources = osSources,
): string[] {
  if (host !== '0.0.0.0' && host !== '::') return [host];
  const name = sources.hostname();
  let addresses: string[];
  try {
    addresses = Object.values(sources.networkInterfaces()).flatMap((list) =>
      (list ?? []).map((a) => a.address),
    );
  } catch (e) {
    logger.warn(
      `cannot list this machine's network addresses (${(e as Error).message}; a sandbox without ` +
        `AF_NETLINK?): requests naming this machine by ${name} or loopback are accepted, by a LAN IP ` +
        'address refused — allow AF_NETLINK, or start with --host set to that LAN address',
    );
    return [host, name];
  }
  return [host, name, ...addresses];
}
