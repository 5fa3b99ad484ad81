/** The `etl` command line (commander): its commands, a global --json, the contract's exit codes. */
import type { Command } from 'commander';
import { EXPORT_FORMATS } from '../load/export/export-formats.js';
import { EXIT, UsageError } from '../shared/errors.js';
import { requireCommonJs } from '../shared/require-commonjs.js';
import type { ExportFlags } from './commands/export.js';
import type { MergeFlags } from './commands/merge.js';
import type { ReportFlags } from './commands/report.js';
import { createOutput, reportFatal } from './output.js';
import type { RunFlags } from './run-options.js';
import { toolVersion } from './tool-version.js';
import { visibleLines } from './visible-text.js';

const commander = requireCommonJs('commander') as typeof import('commander');
const { CommanderError, Option } = commander;

const SHARED_PERMISSIONS = '--shared-permissions';
const SHARED_PERMISSIONS_HELP = 'create files group-readable (0640/0750) instead of owner-only (0600/0700)';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

function addSourceOptions(command: Command): Command {
  return command
    .option('--cursor-user-dir <dir>', 'Cursor `User` directory (replaces default discovery of both stacks)')
    .option(
      '--cursor-store-root <dir>',
      'Cursor Store root, e.g. ~/.cursor (replaces default discovery of both stacks)',
    )
    .option('--workspace <path>', 'limit reads to one workspace (membership filter and payload I/O boundary)')
    .option('--include-cross-workspace-sources', 'load off-scope contributors of already selected sessions')
    .addOption(
      new Option('--prefer <side>', 'merge orientation for merged sessions').choices(['composer', 'store']),
    )
    .option('--input <path>', 'explicit capture file or folder (repeatable)', collect)
    .option('--backup <zip>', 'cursor-history backup archive to read (repeatable)', collect)
    .option(
      '--backup-may-replace',
      'let a backup session replace a complete session loaded from a live source (default: never)',
    )
    .option(
      '--source-limit <field=value>',
      'override one Source Read Limits v1 bound, or captureInputFiles (repeatable)',
      collect,
    )
    .option('--config <file>', 'JSON config file with sources and target')
    .option('--target <target>', 'duckdb:PATH or parquet:DIR (default: the embedded DuckDB file)')
    .option('--json', 'machine-readable output');
}

