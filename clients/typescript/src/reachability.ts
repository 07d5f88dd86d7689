import { connect } from 'node:net';

/**
 * The API text's reachability check: can a TCP connection to kasa's port be opened? (Node only;
 * a browser POS uses `GET /api/version` instead.) Resolves false on refusal or after `timeoutMs`.
 */
export function canConnect(host = '127.0.0.1', port = 13083, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
