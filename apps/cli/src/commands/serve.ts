import { openRequestRepositories, type Repositories } from '@antares/db';
import {
  alertSchemaSource,
  APT_INSTALL,
  ChatDispatcher,
  createFilterSandbox,
  GwMatcher,
  InboxWatcher,
  retryDelaySeconds,
  slackSender,
  startAlertConsumer,
  startGwConsumer,
  WatchMatcher,
} from '@antares/pipeline';
import { buildServer, type Config, connectKafkaProducer, KafkaRelay } from '@antares/server';

import { siteUrlOf } from './ingest.ts';
import { budgetOf, openLevel2 } from './level2.ts';

export async function runServe(config: Config, repos: Repositories, close: () => Promise<void>): Promise<void> {
  const checker = createFilterSandbox(repos, config.filterLimits);
  if (checker.missing.length > 0) {
    console.warn(
      `Filter code is stored without a sandbox check and cannot be test-run: missing ${checker.missing.join(', ')} (install: ${APT_INSTALL})`,
    );
  }
  // Revoked token ids are needed only until their tokens expire.
  await repos.revokedTokens.purgeExpired();
  // HTTP requests' statements stop at ANTARES_STATEMENT_TIMEOUT_MS; ingestion's and the jobs' never (ADR 0059).
  const requests = await openRequestRepositories(repos, config.databaseUrl, config.statementTimeoutMs);
  const app = await buildServer({ config, repos: requests.repos, jobRepos: repos, logger: true, filterSandbox: checker.sandbox });
  const inbox = config.inboxDir ? await startInbox(config, repos, config.inboxDir) : undefined;
  const chat = await startChat(config, repos);
  const kafka = config.kafkaBrokers.length > 0 ? await startKafka(config, repos) : undefined;
  const shutdown = async () => {
    await inbox?.stop();
    await chat?.stop();
    await kafka?.stop();
    await app.close();
    await checker.close();
    await requests.close();
    await close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
  await app.listen({ port: config.port, host: config.host });
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const loopbackOnly = ['127.0.0.1', '::1', 'localhost'].includes(config.host);
  console.log(
    `ANTARES is serving at http://${host}:${config.port}${loopbackOnly ? ' (this machine only: ANTARES_HOST=0.0.0.0 serves every interface)' : ''}`,
  );
}

/** The server's drop folder for alert files, with Level 2 (see InboxWatcher). */
async function startInbox(config: Config, repos: Repositories, dir: string): Promise<{ stop(): Promise<void> }> {
  const level2 = await openLevel2(repos, 'keep', config.filterLimits, 0, budgetOf(config));
  const watcher = new InboxWatcher(repos, dir, {
    level2: level2.stage,
    watch: new WatchMatcher(siteUrlOf(config)),
    gw: new GwMatcher(),
    schemas: alertSchemaSource(config.schemaRegistryUrl),
    pollMs: config.inboxPollSeconds * 1000,
  });
  watcher.start();
  console.log(`Alert files dropped into ${dir} are ingested`);
  return {
    async stop() {
      await watcher.stop();
      await level2.close();
    },
  };
}

/** Delivers the chat outbox while the server runs, when a Slack token or webhook is configured. */
async function startChat(config: Config, repos: Repositories): Promise<ChatDispatcher | undefined> {
  const sender = slackSender({ token: config.slackToken, webhookUrl: config.slackWebhookUrl, apiUrl: config.slackApiUrl });
  if (!sender) {
    const pending = await repos.chatOutbox.pendingCount();
    if (pending > 0)
      console.warn(
        `${pending} chat notification(s) wait in the outbox: set ANTARES_SLACK_TOKEN or ANTARES_SLACK_WEBHOOK_URL to deliver them`,
      );
    return undefined;
  }
  const dispatcher = new ChatDispatcher(repos, sender, {
    retryDelaySeconds: (attempts) => retryDelaySeconds(attempts, config.chatRetrySeconds),
  });
  dispatcher.start();
  return dispatcher;
}

/** Publishes the output streams to Kafka (ANTARES_KAFKA_BROKERS), one topic per stream. */
async function startKafka(config: Config, repos: Repositories): Promise<{ stop(): Promise<void> }> {
  const gw = config.gwKafkaTopic ? await startGwConsumer(repos, { brokers: config.kafkaBrokers, topic: config.gwKafkaTopic }) : undefined;
  const alerts = config.alertKafkaTopics.length > 0 ? await startAlertTopics(config, repos) : undefined;
  const producer = await connectKafkaProducer(config.kafkaBrokers);
  const relay = new KafkaRelay(repos, producer, { siteUrl: siteUrlOf(config), topicPrefix: config.kafkaTopicPrefix });
  relay.start();
  console.log(
    `Output streams are published to Kafka at ${config.kafkaBrokers.join(', ')}${gw ? `; GW notices are read from ${config.gwKafkaTopic}` : ''}`,
  );
  return {
    async stop() {
      await alerts?.stop();
      await relay.stop();
      await producer.disconnect();
      await gw?.stop();
    },
  };
}

/** Ingests survey alerts (ZTF, Rubin) from Kafka, with its own Level 2 workers. */
async function startAlertTopics(config: Config, repos: Repositories): Promise<{ stop(): Promise<void> }> {
  const level2 = await openLevel2(repos, 'keep', config.filterLimits, 0, budgetOf(config));
  const consumer = await startAlertConsumer(repos, {
    brokers: config.kafkaBrokers,
    topics: config.alertKafkaTopics,
    schemaRegistryUrl: config.schemaRegistryUrl,
    level2: level2.stage,
    watch: new WatchMatcher(siteUrlOf(config)),
    gw: new GwMatcher(),
  });
  console.log(`Alerts are read from Kafka topics ${config.alertKafkaTopics.join(', ')}`);
  return {
    async stop() {
      await consumer.stop();
      await level2.close();
    },
  };
}
