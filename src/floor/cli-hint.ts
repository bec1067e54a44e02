/**
 * How the CLI's own messages spell a command the user can run next (`Run 'npx market-stub serve
 * --help'`). `npx market-stub` runs as written where a newcomer is: in a clone of market-stub
 * (npm exec runs the project's own bin) and in a project that has it as a dependency (its
 * node_modules/.bin); a bare `market-stub` is "command not found" in both unless it was installed
 * globally.
 */
export const CLI_HINT = 'npx market-stub';
