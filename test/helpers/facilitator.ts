import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const SUPPORTS_BASE = [
  { x402Version: 1, scheme: 'exact', network: 'base' },
  { x402Version: 2, scheme: 'exact', network: 'eip155:8453' },
];

/** A call of `POST /verify` or `POST /settle` as svc makes it. */
export interface FacilitatorCall {
  x402Version: number;
  paymentPayload: { payload: { signature: string; authorization: { from: string; nonce: string } } };
  paymentRequirements: Record<string, unknown>;
}

/**
 * A loopback x402 facilitator: `GET /supported` lists `kinds`, `POST /verify` answers `verdict`
 * (valid by default), `POST /settle` succeeds (or fails, when told to); it records every verify and
 * settle call and the headers of every request.
 */
export class FakeFacilitator {
  settled: FacilitatorCall[] = [];
  verified: FacilitatorCall[] = [];
  verdict: { isValid: boolean; invalidReason?: string } = { isValid: true };
  requests: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];
  succeed = true;
  kinds: object[] = SUPPORTS_BASE;
  private readonly server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      this.requests.push({ method: req.method!, url: req.url!, headers: req.headers });
      res.setHeader('content-type', 'application/json');
      if (req.method === 'GET' && req.url === '/supported') return void res.end(JSON.stringify({ kinds: this.kinds }));
      if (req.method === 'POST' && req.url === '/verify') {
        const call = JSON.parse(body) as FacilitatorCall;
        this.verified.push(call);
        return void res.end(JSON.stringify({ ...this.verdict, payer: call.paymentPayload.payload.authorization.from }));
      }
      if (req.method !== 'POST' || req.url !== '/settle') return void res.writeHead(404).end('{}');
      const call = JSON.parse(body);
      this.settled.push(call);
      const from = call.paymentPayload.payload.authorization.from;
      res.end(
        JSON.stringify(
          this.succeed
            ? { success: true, transaction: `0x${'ab'.repeat(32)}`, network: 'base', payer: from }
            : { success: false, errorReason: 'insufficient_funds', transaction: '', network: 'base' },
        ),
      );
    });
  });

  async start(): Promise<string> {
    // Idle connections are closed by the client (undici, after 4 s), never by this server at the moment the client
    // reuses one: a server-side keep-alive timeout racing the pool is an ECONNRESET when instances start seconds apart.
    this.server.keepAliveTimeout = 0;
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
