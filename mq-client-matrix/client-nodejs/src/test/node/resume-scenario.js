'use strict';

// The Node.js client scenario NodeClientTest runs against modmq: send, consume, stop, send while the
// consumer is down, restart it; the restarted consumer must get exactly what was sent while it was down.
// Arguments: <namesrvAddr> <brokerAddr> <topic> <group>. Prints one line per event for the test to read:
//   SENT-FIRST <body>, RECEIVED-FIRST <body>, UNREAD-QUEUES <n>, SENT-DOWN <body>, RECEIVED-AFTER <body>, DONE.
// Bounded: exits 2 after 80 s whatever happens.

const { Producer, Consumer, Message } = require('ali-ons');
const RemotingCommand = require('ali-ons/lib/protocol/command/remoting_command');

const [namesrvAddr, brokerAddr, topic, group] = process.argv.slice(2);
const UPDATE_AND_CREATE_TOPIC = 17;
const FIRST = 1;
const WHILE_DOWN = 8;
const QUEUES = 4;

// ali-ons requires an HTTP client for its name-server lookup; with nameSrv set it is never used.
const noHttp = { request: async () => { throw new Error('no HTTP lookup: nameSrv is set'); } };
const quiet = { info() {}, debug() {}, warn: (...a) => console.error(...a), error: (...a) => console.error(...a) };
const common = {
  httpclient: noHttp,
  nameSrv: namesrvAddr,
  logger: quiet,
  pollNameServerInteval: 1000,
  heartbeatBrokerInterval: 1000,
  persistConsumerOffsetInterval: 1000,
  rebalanceInterval: 1000,
};

setTimeout(() => {
  console.log('TIMEOUT');
  process.exit(2);
}, 80000).unref();

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

async function until(what, condition, ms = 30000) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) {
      throw new Error('timed out waiting for ' + what);
    }
    await sleep(50);
  }
}

async function send(producer, label, body) {
  // The first send may come before the broker's route is at the name server: retry, bounded.
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await producer.send(new Message(topic, 'T', body));
      if (result.sendStatus !== 'SEND_OK') {
        throw new Error('send answered ' + result.sendStatus);
      }
      console.log(label + ' ' + body);
      return;
    } catch (err) {
      if (attempt >= 40) {
        throw err;
      }
      await sleep(500);
    }
  }
}

async function startConsumer(instanceName, label, received) {
  const consumer = new Consumer(Object.assign({}, common, { consumerGroup: group, instanceName }));
  consumer.on('error', err => console.error('consumer error: ' + err.message));
  consumer.subscribe(topic, '*', async msg => {
    const body = msg.body.toString();
    received.push(body);
    console.log(label + ' ' + body);
  });
  await consumer.ready();
  await until('all ' + QUEUES + ' queues assigned', () => consumer.processQueueTable.size === QUEUES);
  return consumer;
}

async function main() {
  const producer = new Producer(Object.assign({}, common, { producerGroup: group + '_producer',
    instanceName: 'producer' }));
  await producer.ready();

  // ali-ons sends only to topics that exist: create it as mqadmin updateTopic does, through the
  // client's own remoting connection.
  const created = await producer._mqClient.invoke(brokerAddr, RemotingCommand.createRequestCommand(
    UPDATE_AND_CREATE_TOPIC, { topic, defaultTopic: 'TBW102', readQueueNums: QUEUES, writeQueueNums: QUEUES,
      perm: 6, topicFilterType: 'SINGLE_TAG', topicSysFlag: 0, order: false }), 5000);
  if (created.code !== 0) {
    throw new Error('UPDATE_AND_CREATE_TOPIC answered ' + created.code + ' ' + created.remark);
  }
  // One message: one queue gets it, three stay empty.
  for (let i = 0; i < FIRST; i++) {
    await send(producer, 'SENT-FIRST', 'first-' + i);
  }
  const first = [];
  const consumer = await startConsumer('consumer-1', 'RECEIVED-FIRST', first);
  await until(FIRST + ' first messages', () => first.length >= FIRST);
  // What close() commits for each queue: a queue never read is committed as -1.
  let unread = 0;
  for (const key of consumer.processQueueTable.keys()) {
    if (!consumer._offsetStore.offsetTable.get(key)) {
      unread++;
    }
  }
  console.log('UNREAD-QUEUES ' + unread);
  await consumer.close();

  for (let i = 0; i < WHILE_DOWN; i++) {
    await send(producer, 'SENT-DOWN', 'down-' + i);
  }
  const after = [];
  const restarted = await startConsumer('consumer-2', 'RECEIVED-AFTER', after);
  await until(WHILE_DOWN + ' messages after the restart', () => after.length >= WHILE_DOWN);
  // Anything sent twice would show up within this pause.
  await sleep(1500);
  await restarted.close();
  await producer.close();
  console.log('DONE');
}

main().then(() => process.exit(0), err => {
  console.log('FAILED ' + (err && err.stack || err));
  process.exit(1);
});
