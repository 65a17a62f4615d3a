export { buildServer, type BuildOptions } from './app.ts';
export { loadConfig, type Config } from './config.ts';
export { UserService } from './services/user-service.ts';
