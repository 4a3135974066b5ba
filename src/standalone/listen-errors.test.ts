import { describe, expect, it } from 'vitest';
import { hostAndPort, listenError } from './listen-errors.js';

const failure = (code: string) => Object.assign(new Error(`listen ${code}`), { code });

describe('listen errors, the same sentence for every command', () => {
  it('writes an IPv6 address in brackets', () => {
    expect(hostAndPort('::', 8080)).toBe('[::]:8080');
    expect(hostAndPort('::1', 0)).toBe('[::1]:0');
    expect(hostAndPort('127.0.0.1', 8080)).toBe('127.0.0.1:8080');
    expect(hostAndPort('localhost', 8080)).toBe('localhost:8080');
  });

  it('names the address and the remedy, never the system code alone', () => {
    expect(listenError('the proxy', failure('EADDRINUSE'), '::', 8090).message).toBe(
      'cannot start the proxy: [::]:8090 is already in use; choose another --port, or --port 0 for a free one',
    );
    expect(listenError('the proxy', failure('EACCES'), '0.0.0.0', 80).message).toBe(
      'cannot start the proxy: no permission to listen on 0.0.0.0:80; choose a --port above 1023',
    );
    expect(listenError('the proxy', failure('EADDRNOTAVAIL'), '10.9.9.9', 80).message).toBe(
      'cannot start the proxy: 10.9.9.9 is not an address of this machine; check --host',
    );
    expect(listenError('the proxy', failure('EADDRINUSE'), '::', 8090).exitCode).toBe(2);
  });
});
