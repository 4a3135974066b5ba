import { http, type HttpHandler } from 'msw';
import { OptionsError, type ServiceOptions } from '../core/options.js';
import type { ServiceRequest } from '../core/http.js';
import { createService, type Service } from '../core/service.js';
import { isControlPath } from '../spec/control-routes.js';
import { specRoute } from '../spec/routes.js';
import { clientAddress, DEFAULT_CLIENT_IP, respondWithService, type ClientAddressOptions } from './fetch-conversion.js';
import { createMockControl, type MockControl } from './mock-control.js';

export interface MswMockOptions extends ServiceOptions, ClientAddressOptions {
  /**
   * The origin(s) of the API, e.g. 'https://api.game.test' (in a browser on the page's own origin,
   * `location.origin`). Required: requests to every other origin pass through untouched.
   */
  baseUrl: string | readonly string[];
  /**
   * 'all-paths' (default): every request to the base URL is the service's, unknown paths answer its 404.
   * 'service-paths': only /health, /api/... and the control API's paths are; the rest pass through, for a base URL
   * that also serves the application (a dev server's pages, scripts and assets).
   */
  intercept?: 'all-paths' | 'service-paths';
  /**
   * The origin of the page that sends the requests (startMockWorker passes location.origin). A service
   * worker sees a request before the browser adds its Origin header, so the mock adds it as the browser
   * would: to cross-origin requests, and to same-origin ones other than GET and HEAD.
   */
  pageOrigin?: string;
}

export interface MswMock {
  /** msw request handlers: pass them to setupServer (msw/node) or setupWorker (msw/browser). */
  handlers: HttpHandler[];
  /** The control API as typed calls, made in-process. */
  control: MockControl;
  service: Service;
}

function isServicePath(path: string): boolean {
  return path === specRoute('health').path || /^\/api(\/|$)/.test(path) || isControlPath(path);
}

function apiOrigins(baseUrl: string | readonly string[]): ReadonlySet<string> {
  const urls = typeof baseUrl === 'string' ? [baseUrl] : baseUrl;
  if (urls.length === 0) throw new OptionsError('baseUrl must name at least one origin');
  return new Set(
    urls.map((text) => {
      const url = URL.canParse(text) ? new URL(text) : undefined;
      if (url === undefined || !/^https?:$/.test(url.protocol)) {
        throw new OptionsError(`baseUrl ${JSON.stringify(text)} must be an absolute http(s) URL (in a browser, location.origin for the page's own)`);
      }
      if (url.pathname !== '/' || url.search !== '') throw new OptionsError(`baseUrl ${JSON.stringify(text)} must be an origin, without a path or query`);
      return url.origin;
    }),
  );
}

/** The Origin header a browser sends, where the worker received the request without it. */
function withPageOrigin(serviceRequest: ServiceRequest, request: Request, pageOrigin: string | undefined): ServiceRequest {
  if (pageOrigin === undefined || serviceRequest.headers['origin'] !== undefined) return serviceRequest;
  const crossOrigin = new URL(request.url).origin !== pageOrigin;
  if (!crossOrigin && (request.method === 'GET' || request.method === 'HEAD')) return serviceRequest;
  return { ...serviceRequest, headers: { ...serviceRequest.headers, origin: pageOrigin } };
}

/**
 * The mock as msw handlers over the same service the standalone server runs: one behaviour in Node tests
 * (setupServer) and browser dev builds (setupWorker). Requests have no socket, so rate limits key on
 * `defaultIp` (or a trusted X-Forwarded-For), and the control API is always allowed.
 */
export function createMswMock(options: MswMockOptions): MswMock {
  const { baseUrl, intercept = 'all-paths', defaultIp = DEFAULT_CLIENT_IP, trustForwardedFor = false, pageOrigin, ...serviceOptions } = options;
  const origins = apiOrigins(baseUrl);
  const service = createService(serviceOptions);
  const addressOptions = { defaultIp, trustForwardedFor };
  const handler = http.all(
    ({ request }) => {
      const url = new URL(request.url);
      return origins.has(url.origin) && (intercept === 'all-paths' || isServicePath(url.pathname));
    },
    ({ request }) =>
      respondWithService(service, request, clientAddress(service, request, addressOptions), (serviceRequest) =>
        withPageOrigin(serviceRequest, request, pageOrigin),
      ),
  );
  return { handlers: [handler], control: createMockControl(service, defaultIp), service };
}
