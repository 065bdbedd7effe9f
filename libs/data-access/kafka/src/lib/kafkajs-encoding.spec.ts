import { createHash, randomBytes } from 'node:crypto';

// kafkajs exports no types for its internals. patches/kafkajs+2.2.4.patch changes how its producer encodes a
// request (buffers not zero-filled and sized ahead, headers written in place, a record batch copied into the request
// once, the checksum eight bytes a step) and how its partitioner hashes a key (32-bit arithmetic instead of a Long
// per step); these tests hold the patched encoder to the bytes kafkajs 2.2.4 wrote and the partitioner to the hashes
// it gave. It also makes the admin's
// describeCluster (the Kafka health check of every service) ask for no topic instead of every topic of the cluster.
const produce = require('kafkajs/src/protocol/requests/produce') as {
  protocol(v: { version: number }): (r: Record<string, unknown>) => { request: unknown };
};
const encodeRequest = require('kafkajs/src/protocol/request') as (r: Record<string, unknown>) => Promise<{ buffer: Buffer }>;
const Long = require('kafkajs/src/utils/long') as { fromNumber(n: number): unknown };
const encodeRecord = require('kafkajs/src/protocol/recordBatch/record/v0') as (r: Record<string, unknown>) => { buffer: Buffer };
const { RecordBatch } = require('kafkajs/src/protocol/recordBatch/v0') as { RecordBatch(r: Record<string, unknown>): Promise<{ buffer: Buffer }> };
const decodeRecordBatch = require('kafkajs/src/protocol/recordBatch/v0/decoder') as (d: unknown) => Promise<{ records: DecodedRecord[] }>;
const Decoder = require('kafkajs/src/protocol/decoder') as new (b: Buffer) => unknown;
const crc32C = require('kafkajs/src/protocol/recordBatch/crc32C') as (b: Buffer) => number;
const murmur2 = require('kafkajs/src/producer/partitioners/default/murmur2') as (key: string | Buffer) => number;
const metadata = require('kafkajs/src/protocol/requests/metadata') as {
  protocol(v: { version: number }): (r: { topics: readonly string[]; allowAutoTopicCreation: boolean }) => { request: { encode(): Promise<{ buffer: Buffer }> } };
};
const { EMPTY_NOT_NULL } = require('kafkajs/src/protocol/encoder') as { EMPTY_NOT_NULL: readonly string[] };
const createAdmin = require('kafkajs/src/admin') as (o: { logger: unknown; cluster: unknown }) => { describeCluster(): Promise<unknown> };
const { createLogger, LEVELS } = require('kafkajs/src/loggers') as { createLogger(o: unknown): unknown; LEVELS: { NOTHING: number } };

interface DecodedRecord { key: Buffer | null; value: Buffer | null; headers: Record<string, Buffer | Buffer[]>; offset: string }
interface Message { key: string | null; value: string | Buffer; headers: Record<string, string | Buffer | string[]>; timestamp: number }

const headersOf = (i: number): Message['headers'] => ({
  'event-type': 'payload.built', 'schema-version': '1', 'event-id': `0190a3b4-aaaa-7bbb-8ccc-${String(i).padStart(12, '0')}`,
  ce_source: 'urn:owd:payload-builder', ce_time: '2026-11-25T10:00:00.000Z', 'ce_ü': 'wert ü €',
  traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', binary: Buffer.from([0, 1, 2, 255]), many: ['a', 'bb', 'ccc'],
});

/** Keys absent and present, values as text (with multi-byte characters) and as bytes, 0 B to 9 KiB, timestamps minutes apart. */
const message = (i: number, size: number): Message => ({
  key: i % 3 === 0 ? null : `res_${i}`,
  value: i % 2 === 0 ? JSON.stringify({ i, text: 'é€😀'.repeat(i), body: 'A'.repeat(size) }) : Buffer.alloc(size, i),
  headers: i % 4 === 3 ? {} : headersOf(i),
  timestamp: 1764000000000 + i * 300_001,
});

const requests = [
  {
    name: 'one small record',
    topicData: [{ topic: 't.one', partitions: [{ partition: 0, firstSequence: 0, messages: [message(1, 10)] }] }],
    // SHA-256 of what unpatched kafkajs 2.2.4 wrote for produce v3 and v7.
    sha256: {
      3: '642856251293d78a3666ed50328f873b7787fe315bb6fdb249a0aab62a3dc3ed',
      7: '3abebc3b65f4b3c9edfa1e65a49fa7410f637cc36f45b97c931ce1342084e68d',
    },
    length: 414,
  },
  {
    name: 'two topics, several partitions, records of 0 B to 9 KiB',
    topicData: [
      {
        topic: 'owd.payload.built',
        partitions: [
          { partition: 0, firstSequence: 5, messages: Array.from({ length: 12 }, (_, i) => message(i, i * 800)) },
          { partition: 3, firstSequence: 2_000_000, messages: [message(12, 0), message(13, 5_000)] },
        ],
      },
      { topic: 'owd.result.status-ü', partitions: [{ partition: 1, firstSequence: 7, messages: Array.from({ length: 40 }, (_, i) => message(i + 20, 300)) }] },
    ],
    sha256: {
      3: 'bf356c83ac8f1c170e5104b285557b665f428144668b955f610bf89082ac8153',
      7: '7a503760ac349c066fb77eb6abeeb19c280997f7be2b4ffb20c6ba29cc3919a8',
    },
    length: 90440,
  },
];

