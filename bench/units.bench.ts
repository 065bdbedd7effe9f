// units: what the parts a delivery is made of cost on this machine, one at a time, with nothing else running: a
// statement's round trip to PostgreSQL, a transaction as TypeORM sends it (BEGIN, the statement, COMMIT: three round
// trips) and the same in one, an article's content parsed as jsonb, a Kafka produce request of one event and of ten
// as the services' producer sends them (idempotent, acks=all), and one event produced and then fetched by a kafkajs
// consumer waiting for it, from a topic of six partitions and of one (what a fetch round adds to the produce). Each is
// timed on both sides, the bench's process (the client: pg, kafkajs) and the server's (the PostgreSQL backend, the
// broker), over rounds of many in a row. With steady's counts per delivery (statements, produce requests, fetches)
// they say what the round trips and requests alone cost a delivery (docs/performance.md, forty-sixth round).
//   npm run bench -- units [ROUNDS]      (real Kafka and PostgreSQL; no services)
import { Client } from 'pg';
import { cpuMs, percentile, pidListeningOn } from './support/measure';
import { conditions, machine, runScenario, writeResult } from './support/output';
import { article } from './support/system';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import { createTestDatabase, createTestTopics, ensureTestInfrastructure } from '@owd/testing';
import { createKafka, EventProducer, TopicNamer, type OutgoingMessage } from '@owd/kafka';
import { TOPICS } from '@owd/events';

const ROUNDS = Number(process.argv[2] ?? 3);

type UnitKey = 'statement' | 'threeTrips' | 'oneTrip' | 'jsonb' | 'produceOne' | 'produceTen' | 'fetched' | 'fetchedOnePartition';
/** Articles parsed as jsonb by one statement. */
const DOCUMENTS = 200;

/** One operation: what it is, how many make a round, and the call that does one. */
interface Unit {
  key: UnitKey;
  name: string;
  per: number;
  run: () => Promise<unknown>;
  /** The server process whose CPU it costs. */
  server: () => number;
}

/** Client and server CPU, µs per operation: the median round's. */
interface UnitCost {
  clientUs: number;
  serverUs: number;
  rounds: { clientUs: number; serverUs: number }[];
}

const median = (values: readonly number[]) => percentile([...values].sort((a, b) => a - b), 50);
const together = (c: UnitCost) => c.clientUs + c.serverUs;

async function measure(unit: Unit): Promise<UnitCost> {
  for (let i = 0; i < unit.per / 10; i++) await unit.run();
  const rounds: UnitCost['rounds'] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const serverAtStart = unit.server();
    const clientAtStart = process.cpuUsage();
    for (let i = 0; i < unit.per; i++) await unit.run();
    const client = process.cpuUsage(clientAtStart);
    rounds.push({
      clientUs: Math.round((client.user + client.system) / unit.per),
      serverUs: Math.round(((unit.server() - serverAtStart) * 1000) / unit.per),
    });
  }
  return { clientUs: median(rounds.map((r) => r.clientUs)), serverUs: median(rounds.map((r) => r.serverUs)), rounds };
}

