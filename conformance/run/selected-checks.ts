import { afterAll, beforeEach, inject } from 'vitest';
import { CHECKS_OF_FILE } from '../checks/index.js';
import { HarRecorder } from '../report/har.js';
import { createSuite } from '../fixtures/suite.js';

// The one test module of a run: the run's Suite (its target, scheduler and fixtures), made here and handed to the
// selected check files in the plan's order (check-files.ts).

const suite = createSuite(inject('conformance'));

// Each check's own auth requests, for the plan's account at the end of the run, and the addresses it registered,
// which the run removes from the target at its end (report/run-collector.ts).
// A cancelled run (an interrupt) aborts the running check's signal: its requests and waits end at once.
beforeEach(({ task, signal, skip }) => {
  // A target that kept two checks waiting past their time holds the run no longer: what is left is skipped, saying why.
  const gaveUp = suite.target.answers.gaveUp;
  if (gaveUp !== undefined) skip(gaveUp);
  suite.target.answers.startCheck();
  suite.target.stopSignal = signal;
  const before = suite.target.pacer.authRequestsSent;
  const { registeredEmails } = suite.target;
  const firstEmail = registeredEmails.length;
  return () => {
    task.meta.authRequests = suite.target.pacer.authRequestsSent - before;
    task.meta.registeredEmails = registeredEmails.slice(firstEmail);
  };
});

// The run's exchanges, one page per check, written by the process that sent them.
const har = inject('har');
if (har !== null) {
  const recorder = new HarRecorder();
  suite.target.har = recorder;
  beforeEach(({ task }) => recorder.startPage(task.name));
  afterAll(() => recorder.write(har));
}

for (const file of inject('checkFiles')) CHECKS_OF_FILE[file](suite);
