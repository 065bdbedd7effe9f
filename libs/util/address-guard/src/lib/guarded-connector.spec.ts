import { createServer, type Server } from 'node:http';
import { Socket, type AddressInfo } from 'node:net';
import { Agent, buildConnector, request } from 'undici';
import { fakeDns } from '../testing/fake-dns';
import { checkTarget } from './check-target';
import { AddressRefusedError } from './errors';
import { createGuardedAgent } from './guarded-agent';
import { guardConnector } from './guarded-connector';
import { EMPTY_POLICY } from './policy';

type ConnectResult = { error: Error; socket: null } | { error: null; socket: Socket };

function connectWith(connector: buildConnector.connector, hostname: string, port = 80): Promise<ConnectResult> {
  return new Promise((resolve) =>
    connector({ hostname, protocol: 'http:', port: String(port) }, (error, socket) =>
      resolve(error ? { error, socket: null } : { error: null, socket }),
    ),
  );
}

/** An unconnected socket that reports the given peer, standing in for one the kernel connected. */
function socketFrom(remoteAddress: string): Socket {
  const socket = new Socket();
  Object.defineProperty(socket, 'remoteAddress', { value: remoteAddress });
  return socket;
}

describe('guardConnector', () => {
  it('refuses an IP-literal host before dialling (node skips lookup for literals)', async () => {
    const inner = jest.fn<void, Parameters<buildConnector.connector>>();
    const result = await connectWith(guardConnector(EMPTY_POLICY, inner), '169.254.169.254');
    expect(result.error).toBeInstanceOf(AddressRefusedError);
    expect(result.error).toMatchObject({ rule: 'cloud-metadata', address: '169.254.169.254' });
    expect(inner).not.toHaveBeenCalled();
  });

  it('strips IPv6 brackets before classifying a literal', async () => {
    const inner = jest.fn<void, Parameters<buildConnector.connector>>();
    const result = await connectWith(guardConnector(EMPTY_POLICY, inner), '[::1]');
    expect(result.error).toMatchObject({ rule: 'loopback', address: '::1' });
    expect(inner).not.toHaveBeenCalled();
  });

  it('re-checks the connected peer and destroys a refused socket', async () => {
    const socket = socketFrom('127.0.0.1');
    const destroy = jest.spyOn(socket, 'destroy');
    const inner: buildConnector.connector = (_target, callback) => callback(null, socket);
    const result = await connectWith(guardConnector(EMPTY_POLICY, inner), 'receiver.example');
    expect(result.error).toMatchObject({ rule: 'loopback', address: '127.0.0.1', hostname: 'receiver.example' });
    expect(destroy).toHaveBeenCalled();
  });

  it('reads an IPv4-mapped peer as IPv4, so a public IPv4 peer on a dual-stack socket passes', async () => {
    const socket = socketFrom('::ffff:93.184.216.34');
    const inner: buildConnector.connector = (_target, callback) => callback(null, socket);
    await expect(connectWith(guardConnector(EMPTY_POLICY, inner), 'receiver.example')).resolves.toEqual({
      error: null,
      socket,
    });
    socket.destroy();
  });

  it('refuses an IPv4-mapped loopback peer', async () => {
    const inner: buildConnector.connector = (_target, callback) => callback(null, socketFrom('::ffff:127.0.0.1'));
    const result = await connectWith(guardConnector(EMPTY_POLICY, inner), 'receiver.example');
    expect(result.error).toMatchObject({ rule: 'loopback', address: '127.0.0.1' });
  });

  it('passes connect errors through', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const inner: buildConnector.connector = (_target, callback) => callback(refused, null);
    await expect(connectWith(guardConnector(EMPTY_POLICY, inner), 'receiver.example')).resolves.toEqual({
      error: refused,
      socket: null,
    });
  });
});

