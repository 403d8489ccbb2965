/**
 * Imported first by the bench's server entry points (run.ts, server.ts), before anything that reads the process
 * environment when it loads: the server measured runs as `NODE_ENV=production npm start` runs it. `loadConfig`
 * takes the bench's own settings, but some code decides from `process.env.NODE_ENV` itself: graphql-js picks its
 * cheap `instanceOf` at import, and the Pothos builder drops the Prisma plugin's unused-query check in production
 * (api/graphql/builder.ts). Without this, the bench measured those development-only costs.
 */
process.env.NODE_ENV = "production";
