import { beforeEach, inject } from 'vitest';
import { CHECKS_OF_FILE } from './checks/index.js';
import { createSuite } from './suite.js';

// The one test module of a run: the run's Suite (its target, scheduler and fixtures), made here and handed to the
// selected check files in the plan's order (check-files.ts).

const suite = createSuite(inject('conformance'));

// Each check's own auth requests, for the plan's account at the end of the run (report/run-collector.ts).
beforeEach(({ task }) => {
  const before = suite.target.pacer.authRequestsSent;
  return () => {
    task.meta.authRequests = suite.target.pacer.authRequestsSent - before;
  };
});

for (const file of inject('checkFiles')) CHECKS_OF_FILE[file](suite);
