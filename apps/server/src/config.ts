import { accessSync, constants } from 'node:fs';
import path from 'node:path';

import { DEFAULT_FILTER_BUDGET, type FilterBudgetLimits } from '@antares/contract';
import { DEFAULT_FILTER_PYTHON, DEFAULT_SANDBOX_LIMITS, type SandboxLimits } from '@antares/pipeline';
import { z } from 'zod';

import type { EdgeLimits } from './edge-limits.ts';

/** A duration given in seconds whose default is kept in milliseconds. */
function seconds(defaultMs: number) {
  return z.coerce
    .number()
    .positive()
    .max(86_400)
    .default(defaultMs / 1000);
}
function whole(defaultValue: number, max = Number.MAX_SAFE_INTEGER) {
  return z.coerce.number().int().positive().max(max).default(defaultValue);
}

/** All configuration, from the environment, validated once at start-up. */
const schema = z.object({
  ANTARES_PORT: z.coerce.number().int().min(1).max(65535).default(8080),
  /**
   * The address the server listens on: loopback by default, so a fresh install is reachable only from its own
   * machine; 0.0.0.0 (or ::) serves every interface.
   */
  ANTARES_HOST: z
    .union([z.ipv4(), z.ipv6(), z.hostname()], { error: 'must be an IP address or a host name, e.g. 127.0.0.1 or 0.0.0.0' })
    .default('127.0.0.1'),
  ANTARES_DATA_DIR: z.string().default('./var'),
  DATABASE_URL: z.string().url().optional(),
  /** A PostgreSQL server's statements made for an HTTP request stop after this long (0: never; ADR 0059). */
  ANTARES_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(30000),
  /**
   * Public base URL of the site. Mailed links (password reset) are built from it alone, never from a request's
   * headers; required with ANTARES_SMTP_URL. Links in documents follow each request when it is unset.
   */
  ANTARES_PUBLIC_URL: z.string().url().optional(),
  ANTARES_SUPPORT_EMAIL: z.string().default('antares-support@example.org'),
  ANTARES_ISSUE_TRACKER_URL: z.string().default('https://github.com/antares-broker/antares/issues'),
  ANTARES_CHAT_INVITATION_URL: z.string().default('https://antares-broker.slack.com/'),
  ANTARES_WEB_DIST: z.string().optional(),
  /** JSON file of the Team page's members (name, title, bio, link, email, photo, group); unset: the built-in list. */
  ANTARES_TEAM_FILE: z.string().optional(),
  /** Signs session and reset tokens; generated once and kept in the data folder when unset. */
  ANTARES_JWT_SECRET: z.string().min(32).optional(),
  ANTARES_ACCESS_TOKEN_MINUTES: z.coerce.number().positive().default(15),
  ANTARES_REFRESH_TOKEN_DAYS: z.coerce.number().positive().default(30),
  ANTARES_RESET_TOKEN_MINUTES: z.coerce.number().positive().default(60),
  /** e.g. smtp://user:password@mail.example.org:587; unset: mails go to $ANTARES_DATA_DIR/outbox and the log. */
  ANTARES_SMTP_URL: z.string().url().optional(),
  ANTARES_MAIL_FROM: z.string().default('ANTARES <no-reply@antares.invalid>'),
  /**
   * Failed logins allowed per (username, client address) pair and per client address before each further
   * attempt waits a doubling delay (1 s, 2 s, 4 s, ... up to the cap); see auth/login-limiter.ts.
   */
  /**
   * Reverse proxies whose X-Forwarded-For is believed (comma-separated addresses or CIDR blocks, e.g.
   * 127.0.0.1,10.0.0.0/8); unset: the header is ignored and the client is the connection's address.
   */
  ANTARES_TRUSTED_PROXIES: z
    .string()
    .regex(/^[0-9a-fA-F:.,/ ]+$/, { error: 'must be IP addresses or CIDR blocks separated by commas, e.g. 127.0.0.1,10.0.0.0/8' })
    .optional(),
  ANTARES_LOGIN_LIMIT_PER_PAIR: z.coerce.number().int().positive().max(1000).default(5),
  ANTARES_LOGIN_LIMIT_PER_IP: z.coerce.number().int().positive().max(100_000).default(50),
  ANTARES_LOGIN_MAX_DELAY_S: z.coerce.number().int().positive().max(86_400).default(900),
  /**
   * The HTTP edge (ADR 0060): seconds to receive a request's headers and the whole request, to keep an idle
   * kept-alive connection, and to keep a connection on which no byte moves either way (a client that does
   * not read its answer); requests in flight per connection and per client address; expensive reads (a
   * search, or a page of more than ANTARES_LARGE_PAGE items) per client address, a minute and at once.
   */
  ANTARES_HEADERS_TIMEOUT_S: z.coerce.number().positive().max(3600).default(10),
  ANTARES_REQUEST_TIMEOUT_S: z.coerce.number().positive().max(86_400).default(120),
  ANTARES_KEEP_ALIVE_TIMEOUT_S: z.coerce.number().positive().max(3600).default(72),
  ANTARES_IDLE_TIMEOUT_S: z.coerce.number().positive().max(86_400).default(120),
  ANTARES_IN_FLIGHT_PER_CONNECTION: whole(2, 1000),
  ANTARES_IN_FLIGHT_PER_ADDRESS: whole(32, 100_000),
  ANTARES_EXPENSIVE_READS_PER_MINUTE: whole(120, 1_000_000),
  ANTARES_EXPENSIVE_READ_BURST: whole(60, 1_000_000),
  ANTARES_EXPENSIVE_READ_MAX_WAIT_S: z.coerce.number().min(0).max(600).default(10),
  ANTARES_LARGE_PAGE: whole(100, 1_000_000),
  /**
   * Accounts that may be registered per hour from one client address (an IPv6 /64) and from everyone
   * together: each a bucket that refills evenly over the hour (auth/registration-limiter.ts).
   */
  ANTARES_REGISTRATIONS_PER_IP_PER_HOUR: z.coerce.number().int().positive().max(100_000).default(10),
  ANTARES_REGISTRATIONS_PER_HOUR: z.coerce.number().int().positive().max(1_000_000).default(200),
  /** With ANTARES_SMTP_URL: a new account must confirm its e-mail address before dry runs and backtests. */
  ANTARES_REQUIRE_EMAIL_VERIFICATION: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((v) => v === 'true' || v === '1'),
  /** Password-reset mails one account may be sent per hour. */
  ANTARES_RESET_MAILS_PER_HOUR: z.coerce.number().int().positive().max(100).default(3),
  /** Drop folder of the running server for alert files (default $ANTARES_DATA_DIR/inbox; `off` turns it off). */
  ANTARES_INBOX_DIR: z.string().optional(),
  ANTARES_INBOX_POLL_SECONDS: z.coerce.number().positive().default(2),
  /** A folder for new cutouts, in pack files outside the database (ADR 0051); unset: in the database. */
  ANTARES_CUTOUT_DIR: z.string().min(1).optional(),
  /** Filter data files (REQUIRES_FILES), content-addressed (ADR 0053); default $ANTARES_DATA_DIR/filter-files. */
  ANTARES_FILTER_FILES_DIR: z.string().min(1).optional(),
  /** The largest filter data file, and the most all of one user's filters' files may hold (past either: 413). */
  ANTARES_FILTER_FILE_MAX_MB: z.coerce.number().positive().max(1024).default(16),
  ANTARES_FILTER_FILES_USER_MAX_MB: z.coerce.number().positive().max(1_048_576).default(256),
  /**
   * Chat notifications (watch lists, failing filters): a Slack bot token (chat.postMessage) or an
   * incoming-webhook URL. Unset: they wait in the database's chat outbox until one is set.
   */
  ANTARES_SLACK_TOKEN: z.string().optional(),
  ANTARES_SLACK_WEBHOOK_URL: z.string().url().optional(),
  ANTARES_SLACK_API_URL: z.string().url().default('https://slack.com/api'),
  /** The first retry of an undelivered chat message waits this long; each further one twice as long. */
  ANTARES_CHAT_RETRY_SECONDS: z.coerce.number().positive().default(5),
  /** Kafka brokers (host:port, comma-separated): the output streams are published there too, one topic per stream. */
  ANTARES_KAFKA_BROKERS: z.string().optional(),
  ANTARES_KAFKA_TOPIC_PREFIX: z.string().default(''),
  /** Gravitational-wave notices are consumed from this topic when ANTARES_KAFKA_BROKERS is set (`off`: not). */
  ANTARES_GW_KAFKA_TOPIC: z.string().default('igwn.gwalert'),
  /** Survey alert topics (comma-separated) ingested when ANTARES_KAFKA_BROKERS is set: ZTF or Rubin. */
  ANTARES_ALERT_KAFKA_TOPICS: z.string().default(''),
  /** Schema registry for Confluent-framed alerts (Rubin's), e.g. https://<host>/schema-registry. */
  ANTARES_SCHEMA_REGISTRY_URL: z.string().url().optional(),
  /**
   * The interpreter every filter sandbox runs (Level 2, dry runs, backtests, the environment probe): Debian's
   * by default, or e.g. a virtual environment made with `python3 -m venv --system-site-packages DIR` (DIR/bin/python)
   * into which the operator pip-installs what authors ask for. An absolute path to an executable file.
   */
  ANTARES_FILTER_PYTHON: z
    .string()
    .refine((p) => path.isAbsolute(p), { error: 'must be an absolute path, e.g. /opt/antares-filters/bin/python' })
    .refine(isExecutable, { error: 'must name an executable interpreter (not found or not executable)' })
    .default(DEFAULT_FILTER_PYTHON),
  /** The filter sandbox's limits (sandbox-limits.ts in apps/pipeline says what each bounds; the defaults are there). */
  ANTARES_FILTER_LOCUS_TIMEOUT_S: seconds(DEFAULT_SANDBOX_LIMITS.locusTimeoutMs),
  ANTARES_FILTER_LOAD_TIMEOUT_S: seconds(DEFAULT_SANDBOX_LIMITS.loadTimeoutMs),
  ANTARES_FILTER_TEST_BUDGET_S: seconds(DEFAULT_SANDBOX_LIMITS.dryRunBudgetMs),
  ANTARES_FILTER_TEST_WORKERS: whole(DEFAULT_SANDBOX_LIMITS.dryRunWorkers, 30),
  ANTARES_LEVEL2_WORKERS: whole(DEFAULT_SANDBOX_LIMITS.level2Workers, 30),
  ANTARES_LEVEL2_ALERT_CACHE: whole(DEFAULT_SANDBOX_LIMITS.level2AlertCache),
  ANTARES_FILTER_MEMORY_MB: whole(DEFAULT_SANDBOX_LIMITS.memoryMb),
  ANTARES_FILTER_CPU_S: whole(DEFAULT_SANDBOX_LIMITS.cpuSeconds),
  ANTARES_FILTER_NPROC: whole(DEFAULT_SANDBOX_LIMITS.nproc),
  ANTARES_FILTER_FSIZE_MB: whole(DEFAULT_SANDBOX_LIMITS.fsizeMb),
  ANTARES_FILTER_TMP_MB: whole(DEFAULT_SANDBOX_LIMITS.tmpMb),
  ANTARES_FILTER_OUTPUT_LIMIT: whole(DEFAULT_SANDBOX_LIMITS.outputLimit),
  /** The longest protocol line a filter worker may write, refused before it is parsed (ADR 0062). */
  ANTARES_FILTER_MAX_LINE_MB: z.coerce
    .number()
    .positive()
    .max(1024)
    .default(DEFAULT_SANDBOX_LIMITS.maxLineBytes / (1 << 20)),
  /** Host uids for the sandbox workers, FIRST-LAST; each worker on the machine holds one of its own (ADR 0058). */
  ANTARES_SANDBOX_UID_RANGE: z
    .string()
    .regex(/^\d+-\d+$/, { error: 'must be FIRST-LAST, e.g. 200000-265535' })
    .refine(
      (r) => {
        const [first, last] = r.split('-').map(Number);
        return first >= 1000 && first <= last && last < 2 ** 32 - 1;
      },
      { error: 'must lie within 1000-4294967294, first <= last' },
    )
    .default(DEFAULT_SANDBOX_LIMITS.uidRange),
  /** Each worker's cgroup v2 memory.max (memory + tmp MB): auto (where the host offers it), off, or a delegated folder. */
  ANTARES_FILTER_CGROUP: z
    .string()
    .refine((c) => c === 'auto' || c === 'off' || path.isAbsolute(c), {
      error: 'must be auto, off or an absolute cgroup v2 folder, e.g. /sys/fs/cgroup/antares',
    })
    .default(DEFAULT_SANDBOX_LIMITS.memoryCgroup),
  /** Filter backtests (issue #19): jobs run at once (one low-priority sandbox worker each), days results are kept, loci per job. */
  ANTARES_BACKTEST_WORKERS: whole(1, 8),
  ANTARES_BACKTEST_RETENTION_DAYS: whole(7, 3650),
  ANTARES_BACKTEST_MAX_LOCI: whole(10_000, 1_000_000),
  /** A backtest's total running time (each time it is taken up), besides the per-locus timeout (ADR 0062). */
  ANTARES_BACKTEST_BUDGET_S: seconds(3_600_000),
  /** POST /v1/alert_uploads: the request body, and each file once decompressed (past either: 413). */
  ANTARES_UPLOAD_MAX_BODY_MB: z.coerce.number().positive().default(64),
  ANTARES_UPLOAD_MAX_UNCOMPRESSED_MB: z.coerce.number().positive().default(64),
  /**
   * Level 2's budget and yields (ADR 0056): seconds all enabled filters may take per 10,000 alerts (RTN-090:
   * 30 s per visit of ~10,000), the passing alerts per 10,000 a filter should keep to on average (a night)
   * and at most (a window), the window's length, the consecutive windows over its share that pause a
   * filter, its share by name (JSON, e.g. {"My filter": 0.2}; others: 1 / the enabled filters), and the
   * admins' chat channel, told of every pause.
   */
  ANTARES_FILTER_BUDGET_S_PER_10K: z.coerce.number().positive().default(DEFAULT_FILTER_BUDGET.secondsPer10k),
  ANTARES_FILTER_YIELD_AVERAGE_PER_10K: z.coerce.number().positive().default(DEFAULT_FILTER_BUDGET.yieldAveragePer10k),
  ANTARES_FILTER_YIELD_MAX_PER_10K: z.coerce.number().positive().default(DEFAULT_FILTER_BUDGET.yieldMaxPer10k),
  ANTARES_FILTER_BUDGET_WINDOW_S: whole(DEFAULT_FILTER_BUDGET.windowSeconds, 86_400),
  ANTARES_FILTER_BUDGET_PAUSE_WINDOWS: whole(DEFAULT_FILTER_BUDGET.pauseAfterWindows, 1000),
  ANTARES_FILTER_BUDGET_SHARES: z
    .string()
    .default('{}')
    .transform((text, ctx) => {
      try {
        const shares = z.record(z.string(), z.number().positive().max(1)).parse(JSON.parse(text));
        return shares;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'a JSON object of filter names and shares between 0 and 1' });
        return z.NEVER;
      }
    }),
  ANTARES_ADMIN_CHAT_CHANNEL: z.string().default(''),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** ANTARES_STATEMENT_TIMEOUT_MS: the request pool's statement_timeout (0: none); ingestion has none. */
  statementTimeoutMs: number;
  /** ANTARES_CUTOUT_DIR, resolved: new cutouts go to pack files there (ADR 0051); undefined: into the database. */
  cutoutDir?: string;
  /** ANTARES_FILTER_FILES_DIR, resolved: filter data files by sha256 (ADR 0053). */
  filterFilesDir: string;
  /** Filter data files: the largest one, and the most one user's filters may hold together, in bytes. */
  filterFileMaxBytes: number;
  filterFilesUserMaxBytes: number;
  /** ANTARES_PUBLIC_URL, without a trailing slash. */
  publicUrl?: string;
  /**
   * The server's own URL from its host and port, set by `npm start` (loadConfig's `ownUrl` option): stands in
   * for ANTARES_PUBLIC_URL in mailed links when that is unset. Document links do not use it.
   */
  ownUrl?: string;
  supportEmail: string;
  issueTrackerUrl: string;
  chatInvitationUrl: string;
  webDist?: string;
  /** undefined: the built-in team. */
  teamFile?: string;
  jwtSecret?: string;
  accessTokenMinutes: number;
  refreshTokenDays: number;
  resetTokenMinutes: number;
  smtpUrl?: string;
  mailFrom: string;
  /** ANTARES_TRUSTED_PROXIES: the proxies whose X-Forwarded-For gives the client's address (login limits). */
  trustedProxies: string[];
  loginLimitPerPair: number;
  loginLimitPerIp: number;
  loginMaxDelaySeconds: number;
  resetMailsPerHour: number;
  /** The HTTP edge's timeouts (ms) and limits (ADR 0060; edge-limits.ts). */
  httpTimeouts: { headersMs: number; requestMs: number; keepAliveMs: number; idleMs: number };
  edgeLimits: EdgeLimits;
  registrationsPerAddressPerHour: number;
  registrationsPerHour: number;
  /** Sandbox work waits for a verified e-mail address: ANTARES_REQUIRE_EMAIL_VERIFICATION and SMTP configured. */
  requireEmailVerification: boolean;
  /** undefined: no inbox. */
  inboxDir?: string;
  inboxPollSeconds: number;
  slackToken?: string;
  slackWebhookUrl?: string;
  slackApiUrl: string;
  chatRetrySeconds: number;
  kafkaBrokers: string[];
  kafkaTopicPrefix: string;
  /** undefined: no consumer. */
  gwKafkaTopic?: string;
  alertKafkaTopics: string[];
  schemaRegistryUrl?: string;
  /** The filter sandbox's limits: passed to every pool, and from there to the Python launcher. */
  filterLimits: SandboxLimits;
  uploadMaxBodyBytes: number;
  uploadMaxUncompressedBytes: number;
  /** Filter backtests: jobs at once, days finished jobs are kept, the most loci one job may replay. */
  backtestWorkers: number;
  backtestRetentionDays: number;
  backtestMaxLoci: number;
  /** A backtest's total running time each time it is taken up (ANTARES_BACKTEST_BUDGET_S). */
  backtestBudgetMs: number;
  /** Level 2's budget and yields (ADR 0056), also the limits backtests project against. */
  filterBudget: FilterBudgetLimits;
  /** The admins' chat channel ('' for none): told when a filter is paused for its budget. */
  adminChatChannel: string;
};

