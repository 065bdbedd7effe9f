import { contentStorageStatements } from './content-storage';

describe('contentStorageStatements', () => {
  const columns = [{ table: '"svc".results', column: 'content' }, { table: '"svc".events', column: 'data' }];

  it('compresses each content column with lz4 where the server has it', () => {
    expect(contentStorageStatements(columns, true)).toEqual([
      'ALTER TABLE "svc".results ALTER COLUMN content SET COMPRESSION lz4',
      'ALTER TABLE "svc".events ALTER COLUMN data SET COMPRESSION lz4',
    ]);
  });

  it('stores each content column uncompressed, out of line, where the server has only pglz', () => {
    expect(contentStorageStatements(columns, false)).toEqual([
      'ALTER TABLE "svc".results ALTER COLUMN content SET STORAGE EXTERNAL',
      'ALTER TABLE "svc".events ALTER COLUMN data SET STORAGE EXTERNAL',
    ]);
  });
});
