-- The same CHECK constraints, with comparisons for lists of three values or
-- more: SQLite checks "x IN ('a', 'b', 'c')" against a temporary index of
-- the list that it builds, in a page cache of its own allocated and freed,
-- for every statement that checks it (a new game, a finished game, its
-- results), where comparisons cost nothing. No stored row depends on the
-- text of a CHECK, so each table's definition changes in place, as SQLite
-- documents for such changes (https://sqlite.org/lang_altertable.html,
-- "making other kinds of table schema changes"); RESET reloads this
-- connection's schema, and the table created and dropped changes the
-- schema's version, which makes every other connection reload it.
-- TestNoTemporaryTables keeps the statements of a click free of them.
-- PostgreSQL's 00019 changes nothing.

-- +goose Up
PRAGMA writable_schema = ON;
UPDATE sqlite_schema SET sql = replace(sql, 'status IN (''pending'', ''active'', ''finished'', ''declined'', ''expired'', ''cancelled'')', 'status = ''pending'' OR status = ''active'' OR status = ''finished'' OR status = ''declined'' OR status = ''expired'' OR status = ''cancelled''')
    WHERE type = 'table' AND name = 'games';
UPDATE sqlite_schema SET sql = replace(sql, 'reason IN (''line'', ''draw'', ''resign'', ''timeout'')', 'reason = ''line'' OR reason = ''draw'' OR reason = ''resign'' OR reason = ''timeout''')
    WHERE type = 'table' AND name = 'games';
UPDATE sqlite_schema SET sql = replace(sql, 'outcome IN (''win'', ''loss'', ''draw'')', 'outcome = ''win'' OR outcome = ''loss'' OR outcome = ''draw''')
    WHERE type = 'table' AND name = 'results';
UPDATE sqlite_schema SET sql = replace(sql, 'reason IN (''line'', ''draw'', ''resign'', ''timeout'')', 'reason = ''line'' OR reason = ''draw'' OR reason = ''resign'' OR reason = ''timeout''')
    WHERE type = 'table' AND name = 'results';
UPDATE sqlite_schema SET sql = replace(sql, 'default_first IN (''me'', ''them'', ''random'')', 'default_first = ''me'' OR default_first = ''them'' OR default_first = ''random''')
    WHERE type = 'table' AND name = 'guilds';
UPDATE sqlite_schema SET sql = replace(sql, 'format IN (''swiss'', ''roundrobin'', ''knockout'')', 'format = ''swiss'' OR format = ''roundrobin'' OR format = ''knockout''')
    WHERE type = 'table' AND name = 'tournaments';
UPDATE sqlite_schema SET sql = replace(sql, 'status IN (''signup'', ''running'', ''finished'', ''cancelled'')', 'status = ''signup'' OR status = ''running'' OR status = ''finished'' OR status = ''cancelled''')
    WHERE type = 'table' AND name = 'tournaments';
UPDATE sqlite_schema SET sql = replace(sql, 'result IN (''pending'', ''white'', ''black'', ''draw'', ''both_lose'')', 'result = ''pending'' OR result = ''white'' OR result = ''black'' OR result = ''draw'' OR result = ''both_lose''')
    WHERE type = 'table' AND name = 'tournament_games';
PRAGMA writable_schema = RESET;
PRAGMA writable_schema = OFF;
CREATE TABLE schema_changed (x);
DROP TABLE schema_changed;

-- +goose Down
PRAGMA writable_schema = ON;
UPDATE sqlite_schema SET sql = replace(sql, 'status = ''pending'' OR status = ''active'' OR status = ''finished'' OR status = ''declined'' OR status = ''expired'' OR status = ''cancelled''', 'status IN (''pending'', ''active'', ''finished'', ''declined'', ''expired'', ''cancelled'')')
    WHERE type = 'table' AND name = 'games';
UPDATE sqlite_schema SET sql = replace(sql, 'reason = ''line'' OR reason = ''draw'' OR reason = ''resign'' OR reason = ''timeout''', 'reason IN (''line'', ''draw'', ''resign'', ''timeout'')')
    WHERE type = 'table' AND name = 'games';
UPDATE sqlite_schema SET sql = replace(sql, 'outcome = ''win'' OR outcome = ''loss'' OR outcome = ''draw''', 'outcome IN (''win'', ''loss'', ''draw'')')
    WHERE type = 'table' AND name = 'results';
UPDATE sqlite_schema SET sql = replace(sql, 'reason = ''line'' OR reason = ''draw'' OR reason = ''resign'' OR reason = ''timeout''', 'reason IN (''line'', ''draw'', ''resign'', ''timeout'')')
    WHERE type = 'table' AND name = 'results';
UPDATE sqlite_schema SET sql = replace(sql, 'default_first = ''me'' OR default_first = ''them'' OR default_first = ''random''', 'default_first IN (''me'', ''them'', ''random'')')
    WHERE type = 'table' AND name = 'guilds';
UPDATE sqlite_schema SET sql = replace(sql, 'format = ''swiss'' OR format = ''roundrobin'' OR format = ''knockout''', 'format IN (''swiss'', ''roundrobin'', ''knockout'')')
    WHERE type = 'table' AND name = 'tournaments';
UPDATE sqlite_schema SET sql = replace(sql, 'status = ''signup'' OR status = ''running'' OR status = ''finished'' OR status = ''cancelled''', 'status IN (''signup'', ''running'', ''finished'', ''cancelled'')')
    WHERE type = 'table' AND name = 'tournaments';
UPDATE sqlite_schema SET sql = replace(sql, 'result = ''pending'' OR result = ''white'' OR result = ''black'' OR result = ''draw'' OR result = ''both_lose''', 'result IN (''pending'', ''white'', ''black'', ''draw'', ''both_lose'')')
    WHERE type = 'table' AND name = 'tournament_games';
PRAGMA writable_schema = RESET;
PRAGMA writable_schema = OFF;
CREATE TABLE schema_changed (x);
DROP TABLE schema_changed;