async function encodeProduce(version: 3 | 7, topicData: unknown): Promise<Buffer> {
  const { request } = produce.protocol({ version })({
    acks: -1, timeout: 30000, compression: 0, topicData, transactionalId: null, producerId: Long.fromNumber(4242), producerEpoch: 3,
  });
  return (await encodeRequest({ correlationId: 77, clientId: 'owd-test', request })).buffer;
}

/** The checksum one byte at a time from the Castagnoli polynomial, as the standard defines it. */
function crc32CByteAtATime(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

describe('the producer requests kafkajs encodes (patched)', () => {
  it.each(requests)('writes the bytes kafkajs 2.2.4 wrote: $name', async ({ topicData, sha256, length }) => {
    for (const version of [3, 7] as const) {
      const bytes = await encodeProduce(version, topicData);
      expect(bytes.length).toBe(length);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(sha256[version]);
    }
  });

  it('writes records that decode to the keys, values and headers sent', async () => {
    const messages = Array.from({ length: 9 }, (_, i) => message(i, i * 1_000));
    const records = messages.map((m, i) => encodeRecord({ ...m, offsetDelta: i, timestampDelta: m.timestamp - messages[0].timestamp }));
    const batch = await RecordBatch({ records, firstTimestamp: messages[0].timestamp, maxTimestamp: messages[8].timestamp, lastOffsetDelta: 8 });
    const { records: decoded } = await decodeRecordBatch(new Decoder(batch.buffer));
    expect(decoded).toHaveLength(9);
    decoded.forEach((record, i) => {
      const sent = messages[i];
      expect(record.key?.toString() ?? null).toBe(sent.key);
      expect(Buffer.compare(record.value as Buffer, Buffer.from(sent.value))).toBe(0);
      expect(Object.keys(record.headers)).toEqual(Object.keys(sent.headers));
      for (const [key, value] of Object.entries(sent.headers)) {
        const read = record.headers[key];
        expect(Array.isArray(read) ? read.map(String) : Buffer.from(read as Buffer)).toEqual(Array.isArray(value) ? value : Buffer.from(value));
      }
    });
  });

  it.each([
    ['as they are', 0],
    ['compressed with gzip', 1],
  ])('writes a batch of records %s with its length and its checksum over the body, which decodes to what was sent', async (_, compression) => {
    const messages = Array.from({ length: 5 }, (_, i) => message(i, i * 700));
    const records = messages.map((m, i) => encodeRecord({ ...m, offsetDelta: i, timestampDelta: m.timestamp - messages[0].timestamp }));
    const { buffer } = await RecordBatch({ compression, records, firstTimestamp: messages[0].timestamp, maxTimestamp: messages[4].timestamp, lastOffsetDelta: 4 });
    // firstOffset (8 bytes), the length of what follows (4), partitionLeaderEpoch (4), magic (1), then the CRC-32C of the rest.
    expect(buffer.readInt32BE(8)).toBe(buffer.length - 12);
    expect(buffer.readUInt32BE(17)).toBe(crc32CByteAtATime(buffer.subarray(21)));
    const { records: decoded } = await decodeRecordBatch(new Decoder(buffer));
    expect(decoded.map((r) => r.key?.toString() ?? null)).toEqual(messages.map((m) => m.key));
    expect(decoded.map((r) => Buffer.from(r.value as Buffer))).toEqual(messages.map((m) => Buffer.from(m.value)));
  });

  it('checksums as CRC-32C does, at every length around its eight-byte steps', () => {
    expect(crc32C(Buffer.from('123456789'))).toBe(0xe3069283);
    expect(crc32C(Buffer.alloc(0))).toBe(0);
    for (let length = 0; length <= 70; length++) {
      const bytes = randomBytes(length);
      expect(crc32C(bytes)).toBe(crc32CByteAtATime(bytes));
    }
    const large = randomBytes(100_003);
    expect(crc32C(large)).toBe(crc32CByteAtATime(large));
  });

  it('copies a record batch once on its way into the request, and the request once into its frame', async () => {
    // A value is copied into its record, the records into their batch (whose header is then written in front of
    // them, in place), the batch into the produce request and the request into its frame: under four times the
    // request's bytes in all. Unpatched, the records went into the batch's body and the body into the batch, and each
    // batch through its partition's encoder, its topic's and the header's as well (over seven times), each a fresh
    // allocation of the request's size written through.
    const [, large] = requests;
    const copy = jest.spyOn(Buffer.prototype, 'copy');
    try {
      await encodeProduce(3, large.topicData);
      const copied = copy.mock.calls.reduce((sum, [, , sourceStart, sourceEnd], i) => {
        const source = copy.mock.contexts[i] as Buffer;
        return sum + ((sourceEnd as number | undefined) ?? source.length) - ((sourceStart as number | undefined) ?? 0);
      }, 0);
      expect(copied / large.length).toBeGreaterThan(3);
      expect(copied / large.length).toBeLessThan(4);
    } finally {
      copy.mockRestore();
    }
  });

  it('encodes a record without zero-filling buffers it writes over', () => {
    const sent = { ...message(2, 6_000), offsetDelta: 0, timestampDelta: 0 };
    const alloc = jest.spyOn(Buffer, 'alloc');
    try {
      encodeRecord(sent);
      expect(alloc).not.toHaveBeenCalled();
    } finally {
      alloc.mockRestore();
    }
  });
});

/** Keys as the services write them, every length from 0 to 80, multi-byte text and raw bytes. */
function partitionKeys(): (string | Buffer)[] {
  return Array.from({ length: 2000 }, (_, i) => {
    const hex = createHash('sha256').update(`key ${i}`).digest('hex') + createHash('sha256').update(`more ${i}`).digest('hex');
    switch (i % 5) {
      case 0: return `res_${hex.slice(0, 32)}`;
      case 1: return hex.slice(0, i % 81);
      case 2: return `é€😀${hex.slice(0, i % 13)}`;
      case 3: return Buffer.from(hex.slice(0, (i % 40) * 2), 'hex');
      default: return String(i);
    }
  });
}

describe('the partition kafkajs picks for a key (patched: murmur2 in 32-bit arithmetic)', () => {
  // A key must keep its partition across the patch (a rolling upgrade mixes pods with and without it), or the events
  // of one result could be read out of order.
  it("hashes as Java's client does (the vectors of Kafka's own tests)", () => {
    const vectors: [string, number][] = [
      ['21', -973932308], ['foobar', -790332482], ['a-little-bit-long-string', -985981536],
      ['a-little-bit-longer-string', -1486304829], ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971], ['abc', 479470107],
    ];
    for (const [key, hash] of vectors) expect(murmur2(key)).toBe(hash);
  });

  it('gives every key the hash kafkajs 2.2.4 gave it', () => {
    expect(murmur2('res_0190a3b4aaaa7bbb8ccc000000000001')).toBe(-559712830);
    expect(murmur2('')).toBe(275646681);
    expect(murmur2('é€😀')).toBe(-232818566);
    // SHA-256 of the hashes unpatched kafkajs 2.2.4 gave the 2,000 keys, joined by commas.
    const hashes = partitionKeys().map((key) => murmur2(key)).join(',');
    expect(createHash('sha256').update(hashes).digest('hex')).toBe('6b76b93d2eecf2a38bbc18828ac0158fac4e7f0ec62421fc8fa170c71d9408d5');
  });
});

