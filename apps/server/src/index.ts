export { buildServer, type BuildOptions } from './app.ts';
export { loadConfig, type Config } from './config.ts';
export { UserService } from './services/user-service.ts';
export { KafkaRelay, connectKafkaProducer, encodeStreamMessage, type StreamProducer } from './streams/kafka-relay.ts';
