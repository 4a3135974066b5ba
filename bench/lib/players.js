/**
 * Creates players through the public API: register, read the code the server delivered, verify.
 * Each player comes from its own X-Forwarded-For address, since the auth bucket allows 5 requests
 * per IP per minute (the mock server trusts the proxy header for exactly this).
 */
export async function createPlayers(server, count, { concurrency = 16, prefix = 'bench' } = {}) {
  const tokens = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      tokens[index] = await createPlayer(server, `${prefix}-${index}@example.com`, forwardedIp(index));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return tokens;
}

async function createPlayer(server, email, ip) {
  await postJson(server.url, '/api/auth/register', { email }, ip);
  const otp = await server.code(email);
  const { authToken } = await postJson(server.url, '/api/auth/verify-email', { email, otp }, ip);
  return authToken;
}

function forwardedIp(index) {
  return `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
}

async function postJson(baseUrl, path, body, ip) {
  const response = await fetch(baseUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (response.status !== 200) throw new Error(`POST ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}
