/** Linux's RAM-backed /dev/shm when it is there and writable, else the system's temporary folder. */
export function memoryTmpDir(): string;
