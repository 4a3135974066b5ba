import { describe, expect, it } from 'vitest';
import { KeptBody, type Passed } from './forward.js';
import { JudgedTraffic } from './judged-traffic.js';

function passed(text: string): Passed {
  const responseBody = new KeptBody();
  responseBody.add(Buffer.from(text));
  return { status: 200, responseHeaders: { 'content-type': 'application/json' }, requestBody: new KeptBody(), responseBody, streamed: false };
}

describe('the judged traffic', () => {
  it("keeps each exchange's own URL and answer, the first read after thousands of others to other targets", () => {
    const traffic = new JudgedTraffic({ target: new URL('http://target.invalid/base/'), gameOrigins: [], decodedBodyCap: 1024, keepApiExchanges: true });
    // Targets again and again, and more of them than the judge keeps made.
    const urls = Array.from({ length: 3_000 }, (_, index) => (index % 3 === 0 ? `/api/ships/${index % 1_500}` : `/api/ships/${index % 1_500}?page=${index}`));
    urls.forEach((url, index) => {
      const request = { method: 'GET', path: url.split('?')[0]!, headers: {}, clientIp: '198.51.100.7', receivedAt: index };
      traffic.apply({ kind: 'begin', id: index, request });
      traffic.apply({ kind: 'end', id: index, url, passed: passed(`{"index":${index}}`), answeredAt: index });
    });
    const kept = traffic.apiExchanges.toArray();
    expect(kept.map((exchange) => exchange.url)).toEqual(urls.map((url) => `http://target.invalid/base${url}`));
    expect(kept[0]).toMatchObject({ url: 'http://target.invalid/base/api/ships/0', text: '{"index":0}', body: { index: 0 }, sentAt: 0 });
    const [first] = traffic.log.maskedExchanges();
    expect(first?.exchange).toMatchObject({ url: 'http://target.invalid/base/api/ships/0', text: '{"index":0}' });
  });

  it('says of each exchange it keeps whether it was judged: an event stream passes unjudged', () => {
    const traffic = new JudgedTraffic({ target: new URL('http://target.invalid/'), gameOrigins: [], decodedBodyCap: 1024, keepApiExchanges: false });
    const streamed: Passed = { ...passed(''), responseHeaders: { 'content-type': 'text/event-stream' }, streamed: true };
    ['/health', '/__mock/events', '/health'].forEach((url, index) => {
      traffic.apply({ kind: 'begin', id: index, request: { method: 'GET', path: url, headers: {}, clientIp: '198.51.100.7', receivedAt: index } });
      traffic.apply({ kind: 'end', id: index, url, passed: index === 1 ? streamed : passed('{"status":"ok"}'), answeredAt: index });
    });
    expect([...traffic.log.maskedExchanges()].map(({ exchange, judged }) => [exchange.url, judged])).toEqual([
      ['http://target.invalid/health', true],
      ['http://target.invalid/__mock/events', false],
      ['http://target.invalid/health', true],
    ]);
  });
});
