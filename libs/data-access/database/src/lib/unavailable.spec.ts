import { isDatabaseUnavailable } from './unavailable';

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a server shutting down (57P01)', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['a server starting up (57P03)', Object.assign(new Error('the database system is starting up'), { code: '57P03' })],
    ['a connection exception class 08', Object.assign(new Error('connection failure'), { code: '08006' })],
    ['a connection lost without a code', new Error('Connection terminated unexpectedly')],
    ['typeorm wrapping pg (driverError)', Object.assign(new Error('query failed'), { driverError: Object.assign(new Error('x'), { code: '57P01' }) })],
  ])('says yes for %s', (_name, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it.each([
    ['a unique violation', Object.assign(new Error('duplicate key'), { code: '23505' })],
    ['a syntax error', Object.assign(new Error('syntax error'), { code: '42601' })],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['not an error', 'boom'],
    ['nothing', undefined],
  ])('says no for %s', (_name, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });
});
