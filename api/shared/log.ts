import type { BaseLogger } from "pino";

/** The part of pino the services use (Fastify's request logger satisfies it). */
export type Log = Pick<BaseLogger, "info" | "warn" | "error" | "debug">;
