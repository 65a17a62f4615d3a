export { type BuildOptions, buildServer } from './app.ts';
export { type Config, loadConfig } from './config.ts';
export { UserService } from './services/user-service.ts';
export { connectKafkaProducer, encodeStreamMessage, KafkaRelay, type StreamProducer } from './streams/kafka-relay.ts';
