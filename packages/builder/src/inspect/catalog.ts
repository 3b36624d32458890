/**
 * Which dependency names reveal which technology, per ecosystem. Kept as data so that adding a
 * driver or SDK is one line, and so the manifest readers stay free of technology knowledge.
 */
import type { Broker, Database, Framework, Provider } from './types.js';

export type Ecosystem = 'npm' | 'python' | 'go' | 'maven' | 'nuget' | 'ruby' | 'php';

export type CatalogEntry =
  | { readonly kind: 'framework'; readonly value: Framework }
  | { readonly kind: 'database'; readonly value: Database }
  | { readonly kind: 'broker'; readonly value: Broker }
  | { readonly kind: 'provider'; readonly value: Provider }
  | { readonly kind: 'test'; readonly value: string };

const fw = (value: Framework): CatalogEntry => ({ kind: 'framework', value });
const db = (value: Database): CatalogEntry => ({ kind: 'database', value });
const mq = (value: Broker): CatalogEntry => ({ kind: 'broker', value });
const pay = (value: Provider): CatalogEntry => ({ kind: 'provider', value });
const test = (value: string): CatalogEntry => ({ kind: 'test', value });

/** Exact dependency names (lower-cased) per ecosystem. */
const EXACT: Record<Ecosystem, Record<string, CatalogEntry>> = {
  npm: {
    express: fw('express'), fastify: fw('fastify'), '@nestjs/core': fw('nestjs'), hono: fw('hono'), next: fw('nextjs'),
    koa: fw('koa'), '@koa/router': fw('koa'), 'koa-router': fw('koa'),
    pg: db('postgresql'), postgres: db('postgresql'), 'pg-promise': db('postgresql'), '@neondatabase/serverless': db('postgresql'),
    mysql: db('mysql'), mysql2: db('mysql'), mariadb: db('mariadb'),
    'better-sqlite3': db('sqlite'), sqlite3: db('sqlite'), '@libsql/client': db('sqlite'),
    ioredis: db('redis'), redis: db('redis'), '@upstash/redis': db('redis'),
    '@aws-sdk/client-dynamodb': db('dynamodb'), '@aws-sdk/lib-dynamodb': db('dynamodb'), dynamoose: db('dynamodb'),
    mongodb: db('mongodb'), mongoose: db('mongodb'),
    amqplib: mq('rabbitmq'), 'amqp-connection-manager': mq('rabbitmq'), '@golevelup/nestjs-rabbitmq': mq('rabbitmq'),
    kafkajs: mq('kafka'), 'node-rdkafka': mq('kafka'), '@confluentinc/kafka-javascript': mq('kafka'),
    nats: mq('nats'), '@nats-io/transport-node': mq('nats'), '@nats-io/jetstream': mq('nats'),
    '@aws-sdk/client-sqs': mq('sqs'), 'sqs-consumer': mq('sqs'),
    bullmq: mq('bullmq'), bull: mq('bullmq'), '@nestjs/bullmq': mq('bullmq'),
    stripe: pay('stripe'), '@adyen/api-library': pay('adyen'),
    '@paypal/paypal-server-sdk': pay('paypal'), '@paypal/checkout-server-sdk': pay('paypal'), 'paypal-rest-sdk': pay('paypal'),
    braintree: pay('braintree'),
    vitest: test('vitest'), jest: test('jest'), mocha: test('mocha'), ava: test('ava'),
  },
  python: {
    fastapi: fw('fastapi'), flask: fw('flask'), django: fw('django'), djangorestframework: fw('django'),
    // Django Ninja runs inside Django (its generated code is Django's); Litestar is no generator target.
    'django-ninja': fw('django'), litestar: fw('other'),
    psycopg: db('postgresql'), psycopg2: db('postgresql'), 'psycopg2-binary': db('postgresql'), asyncpg: db('postgresql'),
    pymysql: db('mysql'), mysqlclient: db('mysql'), aiomysql: db('mysql'), mariadb: db('mariadb'),
    aiosqlite: db('sqlite'), redis: db('redis'), pymongo: db('mongodb'), motor: db('mongodb'),
    pika: mq('rabbitmq'), 'aio-pika': mq('rabbitmq'), 'kafka-python': mq('kafka'), 'confluent-kafka': mq('kafka'),
    aiokafka: mq('kafka'), 'nats-py': mq('nats'),
    stripe: pay('stripe'), adyen: pay('adyen'), 'paypal-server-sdk': pay('paypal'), paypalrestsdk: pay('paypal'),
    'paypal-checkout-serversdk': pay('paypal'), braintree: pay('braintree'),
    pytest: test('pytest'),
  },
  go: {
    'github.com/gin-gonic/gin': fw('gin'),
    'github.com/jackc/pgx/v5': db('postgresql'), 'github.com/jackc/pgx/v4': db('postgresql'), 'github.com/lib/pq': db('postgresql'),
    'github.com/go-sql-driver/mysql': db('mysql'), 'github.com/mattn/go-sqlite3': db('sqlite'), 'modernc.org/sqlite': db('sqlite'),
    'github.com/redis/go-redis/v9': db('redis'), 'github.com/go-redis/redis/v8': db('redis'),
    'go.mongodb.org/mongo-driver': db('mongodb'), 'github.com/aws/aws-sdk-go-v2/service/dynamodb': db('dynamodb'),
    'github.com/rabbitmq/amqp091-go': mq('rabbitmq'), 'github.com/streadway/amqp': mq('rabbitmq'),
    'github.com/segmentio/kafka-go': mq('kafka'), 'github.com/ibm/sarama': mq('kafka'), 'github.com/shopify/sarama': mq('kafka'),
    'github.com/nats-io/nats.go': mq('nats'), 'github.com/aws/aws-sdk-go-v2/service/sqs': mq('sqs'),
    'github.com/adyen/adyen-go-api-library/v7': pay('adyen'),
  },
  maven: {
    'org.springframework.boot:spring-boot-starter-web': fw('spring'), 'org.springframework.boot:spring-boot-starter-webflux': fw('spring'),
    'org.postgresql:postgresql': db('postgresql'), 'com.mysql:mysql-connector-j': db('mysql'), 'mysql:mysql-connector-java': db('mysql'),
    'org.mariadb.jdbc:mariadb-java-client': db('mariadb'), 'org.xerial:sqlite-jdbc': db('sqlite'),
    'org.springframework.boot:spring-boot-starter-data-redis': db('redis'), 'redis.clients:jedis': db('redis'),
    'org.springframework.boot:spring-boot-starter-data-mongodb': db('mongodb'),
    'org.springframework.boot:spring-boot-starter-amqp': mq('rabbitmq'), 'org.springframework.kafka:spring-kafka': mq('kafka'),
    'io.nats:jnats': mq('nats'), 'com.stripe:stripe-java': pay('stripe'), 'com.adyen:adyen-java-api-library': pay('adyen'),
    'com.paypal.sdk:paypal-server-sdk': pay('paypal'), 'com.paypal.sdk:checkout-sdk': pay('paypal'),
    'com.braintreepayments.gateway:braintree-java': pay('braintree'),
    'org.junit.jupiter:junit-jupiter': test('junit'), 'org.springframework.boot:spring-boot-starter-test': test('junit'),
  },
  nuget: {
    npgsql: db('postgresql'), 'npgsql.entityframeworkcore.postgresql': db('postgresql'), mysqlconnector: db('mysql'),
    'pomelo.entityframeworkcore.mysql': db('mysql'), 'microsoft.data.sqlite': db('sqlite'), 'stackexchange.redis': db('redis'),
    'mongodb.driver': db('mongodb'), 'rabbitmq.client': mq('rabbitmq'), 'confluent.kafka': mq('kafka'), 'nats.client': mq('nats'),
    'awssdk.sqs': mq('sqs'), 'stripe.net': pay('stripe'), adyen: pay('adyen'), braintree: pay('braintree'), xunit: test('xunit'), nunit: test('nunit'),
  },
  ruby: {
    rails: fw('rails'), pg: db('postgresql'), mysql2: db('mysql'), sqlite3: db('sqlite'), redis: db('redis'),
    mongoid: db('mongodb'), bunny: mq('rabbitmq'), sneakers: mq('rabbitmq'), 'ruby-kafka': mq('kafka'), karafka: mq('kafka'),
    sidekiq: db('redis'), stripe: pay('stripe'), 'adyen-ruby-api-library': pay('adyen'), braintree: pay('braintree'), rspec: test('rspec'),
  },
  php: {
    'laravel/framework': fw('laravel'), 'predis/predis': db('redis'), 'php-amqplib/php-amqplib': mq('rabbitmq'),
    'stripe/stripe-php': pay('stripe'), 'adyen/php-api-library': pay('adyen'), 'braintree/braintree_php': pay('braintree'), 'phpunit/phpunit': test('phpunit'),
  },
};

/** Prefix matches for families of packages (e.g. every stripe-go major version). */
const PREFIXES: Record<Ecosystem, Array<[string, CatalogEntry]>> = {
  npm: [],
  python: [],
  go: [['github.com/stripe/stripe-go', pay('stripe')], ['github.com/adyen/adyen-go-api-library', pay('adyen')]],
  maven: [],
  nuget: [['microsoft.aspnetcore', fw('aspnet')]],
  ruby: [],
  php: [],
};

/**
 * What a dependency reveals, or undefined. Names are compared lower-cased; Python names are
 * normalised the PEP 503 way (`_` and `.` count as `-`).
 * @example lookupDependency('npm', 'amqplib') // { kind: 'broker', value: 'rabbitmq' }
 */
export function lookupDependency(ecosystem: Ecosystem, name: string): CatalogEntry | undefined {
  let key = name.trim().toLowerCase();
  if (ecosystem === 'python') key = key.replace(/[_.]+/g, '-');
  const exact = EXACT[ecosystem][key];
  if (exact) return exact;
  for (const [prefix, entry] of PREFIXES[ecosystem]) {
    if (key.startsWith(prefix)) return entry;
  }
  return undefined;
}
