import { Block } from './block.types';

/**
 * One section of the canonical content (§2.3 `sections`).
 * `type` is open (`content`, `faq`, `key_points`, `timeline`, `gallery`, ...); `key` identifies the section in the result.
 */
export interface Section {
  key: string;
  type: string;
  /** Original section type when the receiver's contract does not list it; `type` is then `content`. */
  fallback_of?: string;
  /** Never empty. */
  blocks: Block[];
}
