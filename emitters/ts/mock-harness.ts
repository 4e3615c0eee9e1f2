// The harness of the generated mock tests (`sdkc generate --lang ts --tests`, sdkc's docs/mock.md):
// the tally, Prism's sl-violations header seen through onResponse, and the verdict on each call,
// as the C SDK's tests/mock.c gives them. Run: `npm run mock -- BASE_URL` (a `prism mock CONTRACT`
// server); one line per operation (PASS <id>, FAIL <id>: <why>, SKIP <id>: <reason>), then
// `mock: N pass, N fail, N skip`; the exit status is 1 when any operation fails.
import { isClientError, type RequestOptions } from '../src/index.js';

declare const process: { argv: string[]; exitCode?: number };

/** One attempt of a call with the given options. */
export type Attempt = (options: RequestOptions) => Promise<unknown>;

/** A body of 4 bytes ("mock") for binary request bodies. */
export const MOCK_BYTES = new Uint8Array([109, 111, 99, 107]);

function oneLine(s: string, max: number): string {
  return s.slice(0, max).replace(/[\r\n]/g, ' ');
}

/** The response body an error carries (the server's answer), or undefined. */
function bodyOf(e: unknown): string | undefined {
  if (isClientError(e)) return e.body;
  if (typeof e === 'object' && e !== null && 'payload' in e) {
    try {
      return JSON.stringify((e as { payload: unknown }).payload);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export class Mock {
  pass = 0;
  fail = 0;
  skip = 0;
  private status = 0;
  private violations: string | null = null;
  /** why the first attempt was retried */
  private note: string | undefined;

  skipOp(id: string, why: string): void {
    console.log(`SKIP ${id}: ${why}`);
    this.skip++;
  }

  private failOp(id: string, what: string, body?: string): void {
    let line = `FAIL ${id}: ${what}`;
    if (body) line += ' -- body: ' + oneLine(body, 600);
    console.log(line);
    this.fail++;
  }

  /** The violations Prism reported on one side ('request' or 'response'): their count, and the
   * first as "location: message". An unreadable header counts as one. */
  private violationsOf(side: string): [number, string] {
    if (this.violations === null) return [0, ''];
    let all: unknown;
    try {
      all = JSON.parse(this.violations);
    } catch {
      all = undefined;
    }
    if (!Array.isArray(all)) return [this.violations.includes(side) ? 1 : 0, this.violations.slice(0, 300)];
    let n = 0;
    let first = '';
    for (const v of all as { location?: unknown; message?: unknown }[]) {
      const loc = v?.location;
      if (!Array.isArray(loc) || loc[0] !== side) continue;
      if (n++ === 0)
        first = `${loc.map(String).join('.')}: ${typeof v.message === 'string' ? v.message.slice(0, 300) : '(no message)'}`;
    }
    return [n, first];
  }

  /** Call an operation: a second attempt asks Prism for a response generated from the schema
   * when the first one's example breaks the contract. */
  async call(id: string, unserialisableBody: boolean, attempt: Attempt): Promise<void> {
    for (let k = 0; k < 2; k++) {
      this.status = 0;
      this.violations = null;
      const options: RequestOptions = {
        onResponse: (r) => {
          this.status = r.status;
          this.violations = r.headers.get('sl-violations');
        },
      };
      if (k) options.headers = { Prefer: 'dynamic=true' };
      let ok = false;
      let error: unknown;
      try {
        await attempt(options);
        ok = true;
      } catch (e) {
        error = e;
      }
      if (!this.report(id, ok, error, k, unserialisableBody)) break;
    }
  }

  /** The verdict on one attempt. Any request violation Prism reports FAILs, whatever the status.
   * A response the SDK rejects while Prism reports that the response itself breaks the contract
   * is retried once. unserialisableBody: Prism may have no serialiser for the success body (JSON
   * under a media range, binary) and every error response is concrete JSON or empty, so such a
   * 500 comes after the request passed validation. Returns true to retry. */
  private report(id: string, ok: boolean, error: unknown, attempt: number, unserialisableBody: boolean): boolean {
    const [nreq, reqv] = this.violationsOf('request');
    const [nresp, respv] = this.violationsOf('response');
    const reason = isClientError(error) ? error.reason : undefined;
    const msg = ok ? '(no error)' : error instanceof Error ? error.message : String(error);
    const body = ok ? undefined : bodyOf(error);
    const rejected = reason === 'malformed_response' || reason === 'unsupported_content_type';
    let retry = false;
    if (nreq) {
      this.failOp(
        id,
        `Prism reported ${nreq} request violation${nreq === 1 ? '' : 's'}: ${reqv} (HTTP ${this.status}; ${ok ? 'call succeeded' : msg})`,
      );
    } else if (ok) {
      if (this.note !== undefined)
        console.log(`PASS ${id}: the contract's example breaks its schema (${this.note}); a response generated from the schema decodes`);
      else console.log(`PASS ${id}`);
      this.pass++;
    } else if (rejected && nresp && attempt === 0) {
      this.note = respv;
      retry = true;
    } else if (rejected && nresp) {
      this.skipOp(id, `the request passed; Prism's responses break the contract (${respv}), and the SDK rejects them: ${msg}`);
    } else if (
      unserialisableBody &&
      this.status === 500 &&
      body &&
      (body.includes('prism/errors#NO_COMPLEX_OBJECT_TEXT') || body.includes('Cannot find serializer'))
    ) {
      this.skipOp(id, `the request passed; Prism cannot serialise its response (${body.slice(0, 200)})`);
    } else {
      this.failOp(id, oneLine(msg, 800), body);
    }
    if (!retry) this.note = undefined;
    return retry;
  }
}

/** Run the operations against the server at argv[2]; prints the summary and sets the exit code. */
export async function runMock(ops: (t: Mock, baseUrl: string) => Promise<void>): Promise<void> {
  const baseUrl = process.argv[2];
  if (process.argv.length !== 3 || baseUrl === undefined) {
    console.error('usage: node dist-mock/tests/mock.js BASE_URL');
    process.exitCode = 2;
    return;
  }
  const t = new Mock();
  await ops(t, baseUrl);
  console.log(`mock: ${t.pass} pass, ${t.fail} fail, ${t.skip} skip`);
  process.exitCode = t.fail ? 1 : 0;
}
