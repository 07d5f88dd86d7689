import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { firstAnswer } from '../../bench/lib/http-client.js';

// The start-up figure's knocking (capability 13): a refusal while kasa starts is knocked past, the
// first resultCode 0 counts.
describe('firstAnswer', () => {
  it('knocks again after an answer it does not accept, until one it accepts', async () => {
    let calls = 0;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        calls++;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ resultCode: calls < 3 ? 508 : 0 }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const answer = await firstAnswer(
        `http://127.0.0.1:${port}`,
        '/x',
        {},
        30_000,
        (a) => a.body?.resultCode === 0,
      );
      expect(answer.body.resultCode).toBe(0);
      expect(calls).toBe(3);
      await expect(
        firstAnswer(`http://127.0.0.1:${port}`, '/x', {}, 50, (a) => a.body?.resultCode === 1),
      ).rejects.toThrow(/no accepted answer to \/x within 50 ms; the last was \{"resultCode":0\}/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
