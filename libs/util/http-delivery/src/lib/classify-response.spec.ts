import { classifyResponse, parseConflictRevision } from './classify-response';

describe('classifyResponse', () => {
  it.each([200, 201, 202, 204, 299])('treats %i as delivered', (status) => {
    expect(classifyResponse({ status })).toEqual({ outcome: 'delivered', errorClass: null, errorMessage: null, conflictRevision: null });
  });

  it.each([
    [429, 'rate_limited'],
    [500, 'server_error'],
    [502, 'server_error'],
    [503, 'server_error'],
    [599, 'server_error'],
  ])('retries %i (%s)', (status, errorClass) => {
    expect(classifyResponse({ status })).toMatchObject({ outcome: 'retriable', errorClass });
  });

  it.each([400, 401, 403, 404, 410, 413, 422])('fails %i permanently', (status) => {
    expect(classifyResponse({ status })).toMatchObject({ outcome: 'permanent', errorClass: 'client_error', conflictRevision: null });
  });

  it('names the status in the message', () => {
    expect(classifyResponse({ status: 404 }).errorMessage).toBe('receiver answered 404 Not Found');
  });

  it('reports a 409 with an integer revision as a conflict carrying that revision', () => {
    expect(classifyResponse({ status: 409, body: '{"revision":7,"id":"post-1"}' })).toEqual({
      outcome: 'conflict', errorClass: 'conflict', errorMessage: 'receiver already has revision 7', conflictRevision: 7,
    });
  });

  it.each([
    ['no body', undefined],
    ['a body that is not JSON', 'conflict!'],
    ['a string revision', '{"revision":"7"}'],
    ['a fractional revision', '{"revision":7.5}'],
    ['no revision key', '{"rev":7}'],
    ['a JSON array', '[7]'],
  ])('fails a 409 with %s permanently', (_name, body) => {
    expect(classifyResponse({ status: 409, body })).toMatchObject({ outcome: 'permanent', errorClass: 'client_error', conflictRevision: null });
  });

  it('never follows a 3xx and names where it pointed', () => {
    expect(classifyResponse({ status: 302, location: 'http://169.254.169.254/latest/meta-data/', requestUrl: 'https://hooks.example/in' })).toEqual({
      outcome: 'permanent', errorClass: 'redirect', errorMessage: 'redirects are not followed (302 to 169.254.169.254)', conflictRevision: null,
    });
  });

  it('resolves a relative Location against the request URL, and copes with none', () => {
    expect(classifyResponse({ status: 307, location: '/other', requestUrl: 'https://hooks.example:8443/in' }).errorMessage)
      .toBe('redirects are not followed (307 to hooks.example:8443)');
    expect(classifyResponse({ status: 301 }).errorMessage).toBe('redirects are not followed (301 to no location)');
  });

  it('fails statuses outside the known classes permanently', () => {
    expect(classifyResponse({ status: 600 })).toMatchObject({ outcome: 'permanent', errorClass: 'unexpected_status' });
  });
});

describe('parseConflictRevision', () => {
  it('accepts negative and zero integers as integers (the receiver owns the number)', () => {
    expect(parseConflictRevision('{"revision":0}')).toBe(0);
  });

  it('refuses integers beyond the safe range', () => {
    expect(parseConflictRevision('{"revision":1e300}')).toBeNull();
  });
});
