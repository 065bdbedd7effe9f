import 'reflect-metadata';
import { ProblemException } from '../../http/problem';
import { createValidationPipe } from '../../http/validation';
import { ManualContractDto } from './manual-contract.dto';
import { TargetManifestDto } from './target-manifest.dto';

const pipe = createValidationPipe();
const field = { key: 'desk', label: 'Desk', type: 'enum', options: [{ value: 'eco', label: 'Economy' }] };

async function fieldsRefused(metatype: typeof TargetManifestDto | typeof ManualContractDto, body: object): Promise<string[]> {
  try {
    await pipe.transform(JSON.parse(JSON.stringify(body)), { type: 'body', metatype });
    return [];
  } catch (err) {
    if (!(err instanceof ProblemException)) throw err;
    return (err.toProblem().errors ?? []).map((e) => e.field);
  }
}

describe('the shapes of a capability report and of a contract set by hand', () => {
  it.each([
    ['a receiver report', TargetManifestDto],
    ['a contract set by hand', ManualContractDto],
  ])('%s takes fields as objects and refuses a field or an option given as an array', async (_name, metatype) => {
    expect(await fieldsRefused(metatype, { fields: [field] })).toEqual([]);
    expect(await fieldsRefused(metatype, { fields: [[field]] })).toEqual(['fields']);
    expect(await fieldsRefused(metatype, { fields: [{ ...field, options: [[]] }] })).toEqual(['fields[0].options']);
  });
});
