import http from 'node:http';
import net from 'node:net';

import { errorCode } from '../errors.ts';

/**
 * HTTP as an attacker sends it: the path goes out exactly as written (broken percent-encodings
 * included), which fetch() would normalise; and, over a bare socket, bytes no HTTP client sends at all.
 */

export interface RawRequest {
  method: string;
  /** Path and query string, already in URL form. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** The loopback address to send from (127.0.0.2, ...): a client the server has not seen yet. */
  from?: string;
}

export interface RawAnswer {
  status: number;
  contentType: string;
  text: string;
  setCookies?: string[];
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** Sends one request; an event stream is read only up to its headers. Rejects after `timeoutMs`. */
export function sendRaw(baseUrl: string, request: RawRequest, timeoutMs = 20_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const options = { host: hostname, port, method: request.method, path: request.path, headers: request.headers };
    const req = http.request(request.from ? { ...options, localAddress: request.from } : { ...options, agent }, (res) => {
      const contentType = String(res.headers['content-type'] ?? '');
      const setCookies = res.headers['set-cookie'] ?? [];
      if (contentType.startsWith('text/event-stream')) {
        res.destroy();
        resolve({ status: res.statusCode ?? 0, contentType, text: '' });
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType, text: Buffer.concat(chunks).toString('utf8'), setCookies }));
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(request.body === undefined ? undefined : Buffer.from(request.body));
  });
}

/** Writes `bytes` to a fresh connection and parses the one answer the server gives before closing. */
export function sendBytes(baseUrl: string, bytes: string | Uint8Array, timeoutMs = 20_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // A complete answer with a Content-Length: stop there (keep-alive would hold the socket open).
      const answer = parseAnswer(Buffer.concat(chunks).toString('latin1'));
      if (answer) {
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const answer = parseAnswer(Buffer.concat(chunks).toString('latin1'));
      if (answer) resolve(answer);
      else
        reject(
          new Error(
            `connection closed without a complete answer: ${JSON.stringify(Buffer.concat(chunks).toString('latin1').slice(0, 200))}`,
          ),
        );
    });
    socket.write(bytes);
  });
}

export interface PipelinedAnswer {
  status: number;
  contentType: string;
  retryAfter?: string;
  body: string;
}

/** Writes `requests` (raw HTTP/1.1) to one fresh connection in a single write and reads their answers. */
export async function sendPipelined(baseUrl: string, requests: string[]): Promise<PipelinedAnswer[]> {
  const { hostname, port } = new URL(baseUrl);
  const socket = net.connect(Number(port), hostname);
  socket.setTimeout(60_000, () => socket.destroy(new Error('no answers within 60 s')));
  socket.write(requests.join(''));
  try {
    return await readAnswers(socket, requests.length);
  } finally {
    socket.destroy();
  }
}

/** Reads `count` pipelined answers (each with a Content-Length) from `socket`, resuming it if paused. */
export function readAnswers(socket: net.Socket, count: number): Promise<PipelinedAnswer[]> {
  return new Promise((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    const answers: PipelinedAnswer[] = [];
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) break;
        const head = buffer.subarray(0, end).toString('latin1');
        const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffer.length < end + 4 + length) break;
        answers.push({
          status: Number(head.split(' ')[1]),
          contentType: /content-type: *([^\r]+)/i.exec(head)?.[1] ?? '',
          retryAfter: /retry-after: *(\S+)/i.exec(head)?.[1],
          body: buffer.subarray(end + 4, end + 4 + length).toString('utf8'),
        });
        buffer = buffer.subarray(end + 4 + length);
      }
      if (answers.length >= count) resolve(answers);
    });
    socket.on('error', reject);
    socket.on('close', () => (answers.length >= count ? resolve(answers) : reject(new Error(`closed after ${answers.length} answers`))));
    socket.resume();
  });
}

function parseAnswer(raw: string): RawAnswer | undefined {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...headerLines] = raw.slice(0, end).split('\r\n');
  const headers = new Map(
    headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  const length = Number(headers.get('content-length') ?? Number.NaN);
  const body = Buffer.from(raw.slice(end + 4), 'latin1');
  if (!Number.isFinite(length) || body.length < length) return undefined;
  return {
    status: Number(statusLine.split(' ')[1]),
    contentType: headers.get('content-type') ?? '',
    text: body.subarray(0, length).toString('utf8'),
  };
}

/**
 * What is wrong with an answer to bad input, or undefined: no 5xx, and every error (4xx) a JSON:API
 * error document whose errors carry the answer's status, its stable code, a title and a detail.
 */
export function answerProblem(answer: RawAnswer, method = 'GET'): string | undefined {
  if (answer.status >= 500) return `answered ${answer.status}: ${answer.text.slice(0, 300)}`;
  if (answer.status < 400 || method === 'HEAD') return undefined;
  if (!/json/.test(answer.contentType))
    return `error ${answer.status} is ${answer.contentType || 'untyped'}, not JSON: ${answer.text.slice(0, 200)}`;
  let document: { errors?: Array<{ status?: unknown; code?: unknown; title?: unknown; detail?: unknown }> };
  try {
    document = JSON.parse(answer.text);
  } catch {
    return `error ${answer.status} body is not JSON: ${answer.text.slice(0, 200)}`;
  }
  const errors = document?.errors;
  if (!Array.isArray(errors) || errors.length === 0)
    return `error ${answer.status} is not a JSON:API error document: ${answer.text.slice(0, 200)}`;
  for (const error of errors) {
    if (
      error?.status !== String(answer.status) ||
      error.code !== errorCode(answer.status) ||
      typeof error.title !== 'string' ||
      typeof error.detail !== 'string' ||
      error.detail === ''
    ) {
      return `error ${answer.status} has an error object without the matching status and code, a title and a detail: ${answer.text.slice(0, 200)}`;
    }
  }
  return undefined;
}

/** Closes the kept-alive connections (at the end of a test file). */
export function closeRawConnections(): void {
  agent.destroy();
}
