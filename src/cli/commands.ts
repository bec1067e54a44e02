import { checkCommand } from './check-command.js';
import type { CommandSpec } from './command-spec.js';
import { generateCommand } from './generate-command.js';
import { mcpCommand } from './mcp-command.js';
import { proxyCommand } from './proxy-command.js';
import { recordCommand } from './record-command.js';
import { serveCommand } from './serve-command.js';
import { validateCommand } from './validate-command.js';

/** Every command of the CLI, in the order `--help` lists them. */
export const COMMANDS: readonly CommandSpec[] = [serveCommand, generateCommand, validateCommand, checkCommand, recordCommand, proxyCommand, mcpCommand];