describe('the Metadata requests kafkajs encodes (patched: a request for no topic)', () => {
  /** The topic array's length field, the request body's first four bytes: -1 is null, every topic of the cluster. */
  const topicsAskedFor = async (version: number, topics: readonly string[]) =>
    (await metadata.protocol({ version })({ topics, allowAutoTopicCreation: false }).request.encode()).buffer.readInt32BE(0);

  it("asks for no topic where describeCluster asks (an empty list): the health check's cost does not grow with the cluster", async () => {
    for (const version of [1, 2, 3, 4, 5, 6]) expect(await topicsAskedFor(version, EMPTY_NOT_NULL)).toBe(0);
  });

  it('describeCluster asks the cluster for the metadata of that empty list, and answers brokers, controller and id', async () => {
    const asked: unknown[] = [];
    const cluster = {
      metadata: async ({ topics }: { topics: unknown }) => {
        asked.push(topics);
        return { brokers: [{ nodeId: 1, host: 'kafka-0', port: 9092, rack: null }], clusterId: 'c1', controllerId: 1, topicMetadata: [] };
      },
    };
    const admin = createAdmin({ logger: createLogger({ level: LEVELS.NOTHING, logCreator: () => () => undefined }), cluster });

    await expect(admin.describeCluster()).resolves.toEqual({ brokers: [{ nodeId: 1, host: 'kafka-0', port: 9092 }], controller: 1, clusterId: 'c1' });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toBe(EMPTY_NOT_NULL);
  });

  it('still asks for every topic with any other empty list, and for the named ones otherwise, as kafkajs 2.2.4 did', async () => {
    for (const version of [1, 4, 6]) {
      expect(await topicsAskedFor(version, [])).toBe(-1);
      expect(await topicsAskedFor(version, ['a', 'b'])).toBe(2);
    }
  });

  it('keeps the empty list empty: nothing can be added to it', () => {
    expect(Object.isFrozen(EMPTY_NOT_NULL)).toBe(true);
    expect(EMPTY_NOT_NULL).toHaveLength(0);
  });
});
