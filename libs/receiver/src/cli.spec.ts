import { main } from './cli';
import { listen } from './lib/listen';

jest.mock('./lib/listen', () => ({ listen: jest.fn(async () => ({ url: 'http://127.0.0.1:4100', close: async () => undefined })) }));

describe('owd-receiver CLI', () => {
  let out: jest.SpyInstance;
  let err: jest.SpyInstance;
  beforeEach(() => {
    jest.mocked(listen).mockClear();
    out = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    err = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('starts listen with the parsed statuses, revision, tolerance and secret, and never prints the secret', async () => {
    const code = await main(['listen', '--secret', 'top-secret', '--port', '4100', '--status', '500,409', '--revision', '5', '--tolerance', '60'], {});
    expect(code).toBe(0);
    expect(listen).toHaveBeenCalledWith(
      expect.objectContaining({ secret: 'top-secret', port: 4100, statuses: [500, 409], revision: 5, toleranceSeconds: 60, host: '127.0.0.1' }),
    );
    expect(out.mock.calls.join('\n')).toContain('Listening on http://127.0.0.1:4100');
    expect(out.mock.calls.join('\n')).not.toContain('top-secret');
  });

  it('takes the secret from WEBHOOK_SECRET when --secret is not given', async () => {
    await main(['listen'], { WEBHOOK_SECRET: 'from-env' });
    expect(listen).toHaveBeenCalledWith(expect.objectContaining({ secret: 'from-env', port: 4000, statuses: [204] }));
  });

  it.each([
    [['listen', '--status', '99'], '--status must be HTTP status codes'],
    [['listen', '--port', 'x'], '--port must be'],
    [['listen', '--revision', '0'], '--revision must be'],
    [['listen', '--secret', ''], '--secret must not be empty'],
    [['serve'], 'unknown command: serve'],
    [['listen', '--nope'], "Unknown option '--nope'"],
  ])('exits 2 with the reason and the usage for %j', async (argv, reason) => {
    expect(await main(argv, {})).toBe(2);
    expect(err.mock.calls.join('\n')).toContain(reason);
    expect(err.mock.calls.join('\n')).toContain('Usage: owd-receiver listen');
    expect(listen).not.toHaveBeenCalled();
  });
});
