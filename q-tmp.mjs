import { DuckDBInstance } from '@duckdb/node-api';
import { existsSync, statSync, rmSync } from 'node:fs';
const size = (p) => existsSync(p) ? statSync(p).size : -1;
for (const keep of [false, true]) {
  rmSync('/tmp/a.db', {force:true}); rmSync('/tmp/a.db.wal', {force:true});
  try { const x = await DuckDBInstance.create('/tmp/a.db', { row_group_size: '2048' }); console.log('row_group_size config accepted'); x.closeSync(); rmSync('/tmp/a.db'); } catch (e) { console.log('config:', e.message.split('\n')[0]); }
  const i = await DuckDBInstance.create(':memory:', { memory_limit: '64MB', write_buffer_row_group_count: '100000', write_buffer_row_group_memory_limit: '256MB' });
  const c = await i.connect();
  await c.run("ATTACH '/tmp/a.db' AS warehouse (ROW_GROUP_SIZE 2048)"); await c.run('USE warehouse');
  const s = await c.runAndReadAll("SELECT current_database() db, current_setting('write_buffer_row_group_count') wb"); console.log(s.getRowObjects());
  await c.run('CREATE TABLE t AS SELECT range i FROM range(10)');
  await c.run('CHECKPOINT');
  await c.run('INSERT INTO t VALUES (42)');
  if (keep) await c.run('PRAGMA disable_checkpoint_on_shutdown');
  console.log('before close wal', size('/tmp/a.db.wal'));
  c.closeSync(); i.closeSync();
  console.log('keep', keep, 'after close wal', size('/tmp/a.db.wal'));
  // lock test
}
const i1 = await DuckDBInstance.create(':memory:'); const c1 = await i1.connect(); await c1.run("ATTACH '/tmp/a.db' AS warehouse");
const i2 = await DuckDBInstance.create(':memory:'); const c2 = await i2.connect();
try { await c2.run("ATTACH '/tmp/a.db' AS warehouse"); console.log('second attach ok?!'); } catch (e) { console.log('second attach:', e.message.split('\n')[0]); }
try { await DuckDBInstance.create('/tmp/a.db'); console.log('second create ok?!'); } catch (e) { console.log('second create:', e.message.split('\n')[0]); }
