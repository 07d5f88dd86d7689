import type { IncomingHttpHeaders } from 'node:http';

/**
 * ADR 0428: a simulator's control paths (`/__sim/…`) are driven by tests, scripts and curl, never by
 * a web page. A browser marks every request it makes — `Sec-Fetch-Site` (also on same-origin
 * requests, such as those of a page that rebound a name to 127.0.0.1) and `Origin` on a POST — so a
 * request carrying either is refused before it is read. A client that is not a browser sends
 * neither. Without this, any page open in the shop's browser could take the demo SFS offline, queue
 * faults, or pay a demo QR payment on the simulators' loopback ports.
 *
 * @returns the sentence of the 403, or undefined when the request may go on.
 */
export function pageRequestRefusal(headers: IncomingHttpHeaders): string | undefined {
  const fetchSite = headers['sec-fetch-site'];
  if (fetchSite !== undefined && fetchSite !== 'none') {
    return `a request from a web page (Sec-Fetch-Site: ${String(fetchSite).slice(0, 40)}) may not drive the simulator`;
  }
  if (headers.origin !== undefined) {
    return `a request from a web page (Origin: ${String(headers.origin).slice(0, 100)}) may not drive the simulator`;
  }
  return undefined;
}
