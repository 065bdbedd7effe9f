import { ContentContractInput } from '../input/content-contract.input';
import { SectionInput } from '../input/result-revision.input';
import { BASELINE_SECTION_TYPE } from '../payload.constants';
import { Section } from '../types/section.types';
import { adaptBlock } from './block-fallback';
import { copyBlock } from './copy-block';

/**
 * `sections`, adapted to the receiver's contract: an unlisted section type is sent as a `content` section with
 * `fallback_of`; with no contract everything goes natively. Undefined when nothing is left, so the key is left out.
 */
export function buildSections(sections: readonly SectionInput[], contract: ContentContractInput | null): Section[] | undefined {
  const supportedBlocks = contract === null ? null : new Set(contract.blockTypes);
  const out: Section[] = [];
  for (const section of sections) {
    const blocks =
      supportedBlocks === null
        ? section.blocks.map(copyBlock)
        : section.blocks.flatMap((block) => adaptBlock(block, supportedBlocks));
    // A section without blocks has no content to lose, and the spec forbids sending empty structures.
    if (blocks.length === 0) continue;
    out.push(
      contract === null || isSectionSupported(section.type, contract)
        ? { key: section.key, type: section.type, blocks }
        : { key: section.key, type: BASELINE_SECTION_TYPE, fallback_of: section.type, blocks },
    );
  }
  return out.length > 0 ? out : undefined;
}

function isSectionSupported(type: string, contract: ContentContractInput): boolean {
  return type === BASELINE_SECTION_TYPE || contract.sectionTypes.includes(type);
}
