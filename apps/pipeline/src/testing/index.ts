// Test support shared with the other workspaces' tests (`@antares/pipeline/testing`); never imported by
// the application.
export { confluentRecords, writeConfluentFiles } from './confluent-files.ts';
export { postgresServerFor, SERVER_URL } from './postgres-server.ts';
export { expectSameOutcome, type Outcome, outcomeOf } from './same-outcome.ts';
