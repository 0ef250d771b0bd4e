/**
 * export, import-workspace and verify (issue 15): a workspace's events to a file and into an
 * empty instance, and the check of the embedded log's hash chain.
 */
import { z } from 'zod';
import { openEmbeddedEventStore } from '../../eventstore/embedded/index.js';
import { verifyChain } from '../../eventstore/embedded/verify.js';
import { exportWorkspace } from '../../feedback/transfer/export.js';
import { embeddedFile } from '../../platform/stores.js';
import { ExportFileError, importWorkspace } from '../../feedback/transfer/import.js';
import { type SettleReport, settleImport } from '../../feedback/transfer/settle.js';
import { heldByNote } from '../../platform/lease.js';
import { silentLogger } from '../../platform/logger.js';
import { tryLease } from '../../read/projector-lease.js';
import { loadSecret } from '../../platform/secret.js';
import { createSecretBox } from '../../webhooks/secrets.js';
import { WORKER_LEASE } from '../../webhooks/worker/state.js';
import { checkFlags } from '../args.js';
import type { CliCommand, CliEnv } from '../command.js';
import { InputFileError, ProjectorRunningError, UsageError } from '../errors.js';
import { requireWorkspace } from '../lookups.js';
import { fileToRead, fileToWrite, writeFailed } from '../paths.js';
import { readingOnly, withSession } from '../session.js';
import { SlugFlag } from '../values.js';

const count = (n: number | bigint) => n.toLocaleString('en-US');

/** how long the import's hold on the webhook worker's lease lasts unrenewed (renewed at a third) */
const IMPORT_LEASE_MS = 60_000;

export const exportCommand: CliCommand = {
  name: 'export',
  usage: '--workspace S --out FILE',
  summary:
    "write a workspace's events (and its people's and members') as JSON lines with a hash chain",
  flags: ['workspace', 'out'],
  async run(flags, env) {
    const input = checkFlags(z.object({ workspace: SlugFlag, out: z.string().min(1) }), flags);
    const out = fileToWrite(input.out);
    // reading only: a mistyped DATA_DIR must not leave a new, empty store behind, and a
    // read-only one is read as it is
    await readingOnly(env.config('read'), (config) =>
      withSession(config, async ({ stores, deps }) => {
        const workspace = await requireWorkspace(deps.readStore, input.workspace);
        const report = await exportWorkspace(
          stores.rawEventStore,
          { id: workspace.workspaceId, slug: workspace.slug, name: workspace.name },
          out,
          env.progress &&
            ((written, scanned, head) =>
              env.progress?.(
                `exporting: ${count(written)} events, log ${count(scanned)} of ${count(head)}`,
              )),
        ).catch((error) => {
          throw writeFailed(error, input.out);
        });
        env.progress?.(`exported ${count(report.events)} events\n`);
        env.out(`exported ${count(report.events)} events of ${workspace.slug} to ${out}`);
      }),
    );
  },
};

export const importWorkspaceCommand: CliCommand = {
  name: 'import-workspace',
  usage: '--file FILE',
  summary:
    'import an export into this empty instance, exactly (refuses a file whose chain is broken)',
  flags: ['file'],
  async run(flags, env) {
    const input = checkFlags(z.object({ file: z.string().min(1) }), flags);
    const file = fileToRead(input.file);
    const config = env.config();
    await withSession(config, async ({ stores, deps, context, caughtUp }) => {
      // no webhook worker may deliver meanwhile: it would send the imported events out again and
      // save its own checkpoint over the one settleImport sets (settle.ts)
      const held = await tryLease({
        lease: stores.lease(WORKER_LEASE.collection, WORKER_LEASE.id),
        leaseMs: IMPORT_LEASE_MS,
        kind: 'import-workspace',
        logger: silentLogger,
        onLost: () => {},
      });
      if ('heldBy' in held) {
        throw new ProjectorRunningError(
          `a webhook worker is running${heldByNote(held.heldBy)}; stop the server and any start:webhooks before importing, or it would deliver the imported events again`,
        );
      }
      try {
        const report = await importWorkspace(stores.rawEventStore, file);
        env.out(`imported ${count(report.events)} events of ${report.workspace.slug}`);
        await caughtUp();
        const secrets = createSecretBox(loadSecret(config));
        const settled = await settleImport(
          { ...deps, eventStore: stores.eventStore, secrets },
          context(),
          report.workspace.id,
        );
        for (const line of settledLines(settled)) env.out(line);
      } catch (error) {
        if (error instanceof ExportFileError) throw new InputFileError(error.message);
        throw error;
      } finally {
        await held.release();
      }
    });
  },
};

/** What the operator must know of the workspace's webhooks and integrations after a move. */
function settledLines(report: SettleReport): string[] {
  const lines: string[] = [];
  if (report.webhooks > 0) {
    lines.push(
      `webhooks: ${count(report.webhooks)} moved, ${count(report.webhooks - report.held.length)} deliver from the next event on`,
    );
  }
  for (const hook of report.held) {
    lines.push(`webhook ${hook.webhookId} (${hook.url}) is disabled: ${hook.reason}`);
  }
  if (report.integrations > 0) {
    lines.push(
      `integrations: ${count(report.integrations)} moved, their credentials work here as they did (revoke them on the old installation if it keeps running)`,
    );
  }
  return lines;
}

export const verifyCommand: CliCommand = {
  name: 'verify',
  usage: '',
  summary: 'walk the whole event log and check its hash chain (embedded event store)',
  flags: [],
  async run(_flags, env) {
    const config = env.config('read');
    if (config.EVENTSTORE_URL) {
      throw new UsageError(
        'verify checks the embedded event log’s hash chain; the KurrentDB event store keeps none (see README "Verifiable log")',
      );
    }
    const result = await readingOnly(config, async (readable) => {
      const store = await openEmbeddedEventStore({ path: embeddedFile(readable) });
      try {
        return await verifyChain(store, progressOf(env));
      } finally {
        await store.close();
      }
    });
    await report(env, result);
  },
};

function progressOf(env: CliEnv) {
  return (
    env.progress && ((verified: number) => env.progress?.(`verifying: ${count(verified)} events`))
  );
}

async function report(env: CliEnv, result: Awaited<ReturnType<typeof verifyChain>>): Promise<void> {
  env.progress?.('\n');
  if (!result.intact) {
    throw new ChainBroken(
      `chain broken at position ${result.brokenAt}: ${result.reason}; the ${count(result.events)} events before it are intact`,
    );
  }
  env.out(`${result.events} events, chain intact`);
  if (result.headPosition !== null) {
    env.out(`head: position ${result.headPosition}, hash ${result.headHash}`);
  }
}

/** The log was tampered with: one line on stderr and exit code 1, like every CLI failure. */
class ChainBroken extends InputFileError {}
