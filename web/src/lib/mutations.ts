import { commitMutation, type Environment, type GraphQLTaggedNode, type MutationParameters, type SelectorStoreUpdater } from "relay-runtime";

/** Runs a Relay mutation as a promise (multi-step flows such as checkout await one step after another). */
export function commitAsync<T extends MutationParameters>(environment: Environment, mutation: GraphQLTaggedNode, variables: T["variables"], extra?: { optimisticResponse?: T["rawResponse"]; updater?: SelectorStoreUpdater<T["response"]> }): Promise<T["response"]> {
  return new Promise((resolve, reject) => {
    commitMutation<T>(environment, {
      mutation,
      variables,
      optimisticResponse: extra?.optimisticResponse as never,
      updater: extra?.updater,
      onCompleted: (response, errors) => {
        if (errors?.length && !response) reject(new Error(errors.map((e) => e.message).join("; ")));
        else resolve(response);
      },
      onError: reject,
    });
  });
}
