import http from "node:http";
import https from "node:https";
import type { Message } from "@core/messages";
import { addressRefusal, classifyAddress, ipLiteral, lookupPublicOnly, RefusedAddressError } from "./address-policy";
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, signatureHeader } from "./signature";

/*
 * One attempt at a delivery: a POST of the JSON body, signed, to the webhook's URL. No redirect is followed (a 3xx
 * is a failure), no connection is reused (each attempt resolves and checks the host again), the whole attempt
 * has a deadline, and at most RESPONSE_EXCERPT_BYTES of the answer are read.
 */

export const RESPONSE_EXCERPT_BYTES = 512;

export interface DeliveryRequest {
  url: string;
  secret: string;
  event: string;
  deliveryId: string;
  body: string;
}

export interface SendOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  userAgent: string;
  signal?: AbortSignal;
}

export type AttemptResult =
  { ok: true; status: number; excerpt: string } | { ok: false; status: number | null; excerpt: string | null; error: Message };

class DeadlineError extends Error {}

function networkError(error: unknown, timeoutMs: number): Message {
  if (error instanceof RefusedAddressError) return addressRefusal(error.address, error.kind);
  if (error instanceof DeadlineError)
    return { key: "webhooks.deliveryErrors.timeout", params: { seconds: Math.round(timeoutMs / 100) / 10 } };
  const code = (error as { code?: string }).code;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return { key: "webhooks.deliveryErrors.hostNotFound" };
  if (code === "ECONNREFUSED") return { key: "webhooks.deliveryErrors.refused" };
  const detail = error instanceof Error ? error.message : String(error);
  return { key: "webhooks.deliveryErrors.network", params: { detail: detail.slice(0, 200) } };
}

export function sendDelivery(request: DeliveryRequest, options: SendOptions): Promise<AttemptResult> {
  const url = new URL(request.url);
  const literal = ipLiteral(url.hostname);
  if (literal && !options.allowPrivate) {
    const kind = classifyAddress(literal);
    if (kind) return Promise.resolve({ ok: false, status: null, excerpt: null, error: addressRefusal(literal, kind) });
  }
  const timestamp = Math.floor(Date.now() / 1000);
  const body = Buffer.from(request.body);
  const client = url.protocol === "https:" ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      options.signal?.removeEventListener("abort", abort);
      resolve(result);
    };
    const outgoing = client.request(url, {
      method: "POST",
      agent: false,
      ...(options.allowPrivate ? {} : { lookup: lookupPublicOnly }),
      headers: {
        "Content-Type": "application/json",
        "Content-Length": body.length,
        "User-Agent": options.userAgent,
        [EVENT_HEADER]: request.event,
        [DELIVERY_HEADER]: request.deliveryId,
        [SIGNATURE_HEADER]: signatureHeader(request.secret, request.body, timestamp),
      },
    });
    const fail = (error: unknown) => finish({ ok: false, status: null, excerpt: null, error: networkError(error, options.timeoutMs) });
    const deadline = setTimeout(() => {
      const error = new DeadlineError("the receiver did not answer in time");
      outgoing.destroy(error);
      fail(error);
    }, options.timeoutMs);
    const abort = () => {
      outgoing.destroy(new Error("the server is stopping"));
      fail(new Error("the server is stopping"));
    };
    options.signal?.addEventListener("abort", abort, { once: true });
    outgoing.on("error", fail);
    outgoing.on("response", (response) => {
      const status = response.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let length = 0;
      const done = () => {
        const excerpt = Buffer.concat(chunks)
          .subarray(0, RESPONSE_EXCERPT_BYTES)
          .toString("utf8")
          .replace(/\uFFFD+$/, "");
        response.destroy();
        if (status >= 200 && status < 300) {
          finish({ ok: true, status, excerpt });
          return;
        }
        const error: Message =
          status >= 300 && status < 400
            ? { key: "webhooks.deliveryErrors.redirect", params: { status } }
            : { key: "webhooks.deliveryErrors.status", params: { status } };
        finish({ ok: false, status, excerpt, error });
      };
      response.on("data", (chunk: Buffer) => {
        if (length >= RESPONSE_EXCERPT_BYTES) return;
        chunks.push(chunk);
        length += chunk.length;
        if (length >= RESPONSE_EXCERPT_BYTES) done();
      });
      response.on("end", done);
      response.on("error", done);
    });
    outgoing.end(body);
  });
}
