import type { DomainModule } from '../../catalog/descriptor.js';
import { list } from './list.js';
import { run } from './run.js';
import { save } from './save.js';

export const taskDomain: DomainModule = {
  domain: 'task',
  pluginName: 'ah-task',
  description: 'Saved command recipes per project (<cwd>/.ah/tasks.json): save, list and run them.',
  notes: [
    'Tasks run through sh -lc (PowerShell -NoProfile on Windows) with the run.check machinery: stdin closed, byte caps, the whole tree killed on timeout.',
    'Saved commands may hold secrets: task list is medium risk even though it only reads.',
  ],
  commands: [save, list, run],
};
