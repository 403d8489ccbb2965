/** The part of pino the services use (Fastify's request logger satisfies it). */
export type Log = Pick<import("pino").BaseLogger, "info" | "warn" | "error" | "debug">;