async function main(): Promise<void> {
  const host = machine();
  Object.assign(process.env, ensureTestInfrastructure());
  const db = await createTestDatabase();
  const { prefix, brokers } = await createTestTopics(6);
  const pg = new Client({ connectionString: db.url });
  await pg.connect();
  const namer = new TopicNamer(prefix);
  const producer = new EventProducer(createKafka({ clientId: 'bench-units', brokers }), namer);
  const consumers: Consumer[] = [];
  try {
    const [{ pid }] = (await pg.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
    const broker = pidListeningOn(Number(brokers[0].split(':').pop()));
    if (!broker) throw new Error(`no broker process listens on ${brokers[0]} on this machine`);
    const backendCpu = () => cpuMs(pid);
    const brokerCpu = () => cpuMs(broker);
    await pg.query('CREATE TABLE units (id bigserial PRIMARY KEY, v text NOT NULL)');
    const insert = { name: 'units-insert', text: 'INSERT INTO units (v) VALUES ($1)', values: ['x'] };
    // An article's content as the API stores it, 200 to a statement, so what is read is the parse and not the round trip.
    const documents = JSON.stringify(Array.from({ length: DOCUMENTS }, (_, i) => article(i)));
    const contentBytes = Buffer.byteLength(JSON.stringify(article(0)));
    await producer.connect();
    // Consumers in groups of their own, waiting in the broker's long poll as a caught-up service's do: one on a topic
    // of the bench's six partitions, one on a topic of one (a fetch asks for every partition the consumer holds).
    const kafka = new Kafka({ brokers, clientId: 'bench-units-consumer', logLevel: logLevel.NOTHING });
    const onePartition = `${prefix}units-one-partition`;
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: onePartition, numPartitions: 1 }], waitForLeaders: true });
    await admin.disconnect();
    let fetched: (() => void) | undefined;
    for (const topic of [namer.name(TOPICS.RESULT_STATUS), onePartition]) {
      const consumer = kafka.consumer({ groupId: `${topic}.units` });
      consumers.push(consumer);
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      await consumer.run({ eachBatch: async () => fetched?.() });
    }
    // An event of the size of a result.revised (the article in an envelope), with the headers the services send.
    let n = 0;
    const event = (topic = namer.name(TOPICS.RESULT_REVISED)): OutgoingMessage => {
      const i = n++;
      return {
        topic, key: `res_${i % 1000}`, value: JSON.stringify({ type: 'result.revised', payload: article(i) }),
        headers: { 'event-type': 'result.revised', 'schema-version': '1', 'event-id': `00000000-0000-7000-8000-${String(i).padStart(12, '0')}` },
      };
    };
    /** Produces one event to `topic` and waits until its consumer has fetched it. */
    const produceAndFetch = async (topic: string) => {
      const arrived = new Promise<void>((resolve) => { fetched = resolve; });
      await producer.sendMessages([event(topic)]);
      await arrived;
    };
    const units: Unit[] = [
      { key: 'statement', name: 'PostgreSQL: a statement alone (one round trip, its own commit)', per: 3000, server: backendCpu, run: () => pg.query(insert) },
      {
        key: 'threeTrips', name: 'PostgreSQL: BEGIN, the statement, COMMIT (three round trips, as TypeORM sends a transaction)', per: 3000, server: backendCpu,
        run: async () => {
          await pg.query('BEGIN');
          await pg.query(insert);
          await pg.query('COMMIT');
        },
      },
      { key: 'oneTrip', name: 'PostgreSQL: the same transaction in one round trip', per: 3000, server: backendCpu, run: () => pg.query("BEGIN; INSERT INTO units (v) VALUES ('x'); COMMIT") },
      {
        key: 'jsonb', name: `PostgreSQL: ${DOCUMENTS} articles' content parsed as jsonb (${contentBytes} bytes each)`, per: 100, server: backendCpu,
        run: () => pg.query({ name: 'units-jsonb', text: 'SELECT count(*) FROM jsonb_array_elements($1::jsonb)', values: [documents] }),
      },
      { key: 'produceOne', name: 'Kafka: a produce request of one event', per: 2000, server: brokerCpu, run: () => producer.sendMessages([event()]) },
      { key: 'produceTen', name: 'Kafka: a produce request of ten events', per: 1000, server: brokerCpu, run: () => producer.sendMessages(Array.from({ length: 10 }, () => event())) },
      {
        key: 'fetched', name: 'Kafka: one event produced and fetched by a consumer waiting for it (6 partitions)', per: 1000, server: brokerCpu,
        run: () => produceAndFetch(namer.name(TOPICS.RESULT_STATUS)),
      },
      { key: 'fetchedOnePartition', name: 'Kafka: the same on a topic of one partition', per: 1000, server: brokerCpu, run: () => produceAndFetch(onePartition) },
    ];
    const costs = {} as Record<UnitKey, UnitCost>;
    for (const unit of units) costs[unit.key] = await measure(unit);

    console.log(`\nunits: each operation ${ROUNDS} rounds in a row, CPU µs per operation (the median round), client = this process, server = the PostgreSQL backend or the broker`);
    console.table(Object.fromEntries(units.map(({ key, name }) => [name, {
      'client µs': costs[key].clientUs, 'server µs': costs[key].serverUs, 'together µs': together(costs[key]),
    }])));
    const perEvent = (together(costs.produceTen) - together(costs.produceOne)) / 9;
    const derived = {
      roundTripUs: Math.round((together(costs.threeTrips) - together(costs.oneTrip)) / 2),
      jsonbParseUsPerArticle: Math.round(costs.jsonb.serverUs / DOCUMENTS),
      produceRequestUs: Math.round(together(costs.produceOne) - perEvent),
      producedEventUs: Math.round(perEvent),
      statementAloneUs: together(costs.statement),
      fetchRoundUs: together(costs.fetched) - together(costs.produceOne),
      fetchRoundOnePartitionUs: together(costs.fetchedOnePartition) - together(costs.produceOne),
    };
    console.log(`derived: a round trip to PostgreSQL ${derived.roundTripUs} µs (client and backend together); an article's content parsed as jsonb `
      + `${derived.jsonbParseUsPerArticle} µs; a produce request ${derived.produceRequestUs} µs whatever it carries, and ${derived.producedEventUs} µs `
      + `more per event in it; a fetch round that brings one event ${derived.fetchRoundUs} µs, ${derived.fetchRoundOnePartitionUs} µs from a topic `
      + 'of one partition (client and broker together)');
    console.log(conditions(host));
    writeResult('units', { scenario: 'units', machine: host, rounds: ROUNDS, contentBytes, costs, derived });
  } finally {
    for (const consumer of consumers) await consumer.disconnect();
    await producer.disconnect();
    await pg.end();
    await db.drop();
  }
}

runScenario(main);
