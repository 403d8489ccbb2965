import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
export function migrate(factory: unknown): Promise<{ appliedMigrationNames: string[] }>;
export function pgliteFactory(db: unknown): Promise<SqlMigrationAwareDriverAdapterFactory>;
export function readMigrations(dir?: string): Promise<unknown>;
