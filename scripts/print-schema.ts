import fs from "node:fs";
import { printedSchema } from "../api/graphql/schema.ts";

/** Writes schema.graphql from the Pothos schema (relay-compiler reads it; CI checks it is current). */
const printed = printedSchema();
const target = new URL("../schema.graphql", import.meta.url);
if (process.argv.includes("--check")) {
  const current = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : "";
  if (current !== printed) {
    console.error("schema.graphql is stale: run `npm run schema:print` and commit it.");
    process.exit(1);
  }
  console.log("schema.graphql is current.");
} else {
  fs.writeFileSync(target, printed);
  console.log("Wrote schema.graphql");
}