const MB = 1 << 20;

/**
 * The configuration from `env` (validated), with `overrides` applied. `ownUrl: true` (npm start): when
 * ANTARES_PUBLIC_URL is unset, the server's own URL stands in for it in mailed links.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<Config> = {},
  options: { ownUrl?: boolean } = {},
): Config {
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const config: Config = {
    port: e.ANTARES_PORT,
    host: e.ANTARES_HOST,
    dataDir: path.resolve(e.ANTARES_DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    statementTimeoutMs: e.ANTARES_STATEMENT_TIMEOUT_MS,
    cutoutDir: e.ANTARES_CUTOUT_DIR ? path.resolve(e.ANTARES_CUTOUT_DIR) : undefined,
    filterFilesDir: path.resolve(e.ANTARES_FILTER_FILES_DIR ?? path.join(e.ANTARES_DATA_DIR, 'filter-files')),
    filterFileMaxBytes: Math.round(e.ANTARES_FILTER_FILE_MAX_MB * MB),
    filterFilesUserMaxBytes: Math.round(e.ANTARES_FILTER_FILES_USER_MAX_MB * MB),
    publicUrl: e.ANTARES_PUBLIC_URL?.replace(/\/$/, ''),
    supportEmail: e.ANTARES_SUPPORT_EMAIL,
    issueTrackerUrl: e.ANTARES_ISSUE_TRACKER_URL,
    chatInvitationUrl: e.ANTARES_CHAT_INVITATION_URL,
    webDist: e.ANTARES_WEB_DIST,
    teamFile: e.ANTARES_TEAM_FILE ? path.resolve(e.ANTARES_TEAM_FILE) : undefined,
    jwtSecret: e.ANTARES_JWT_SECRET,
    accessTokenMinutes: e.ANTARES_ACCESS_TOKEN_MINUTES,
    refreshTokenDays: e.ANTARES_REFRESH_TOKEN_DAYS,
    resetTokenMinutes: e.ANTARES_RESET_TOKEN_MINUTES,
    smtpUrl: e.ANTARES_SMTP_URL,
    mailFrom: e.ANTARES_MAIL_FROM,
    trustedProxies: (e.ANTARES_TRUSTED_PROXIES ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean),
    loginLimitPerPair: e.ANTARES_LOGIN_LIMIT_PER_PAIR,
    loginLimitPerIp: e.ANTARES_LOGIN_LIMIT_PER_IP,
    loginMaxDelaySeconds: e.ANTARES_LOGIN_MAX_DELAY_S,
    resetMailsPerHour: e.ANTARES_RESET_MAILS_PER_HOUR,
    httpTimeouts: {
      headersMs: e.ANTARES_HEADERS_TIMEOUT_S * 1000,
      requestMs: e.ANTARES_REQUEST_TIMEOUT_S * 1000,
      keepAliveMs: e.ANTARES_KEEP_ALIVE_TIMEOUT_S * 1000,
      idleMs: e.ANTARES_IDLE_TIMEOUT_S * 1000,
    },
    edgeLimits: {
      perConnection: e.ANTARES_IN_FLIGHT_PER_CONNECTION,
      perAddress: e.ANTARES_IN_FLIGHT_PER_ADDRESS,
      expensiveReadsPerMinute: e.ANTARES_EXPENSIVE_READS_PER_MINUTE,
      expensiveReadBurst: e.ANTARES_EXPENSIVE_READ_BURST,
      expensiveReadMaxWaitS: e.ANTARES_EXPENSIVE_READ_MAX_WAIT_S,
      largePage: e.ANTARES_LARGE_PAGE,
    },
    registrationsPerAddressPerHour: e.ANTARES_REGISTRATIONS_PER_IP_PER_HOUR,
    registrationsPerHour: e.ANTARES_REGISTRATIONS_PER_HOUR,
    // Without SMTP the mail only reaches the outbox folder: nobody could confirm, so nothing waits for it.
    requireEmailVerification: e.ANTARES_REQUIRE_EMAIL_VERIFICATION && e.ANTARES_SMTP_URL !== undefined,
    inboxDir: e.ANTARES_INBOX_DIR === 'off' ? undefined : path.resolve(e.ANTARES_INBOX_DIR ?? path.join(e.ANTARES_DATA_DIR, 'inbox')),
    inboxPollSeconds: e.ANTARES_INBOX_POLL_SECONDS,
    slackToken: e.ANTARES_SLACK_TOKEN,
    slackWebhookUrl: e.ANTARES_SLACK_WEBHOOK_URL,
    slackApiUrl: e.ANTARES_SLACK_API_URL,
    chatRetrySeconds: e.ANTARES_CHAT_RETRY_SECONDS,
    kafkaBrokers: (e.ANTARES_KAFKA_BROKERS ?? '')
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean),
    kafkaTopicPrefix: e.ANTARES_KAFKA_TOPIC_PREFIX,
    gwKafkaTopic: e.ANTARES_GW_KAFKA_TOPIC === 'off' ? undefined : e.ANTARES_GW_KAFKA_TOPIC,
    alertKafkaTopics: e.ANTARES_ALERT_KAFKA_TOPICS.split(',')
      .map((t) => t.trim())
      .filter(Boolean),
    schemaRegistryUrl: e.ANTARES_SCHEMA_REGISTRY_URL,
    filterLimits: {
      python: e.ANTARES_FILTER_PYTHON,
      locusTimeoutMs: e.ANTARES_FILTER_LOCUS_TIMEOUT_S * 1000,
      loadTimeoutMs: e.ANTARES_FILTER_LOAD_TIMEOUT_S * 1000,
      dryRunBudgetMs: e.ANTARES_FILTER_TEST_BUDGET_S * 1000,
      dryRunWorkers: e.ANTARES_FILTER_TEST_WORKERS,
      level2Workers: e.ANTARES_LEVEL2_WORKERS,
      level2AlertCache: e.ANTARES_LEVEL2_ALERT_CACHE,
      memoryMb: e.ANTARES_FILTER_MEMORY_MB,
      cpuSeconds: e.ANTARES_FILTER_CPU_S,
      nproc: e.ANTARES_FILTER_NPROC,
      fsizeMb: e.ANTARES_FILTER_FSIZE_MB,
      tmpMb: e.ANTARES_FILTER_TMP_MB,
      outputLimit: e.ANTARES_FILTER_OUTPUT_LIMIT,
      maxLineBytes: Math.round(e.ANTARES_FILTER_MAX_LINE_MB * MB),
      uidRange: e.ANTARES_SANDBOX_UID_RANGE,
      memoryCgroup: e.ANTARES_FILTER_CGROUP,
    },
    uploadMaxBodyBytes: Math.round(e.ANTARES_UPLOAD_MAX_BODY_MB * MB),
    uploadMaxUncompressedBytes: Math.round(e.ANTARES_UPLOAD_MAX_UNCOMPRESSED_MB * MB),
    backtestWorkers: e.ANTARES_BACKTEST_WORKERS,
    backtestRetentionDays: e.ANTARES_BACKTEST_RETENTION_DAYS,
    backtestMaxLoci: e.ANTARES_BACKTEST_MAX_LOCI,
    backtestBudgetMs: e.ANTARES_BACKTEST_BUDGET_S * 1000,
    filterBudget: {
      secondsPer10k: e.ANTARES_FILTER_BUDGET_S_PER_10K,
      yieldAveragePer10k: e.ANTARES_FILTER_YIELD_AVERAGE_PER_10K,
      yieldMaxPer10k: e.ANTARES_FILTER_YIELD_MAX_PER_10K,
      windowSeconds: e.ANTARES_FILTER_BUDGET_WINDOW_S,
      pauseAfterWindows: e.ANTARES_FILTER_BUDGET_PAUSE_WINDOWS,
      shares: e.ANTARES_FILTER_BUDGET_SHARES,
    },
    adminChatChannel: e.ANTARES_ADMIN_CHAT_CHANNEL,
    ...overrides,
  };
  if (options.ownUrl && !config.publicUrl) config.ownUrl ??= ownUrlOf(config.host, config.port);
  // A mailed link must not come from a request's Host header (anyone can send one): with real mail going
  // out, the site's address has to be configured.
  if (config.smtpUrl && !config.publicUrl && !config.ownUrl) {
    throw new Error(
      'Invalid configuration: ANTARES_PUBLIC_URL: required when ANTARES_SMTP_URL is set (password-reset links are built from it, ' +
        'never from request headers), e.g. ANTARES_PUBLIC_URL=https://antares.example.org',
    );
  }
  return config;
}

/** Whether `file` can be run; the default interpreter may be absent (the sandbox then reports what is missing). */
function isExecutable(file: string): boolean {
  if (file === DEFAULT_FILTER_PYTHON) return true;
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The URL a server listening on `host`:`port` calls itself: localhost for loopback and every-interface addresses. */
export function ownUrlOf(host: string, port: number): string {
  const local = ['127.0.0.1', '::1', 'localhost', '0.0.0.0', '::', ''].includes(host);
  const name = local ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}
