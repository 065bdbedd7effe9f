import { BuildPayloadInput } from '../input/build-payload.input';
import { ConditionalKeys } from '../types/payload.types';
import { buildFields } from './build-fields';
import { buildSections } from './build-sections';
import { buildTags } from './build-tags';

/** §2.3 keys, each only when there is something to send; undefined members are left out of the body. */
export function buildConditionalKeys(input: BuildPayloadInput): ConditionalKeys {
  const { revision, goal } = input;
  const image = revision.image;
  return {
    sections: buildSections(revision.sections, input.contract),
    image: image === null ? undefined : { url: image.url, attribution: image.attribution },
    tags: buildTags(revision.clusters),
    publish_mode: goal.publishPolicy ?? undefined,
    fields: buildFields(input.receiverFields),
  };
}
