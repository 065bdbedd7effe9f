import { articleOneLanguageInput } from '../fixtures/article-one-language.input';
import { clusterInput } from '../fixtures/cluster.input';
import { BuildPayloadInput } from '../input/build-payload.input';
import { ResultRevisionInput } from '../input/result-revision.input';

export interface InputPatch {
  revision?: Partial<ResultRevisionInput>;
  goal?: Partial<BuildPayloadInput['goal']>;
  contract?: BuildPayloadInput['contract'];
  receiverFields?: Partial<BuildPayloadInput['receiverFields']>;
  event?: BuildPayloadInput['event'];
}

/** A fresh deep copy of the one-language article fixture with a shallow patch per part. */
export function articleInput(patch: InputPatch = {}): BuildPayloadInput {
  return patched(articleOneLanguageInput, patch);
}

/** A fresh deep copy of the cluster fixture with a shallow patch per part. */
export function clusterModeInput(patch: InputPatch = {}): BuildPayloadInput {
  return patched(clusterInput, patch);
}

function patched(base: BuildPayloadInput, patch: InputPatch): BuildPayloadInput {
  const copy = structuredClone(base);
  return {
    revision: { ...copy.revision, ...patch.revision },
    goal: { ...copy.goal, ...patch.goal },
    contract: patch.contract === undefined ? copy.contract : patch.contract,
    receiverFields: { ...copy.receiverFields, ...patch.receiverFields },
    event: patch.event ?? copy.event,
  };
}
