import { CONTROL_ROUTES } from '../../spec/control-routes.js';
import { ApiError } from '../errors.js';
import { ControlContent, type ControlRoute, declaredRoute } from './control-route.js';
import { DASHBOARD_FILES } from './dashboard-assets.js';

/** The page may load its own script and style and call this mock, and nothing else: no remote source at all. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = { 'content-security-policy': CONTENT_SECURITY_POLICY, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };

const FILES: Readonly<Record<string, { type: string; text: string }>> = {
  'dashboard.css': { type: 'text/css; charset=utf-8', text: DASHBOARD_FILES['dashboard.css'] },
  'dashboard.js': { type: 'text/javascript; charset=utf-8', text: DASHBOARD_FILES['dashboard.js'] },
};

const page = () => new ControlContent(DASHBOARD_FILES.html, { ...SECURITY_HEADERS, 'content-type': 'text/html; charset=utf-8' });

/** The dashboard: one page over the control API (every button is a call of it), and its script and style. */
export function dashboardRoutes(): ControlRoute[] {
  return [
    declaredRoute('dashboard', page),
    declaredRoute('dashboardFile', ({ params }) => {
      const file = params['file']!;
      if (file === '') return page();
      const found = Object.hasOwn(FILES, file) ? FILES[file] : undefined;
      if (found === undefined) throw new ApiError(404, `No dashboard file ${file}; the page is at ${CONTROL_ROUTES.dashboard.pattern}`);
      return new ControlContent(found.text, { ...SECURITY_HEADERS, 'content-type': found.type });
    }),
  ];
}
