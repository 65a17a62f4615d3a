// Child-process entry (see startHelper in index.ts): re-plans the survey (cheap, deterministic)
// and writes the nights it was given, reporting progress to the parent every few packets.
import { type NightJob, writeNights } from './night-writer.ts';
import { planSurvey } from './plan.ts';

const { job, nights } = JSON.parse(process.argv[2]) as { job: NightJob; nights: number[] };
const report = (packets: number) => process.send?.({ packets });
let pending = 0;
await writeNights(job, planSurvey(job), nights, () => {
  if (++pending === 50) {
    report(pending);
    pending = 0;
  }
});
report(pending);
