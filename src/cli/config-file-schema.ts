/** The config file's schema (zod), loaded only when a run names a config file. */
import { z } from 'zod';

export const configFileSchema = z
  .object({
    cursorUserDir: z.string().min(1).optional(),
    cursorStoreRoot: z.string().min(1).optional(),
    target: z.string().min(1).optional(),
    inputs: z.array(z.string().min(1)).optional(),
    backups: z.array(z.string().min(1)).optional(),
    backupMayReplace: z.boolean().optional(),
    sourceLimits: z.record(z.string(), z.unknown()).optional(),
    workspace: z.string().min(1).optional(),
    includeCrossWorkspaceSources: z.boolean().optional(),
    prefer: z.enum(['composer', 'store']).optional(),
    sinceLast: z.boolean().optional(),
    sharedPermissions: z.boolean().optional(),
    redact: z.boolean().optional(),
    redactHomePaths: z.boolean().optional(),
    redactionKeyFile: z.string().min(1).optional(),
    origin: z.string().min(1).optional(),
  })
  .strict();

export type ConfigFile = z.infer<typeof configFileSchema>;
