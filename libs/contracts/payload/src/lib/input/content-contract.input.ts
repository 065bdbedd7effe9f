/** What the receiver can render. Null in the build input means no contract yet: everything is sent natively. */
export interface ContentContractInput {
  /** Established from a receiver report, or set by hand; does not change how the payload is built. */
  origin: 'receiver' | 'manual';
  sectionTypes: string[];
  blockTypes: string[];
}