export function buildProgram(
  signal: AbortSignal,
  setExit: (code: number) => void,
  quietErrors: boolean,
): Command {
  const program = new commander.Command('etl')
    .description('Ingest Cursor AI-chat history into a DuckDB or Parquet archive warehouse.')
    .option('--json', 'machine-readable output')
    .version(toolVersion(), '-V, --version', 'print the version and exit')
    .showHelpAfterError(false)
    // Subcommands inherit these settings; with --json, commander's own error text is suppressed.
    .configureOutput({
      writeErr: (text) => {
        if (!quietErrors) process.stderr.write(visibleLines(text));
      },
    })
    .exitOverride();
  const json = (cmd: Command): boolean => Boolean(cmd.optsWithGlobals().json);
  const guarded =
    <A extends unknown[]>(work: (...args: A) => Promise<number>) =>
    async (...args: A): Promise<void> => {
      const cmd = args[args.length - 1] as Command;
      try {
        setExit(await work(...args));
      } catch (error) {
        setExit(reportFatal(error, json(cmd)));
      }
    };

  addSourceOptions(
    program.command('run').description('extract, transform and load Cursor history into the warehouse'),
  )
    .option('--since-last', 'incremental: skip sources unchanged since the last committed run')
    .option(
      '--origin <name>',
      'machine/profile name recorded with the sessions (default: user@host; docs/team-archive.md)',
    )
    .option('--redact', "redact secrets before load and make it the warehouse's policy (docs/redaction.md)")
    .option('--no-redact', 'turn redaction off (a redacted warehouse also needs --allow-unredacted)')
    .option('--redact-home-paths', 'also replace home-directory user names in paths (implies --redact)')
    .option('--no-redact-home-paths', 'stop replacing home-directory user names')
    .option('--allow-unredacted', 'consent to loading plaintext into a warehouse that is redacted')
    .option(SHARED_PERMISSIONS, SHARED_PERMISSIONS_HELP)
    .action(
      guarded(async (_opts: RunFlags, cmd: Command) => {
        const { runCommand } = await import('./commands/run.js');
        return runCommand(cmd.optsWithGlobals() as RunFlags, createOutput(json(cmd)), signal);
      }),
    );
  program
    .command('status')
    .description('last runs, counts and warehouse size')
    .option('--target <target>', 'duckdb:PATH or parquet:DIR')
    .option('--json', 'machine-readable output')
    .action(
      guarded(async (_opts, cmd: Command) => {
        const { statusCommand } = await import('./commands/status.js');
        return statusCommand(cmd.optsWithGlobals(), createOutput(json(cmd)));
      }),
    );
  addSourceOptions(
    program.command('sources').description('what a run would read, counts per kind (no payload reads)'),
  ).action(
    guarded(async (_opts: RunFlags, cmd: Command) => {
      const { sourcesCommand } = await import('./commands/sources.js');
      return sourcesCommand(cmd.optsWithGlobals() as RunFlags, createOutput(json(cmd)));
    }),
  );
  addSourceOptions(
    program
      .command('doctor')
      .description(
        'every data root found or absent, what each Cursor layout holds, what is unreadable and why (metadata only)',
      ),
  ).action(
    guarded(async (_opts: RunFlags, cmd: Command) => {
      const { doctorCommand } = await import('./commands/doctor.js');
      return doctorCommand(cmd.optsWithGlobals() as RunFlags, createOutput(json(cmd)));
    }),
  );
  program
    .command('show')
    .description("one session's messages; --provenance adds where each was read")
    .argument('<session-id>', 'the session ID, byte-exact')
    .option('--provenance', 'list each message and tool call with its source instance and locator')
    .option('--target <target>', 'duckdb:PATH or parquet:DIR')
    .option('--json', 'machine-readable output')
    .action(
      guarded(async (sessionId: string, _opts, cmd: Command) => {
        const { showCommand } = await import('./commands/show.js');
        return showCommand(sessionId, cmd.optsWithGlobals(), createOutput(json(cmd)));
      }),
    );
  const prices = program.command('prices').description('the optional price table that turns usage into cost');
  prices
    .command('import')
    .description('replace the price table from a CSV or JSON file (docs/usage.md#price-table)')
    .argument('<file>', 'CSV with a header row, or a JSON array of price objects')
    .option('--target <target>', 'duckdb:PATH or parquet:DIR')
    .option('--json', 'machine-readable output')
    .action(
      guarded(async (file: string, _opts, cmd: Command) => {
        const { pricesImportCommand } = await import('./commands/prices.js');
        return pricesImportCommand(file, cmd.optsWithGlobals(), createOutput(json(cmd)));
      }),
    );
  prices
    .command('show')
    .description('print the imported price table')
    .option('--target <target>', 'duckdb:PATH or parquet:DIR')
    .option('--json', 'machine-readable output')
    .action(
      guarded(async (_opts, cmd: Command) => {
        const { pricesShowCommand } = await import('./commands/prices.js');
        return pricesShowCommand(cmd.optsWithGlobals(), createOutput(json(cmd)));
      }),
    );
  program
    .command('query')
    .description('read-only SQL over the warehouse')
    .argument('<sql>', 'one SELECT or EXPLAIN statement')
    .option('--limit <rows>', 'print at most this many rows (default 10000, at most 1000000)')
    .option('--target <target>', 'duckdb:PATH or parquet:DIR')
    .option('--time-zone <zone>', 'session time zone for zone-aware SQL (IANA name)', 'UTC')
    .option('--json', 'machine-readable output')
    .action(
      guarded(async (sql: string, _opts, cmd: Command) => {
        const { queryCommand } = await import('./commands/query.js');
        return queryCommand(sql, cmd.optsWithGlobals(), createOutput(json(cmd)));
      }),
    );
  addSourceOptions(
    program
      .command('verify')
      .description('recompute digests and check the warehouse; exit 5 on any mismatch'),
  )
    .option('--secrets', 'scan for secrets instead; exit 5 when a redacted warehouse holds any')
    .option(
      '--sources',
      'compare the archive with a fresh read of the sources (the source options of etl run), writing nothing; exit 5 when they differ',
    )
    .action(
      guarded(async (_opts, cmd: Command) => {
        const { verifyCommand } = await import('./commands/verify.js');
        return verifyCommand(cmd.optsWithGlobals(), createOutput(json(cmd)));
      }),
    );
  program
    .command('redact')
    .description('re-redact the warehouse from its own rows and make redaction its policy')
    .option('--target <target>', 'duckdb:PATH or parquet:DIR')
    .option('--config <file>', 'JSON config file (target, redactHomePaths, redactionKeyFile)')
    .option('--redact-home-paths', 'also replace home-directory user names in paths')
    .option('--json', 'machine-readable output')
    .action(
      guarded(async (_opts, cmd: Command) => {
        const { redactCommand } = await import('./commands/redact.js');
        return redactCommand(cmd.optsWithGlobals(), createOutput(json(cmd)));
      }),
    );
  program
    .command('merge')
    .description("load other machines' warehouses (DuckDB files or Parquet datasets) into one team target")
    .requiredOption(
      '--from <path>',
      'a warehouse etl wrote: duckdb:FILE, parquet:DIR or a path (repeatable)',
      collect,
    )
    .requiredOption('--target <target>', 'the team warehouse: duckdb:PATH or parquet:DIR')
    .option('--origin <name>', 'origin recorded for the merge run (default: user@host)')
    .option(SHARED_PERMISSIONS, SHARED_PERMISSIONS_HELP)
    .option('--json', 'machine-readable output')
    .action(
      guarded(async (_opts, cmd: Command) => {
        const { mergeCommand } = await import('./commands/merge.js');
        return mergeCommand(cmd.optsWithGlobals() as MergeFlags, createOutput(json(cmd)), signal);
      }),
    );
  program
    .command('export')
    .description('write warehouse tables as Parquet, Arrow IPC or JSONL, or one archive line per session')
    .addOption(new Option('--format <format>', 'output format').choices(EXPORT_FORMATS).makeOptionMandatory())
    .requiredOption('--out <path>', 'output directory (one file per table) or file (archive-jsonl)')
    .option('--tables <names>', 'comma-separated tables (default: the row tables)')
    .option('--where <sql>', 'SQL filter applied to every exported table (sessions for archive-jsonl)')
    .option('--overwrite', 'replace a previous export at --out (default: refuse a non-empty --out)')
    .option('--changes', "only sessions changed since --consumer's last export (archive-jsonl, parquet)")
    .option('--consumer <name>', 'change feed consumer whose cursor --changes reads and advances')
    .option(SHARED_PERMISSIONS, SHARED_PERMISSIONS_HELP)
    .option('--target <target>', 'duckdb:PATH or parquet:DIR')
    .option('--json', 'machine-readable output')
    .action(
      guarded(async (_opts, cmd: Command) => {
        const { exportCommand } = await import('./commands/export.js');
        return exportCommand(cmd.optsWithGlobals() as ExportFlags, createOutput(json(cmd)));
      }),
    );
  program
    .command('report')
    .description('write one self-contained HTML report (charts, sessions, messages) readable offline')
    .requiredOption('--out <file>', 'the HTML file to write')
    .option('--max-sessions <n>', 'sessions listed and embedded, most recently updated first (default 500)')
    .option('--overwrite', 'replace an existing file at --out')
    .option(SHARED_PERMISSIONS, SHARED_PERMISSIONS_HELP)
    .option('--target <target>', 'duckdb:PATH or parquet:DIR')
    .option('--json', 'machine-readable output')
    .action(
      guarded(async (_opts, cmd: Command) => {
        const { reportCommand } = await import('./commands/report.js');
        return reportCommand(cmd.optsWithGlobals() as ReportFlags, createOutput(json(cmd)));
      }),
    );
  return program;
}

/** Parses argv and runs; returns the process exit code. */
export async function main(argv: readonly string[], signal: AbortSignal): Promise<number> {
  let exitCode = 0;
  const wantsJson = argv.includes('--json');
  const program = buildProgram(
    signal,
    (code) => {
      exitCode = code;
    },
    wantsJson,
  );
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return 0;
      // No command: commander has already printed the help, which is the whole answer.
      if (error.code === 'commander.help' && !wantsJson) return EXIT.usage;
      const message =
        error.code === 'commander.help' ? 'no command given (etl --help lists them)' : error.message;
      return reportFatal(
        new UsageError('USAGE_ERROR', message.replace(/^error: /, ''), { reason: error.code }),
        wantsJson,
      );
    }
    return reportFatal(error, wantsJson);
  }
  return exitCode;
}
