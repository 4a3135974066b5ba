/** Where the API is, chosen when the page is opened: `?api=http://127.0.0.1:8080`, the mock's default address otherwise. */
export const DEFAULT_API_BASE_URL = 'http://127.0.0.1:8080';

export function apiBaseUrl(search: string): string {
  const given = new URLSearchParams(search).get('api')?.trim();
  return (given === undefined || given === '' ? DEFAULT_API_BASE_URL : given).replace(/\/+$/, '');
}
