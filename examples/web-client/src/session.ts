/** The signed-in session kept in the browser, so that a reload goes on where the player was. */
export interface Session {
  email: string;
  token: string;
}

/** One session per API: a page pointed at another mock starts signed out. */
const key = (apiBaseUrl: string) => `star-trader-session ${apiBaseUrl}`;

export function loadSession(apiBaseUrl: string): Session | undefined {
  const text = localStorage.getItem(key(apiBaseUrl));
  return text === null ? undefined : (JSON.parse(text) as Session);
}

export function saveSession(apiBaseUrl: string, session: Session): void {
  localStorage.setItem(key(apiBaseUrl), JSON.stringify(session));
}

export function clearSession(apiBaseUrl: string): void {
  localStorage.removeItem(key(apiBaseUrl));
}
