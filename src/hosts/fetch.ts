import type { Service } from '../core/service.js';
import { clientAddress, respondWithService, type ClientAddressOptions } from './fetch-conversion.js';

export type FetchHostOptions = ClientAddressOptions;

/**
 * Answers one Fetch request. `remoteAddress` is the connection's peer (Deno's `info.remoteAddr.hostname`,
 * Bun's `server.requestIP(request)?.address`): it keys the rate limits and limits the control API to
 * loopback, as on the node host. Without it the caller counts as in-process: `defaultIp` keys the limits
 * and the control API answers, so a deployment reachable by others must pass it (or disable control).
 */
export type FetchHandler = (request: Request, remoteAddress?: string) => Promise<Response>;

/** The service for fetch-based runtimes (Deno, Bun, workers): Request in, Response out. */
export function createFetchHandler(service: Service, options: FetchHostOptions = {}): FetchHandler {
  return (request, remoteAddress) => respondWithService(service, request, clientAddress(service, request, options, remoteAddress));
}
