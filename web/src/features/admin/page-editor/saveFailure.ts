import { graphql, readInlineData } from "react-relay";
import type { saveFailure_error$key } from "./__generated__/saveFailure_error.graphql.ts";

/** A field the server refused in a page save (ValidationError issue: path such as "content.mail.replyTo"). */
export interface SaveIssue {
  readonly path: string;
  readonly message: string;
}

/**
 * An Error for a refused save (the save mutations spread the fragment, aliased `refusal`): the server's message
 * with its field issues, else the spec's fallback. The issues ride along, so the panels can show each under its
 * field.
 */
export function saveFailure(result: saveFailure_error$key | null | undefined): Error & { issues: readonly SaveIssue[] } {
  const refusal = readInlineData(
    graphql`
      fragment saveFailure_error on Error @inline {
        message
        ... on ValidationError {
          issues {
            path
            message
          }
        }
      }
    `,
    result,
  );
  const issues = refusal?.issues?.map((i) => `${i.path}: ${i.message}`).join("; ");
  const message = [refusal?.message, issues].filter(Boolean).join(" — ");
  return Object.assign(new Error(message || "Failed to save changes. Please ensure the backend is running."), { issues: refusal?.issues ?? [] });
}

/** The field issues of a failed save (none for a network failure or another error). */
export function saveIssues(error: unknown): readonly SaveIssue[] {
  return error instanceof Error && "issues" in error && Array.isArray(error.issues) ? (error.issues as SaveIssue[]) : [];
}
