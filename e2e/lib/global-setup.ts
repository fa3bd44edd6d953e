import type { TestProject } from 'vitest/node';
import { startStack } from './stack.ts';

/** Builds the web app if needed and starts the provider simulator and the server on a fresh DATA_DIR. */
export default async function setup(project: TestProject) {
  const stack = await startStack();
  project.provide('baseUrl', stack.baseUrl);
  project.provide('dataDir', stack.dataDir);
  return stack.stop;
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}
