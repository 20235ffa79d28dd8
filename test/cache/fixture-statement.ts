// The statement bytes the fixture caches made from schema version 18 on keep for their file-1: written by scripts/make-cache-fixtures.ts, read back by the upgrade tests.
export const FIXTURE_STATEMENT = 'Date,Reference,Amount\n2026-05-02,PAY-REF-1,5000.00\n2026-05-03,PAY-REF-2,12.50\n2026-05-04,,-52.50\n'