describe('createGuardedAgent against a real loopback server', () => {
  let server: Server;
  let port: number;
  let hits: number;
  const agents: Agent[] = [];

  const agent = (...args: Parameters<typeof createGuardedAgent>): Agent => {
    const created = createGuardedAgent(...args);
    agents.push(created);
    return created;
  };

  beforeAll(async () => {
    server = createServer((_req, res) => {
      hits += 1;
      res.end('ok');
    });
    // Loopback only: this test must never open a port on any other interface.
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  beforeEach(() => {
    hits = 0;
  });

  afterEach(async () => {
    await Promise.all(agents.splice(0).map((a) => a.close()));
  });

  afterAll(async () => {
    await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  });

  const dns = () =>
    fakeDns({
      'receiver.test': [['127.0.0.1']],
      'rebind.test': [['93.184.216.34'], ['127.0.0.1']],
    });

  it('refuses http://127.0.0.1:<port>/ with an empty policy', async () => {
    const error: unknown = await request(`http://127.0.0.1:${port}/`, { dispatcher: agent(EMPTY_POLICY) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AddressRefusedError);
    expect(error).toMatchObject({ rule: 'loopback', address: '127.0.0.1' });
    expect(hits).toBe(0);
  });

  it('refuses a hostname that resolves to 127.0.0.1', async () => {
    const dispatcher = agent(EMPTY_POLICY, { connect: { baseLookup: dns().lookup } });
    const error: unknown = await request(`http://receiver.test:${port}/`, { dispatcher }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AddressRefusedError);
    expect(error).toMatchObject({ rule: 'loopback', address: '127.0.0.1', hostname: 'receiver.test' });
    expect(hits).toBe(0);
  });

  it('refuses the IPv4-mapped spelling of loopback even when 127.0.0.0/8 is allowed', async () => {
    const dispatcher = agent({ allowCidrs: ['127.0.0.0/8'] });
    const error: unknown = await request(`http://[::ffff:127.0.0.1]:${port}/`, { dispatcher }).catch((e: unknown) => e);
    expect(error).toMatchObject({ rule: 'ipv4-mapped' });
    expect(hits).toBe(0);
  });

  it('re-checks the peer of a real connection whose lookup was not guarded', async () => {
    const unguarded = buildConnector({ lookup: dns().lookup });
    const result = await connectWith(guardConnector(EMPTY_POLICY, unguarded), 'receiver.test', port);
    expect(result.error).toMatchObject({ rule: 'loopback', address: '127.0.0.1', hostname: 'receiver.test' });
    expect(hits).toBe(0);
  });

  it('delivers when allowCidrs includes 127.0.0.0/8', async () => {
    const dispatcher = agent({ allowCidrs: ['127.0.0.0/8'] }, { connect: { baseLookup: dns().lookup } });
    const byAddress = await request(`http://127.0.0.1:${port}/`, { dispatcher });
    expect(byAddress.statusCode).toBe(200);
    await expect(byAddress.body.text()).resolves.toBe('ok');
    const byName = await request(`http://receiver.test:${port}/`, { dispatcher });
    expect(byName.statusCode).toBe(200);
    await byName.body.dump();
    expect(hits).toBe(2);
  });

  describe('DNS rebinding', () => {
    it('passes checkTarget at save time but is refused at connect time', async () => {
      const rebinding = dns();
      const url = `http://rebind.test:${port}/hook`;

      await expect(checkTarget(url, EMPTY_POLICY, { lookup: rebinding.resolveAll })).resolves.toEqual({
        ok: true,
        url,
        addresses: ['93.184.216.34'],
      });

      const dispatcher = agent(EMPTY_POLICY, { connect: { baseLookup: rebinding.lookup } });
      const error: unknown = await request(url, { dispatcher, method: 'POST', body: '{}' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AddressRefusedError);
      expect(error).toMatchObject({ rule: 'loopback', address: '127.0.0.1', hostname: 'rebind.test' });
      expect(rebinding.queryCount('rebind.test')).toBe(2);
      expect(hits).toBe(0);
    });

    it('would reach the internal server through an unguarded agent (the attack the guard stops)', async () => {
      const rebinding = dns();
      await checkTarget(`http://rebind.test:${port}/`, EMPTY_POLICY, { lookup: rebinding.resolveAll });
      const unguarded = new Agent({ connect: { lookup: rebinding.lookup } });
      agents.push(unguarded);
      const response = await request(`http://rebind.test:${port}/`, { dispatcher: unguarded });
      await response.body.dump();
      expect(hits).toBe(1);
    });
  });
});
