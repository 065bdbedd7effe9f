/** Where this delivery stands in the life of the result. */
export interface EventContextInput {
  /** True for the first delivery of the result (`workflow.action`); false for a later version (`cluster.updated`). */
  isFirstDelivery: boolean;
}
