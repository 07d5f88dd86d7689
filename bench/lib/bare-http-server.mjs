// The floor for one HTTP exchange with kasa: a bare node:http server in its own process that reads
// a JSON body, parses it and answers a JSON document of about the size of kasa's store answer.
// Prints "listening <port>" once it listens. Started by bench/floor.ts, never by kasa.
import http from 'node:http';

const answer = { resultCode: 0, document: { padding: 'x'.repeat(2000) } };
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let echo = null;
    try {
      echo = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
    } catch {}
    const body = JSON.stringify({ ...answer, echo: echo?.type ?? null });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  console.log(`listening ${server.address().port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
