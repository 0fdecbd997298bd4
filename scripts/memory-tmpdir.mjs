// Where the tests keep their throwaway files: Linux's RAM-backed /dev/shm when it is there.
// A SQLite commit at `synchronous = FULL` waits for an fsync, about 12 ms on the CI machines' disk and
// nothing on tmpfs; the servers the tests start commit thousands of times, so on disk the suites spent
// most of their time waiting for fsyncs rather than working. What the tests check does not depend on
// the disk: the same pragmas and the same fsync calls run, and a killed server's data stays in the page
// cache either way (test/faults/kill.test.ts). Elsewhere the system's temporary folder is used.
import { accessSync, constants } from 'node:fs';
import { tmpdir } from 'node:os';

export function memoryTmpDir() {
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
}
