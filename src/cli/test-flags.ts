// The flags of `hooks test` (SPEC §8): declared here so the command stays an adapter.
import { Flags } from './base-command.js';
import { dialectNames } from '../dialects/registry.js';
import { TEST_FORMATS } from '../views/hooktest/index.js';

export const hookTestFlags = {
  format: Flags.string({
    description: 'Report format (default: github when GITHUB_ACTIONS=true, else human; wins over -o).',
    options: [...TEST_FORMATS],
  }),
  bail: Flags.boolean({ description: 'Stop at the first failed case.' }),
  filter: Flags.string({ description: 'Run only the cases whose name contains this text.' }),
  'pass-with-no-tests': Flags.boolean({
    description: 'Exit 0 when no test file or no case (after --filter) is found (default: exit 2).',
  }),
  init: Flags.string({ description: 'Write a starter test file for the hooks of this event, then exit.' }),
  dialect: Flags.string({
    description:
      "The dialect of events that several dialects know (default: the test file's, else the one declaring the event).",
    options: dialectNames(),
  }),
};
