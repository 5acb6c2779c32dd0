import type pg from 'pg';
import { APPENDED_CHANNEL } from './postgres-group-commit.js';

export type PostgresMigration = { version: number; name: string; sql: string };

/** Taken by every migration and every append: one lock for the schema and the log's next positions. */
export const LOG_LOCK_KEY = 0x43686f7275736c6fn;

/** A text field as the chain hashes it (event-chain.ts): its UTF-8 length in 4 bytes, then its UTF-8 bytes. */
const chainField = (text: string): string =>
  `int4send(octet_length(convert_to(${text}, 'UTF8'))) || convert_to(${text}, 'UTF8')`;

/**
 * The chain's link (event-chain.ts) as one SQL expression, written out where it is used rather than called as a
 * function: a plpgsql loop evaluates it per event, and a call to an SQL function cost the single writer ~80 us an
 * append (bench/postgres). The time's field comes from `recorded_field`, computed once a call.
 */
const chainLinkSql = (
  previous: string,
  position: string,
  revision: string,
  [stream, id, kind, data, metadata]: [string, string, string, string, string],
): string =>
  `sha256('\\x${Buffer.from('chorus-chain-v2').toString('hex')}'::bytea || ${previous} || sha256('\\x${Buffer.from('chorus-event-v2').toString('hex')}'::bytea
    || int8send(${position}) || int8send(${revision}) || ${chainField(stream)} || ${chainField(id)} || ${chainField(kind)}
    || recorded_field
    || ${chainField(data)} || ${chainField(metadata)}))`;

/** Applied in order at open; a released migration is never edited, only followed by a new one. */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'events, store identity, deleted streams, append-only events',
    sql: `
      -- position is given by the adapter under the log lock (never a sequence: an aborted transaction would leave a gap).
      -- COLLATE "C": stream ids compare byte by byte, as readLogByStream promises, whatever the database's locale.
      CREATE TABLE events (
        position bigint PRIMARY KEY CHECK (position > 0),
        stream_id text COLLATE "C" NOT NULL,
        revision bigint NOT NULL CHECK (revision >= 0),
        event_id text NOT NULL,
        type text NOT NULL,
        data text NOT NULL,
        metadata text NOT NULL,
        recorded_at timestamptz NOT NULL,
        CONSTRAINT events_stream_revision UNIQUE (stream_id, revision),
        CONSTRAINT events_stream_event_id UNIQUE (stream_id, event_id)
      );
      -- One row: this log's identity, which read models record with their checkpoints.
      CREATE TABLE store_identity (only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row), id text NOT NULL);
      INSERT INTO store_identity (id) VALUES (replace(gen_random_uuid()::text, '-', ''));
      -- How an operator deletes a stream: its events stay in the log, it reads as not found and refuses every append.
      CREATE TABLE deleted_streams (stream_id text COLLATE "C" PRIMARY KEY, deleted_at timestamptz NOT NULL DEFAULT now());
      -- Removing or changing rows would hand positions out again and rewrite what auditors have seen.
      CREATE FUNCTION events_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'events are append-only: to delete a stream, insert it into deleted_streams'; END $$;
      CREATE TRIGGER events_are_append_only BEFORE UPDATE OR DELETE ON events FOR EACH STATEMENT EXECUTE FUNCTION events_are_append_only();
      CREATE TRIGGER events_are_never_truncated BEFORE TRUNCATE ON events FOR EACH STATEMENT EXECUTE FUNCTION events_are_append_only();
    `,
  },
  {
    version: 2,
    name: 'chorus_append: a group commit in one statement',
    // One round trip per group commit. An append whose check fails is left to the adapter ('check'): replay or
    // conflict.
    sql: `
      CREATE FUNCTION chorus_append(batch jsonb, recorded timestamptz) RETURNS jsonb LANGUAGE plpgsql AS $$
      DECLARE
        last_position bigint;
        stored integer := 0;
        item jsonb;
        stream text;
        expected text;
        head bigint;
        first_at bigint;
        any_stored boolean;
        holds boolean;
        ids text[];
        n integer;
        results jsonb := '[]'::jsonb;
      BEGIN
        PERFORM pg_advisory_xact_lock(${LOG_LOCK_KEY});
        SELECT coalesce(max(position), 0) INTO last_position FROM events;
        FOR item IN SELECT value FROM jsonb_array_elements(batch) LOOP
          stream := item->>'s';
          expected := item->>'x';
          IF EXISTS (SELECT 1 FROM deleted_streams WHERE stream_id = stream) THEN
            results := results || jsonb_build_array(jsonb_build_object('r', 'deleted'));
            CONTINUE;
          END IF;
          SELECT array_agg(value->>'i' ORDER BY ordinality) INTO ids FROM jsonb_array_elements(item->'e') WITH ORDINALITY;
          SELECT max(revision) INTO head FROM events WHERE stream_id = stream;
          SELECT revision INTO first_at FROM events WHERE stream_id = stream AND event_id = ids[1];
          SELECT EXISTS (SELECT 1 FROM events WHERE stream_id = stream AND event_id = ANY (ids)) INTO any_stored;
          holds := CASE expected
            WHEN 'any' THEN true
            WHEN 'no_stream' THEN head IS NULL
            WHEN 'stream_exists' THEN head IS NOT NULL
            ELSE head IS NOT NULL AND head = expected::bigint
          END;
          IF any_stored OR NOT holds THEN
            results := results || jsonb_build_array(jsonb_build_object('r', 'check', 'head', head::text, 'first', first_at::text));
            CONTINUE;
          END IF;
          n := jsonb_array_length(item->'e');
          INSERT INTO events (position, stream_id, revision, event_id, type, data, metadata, recorded_at)
            SELECT last_position + o, stream, coalesce(head, -1) + o, e->>'i', e->>'t', e->>'d', e->>'m', recorded
            FROM jsonb_array_elements(item->'e') WITH ORDINALITY AS x(e, o);
          last_position := last_position + n;
          stored := stored + 1;
          results := results || jsonb_build_array(jsonb_build_object('r', 'ok', 'next', (coalesce(head, -1) + n)::text, 'position', last_position::text));
        END LOOP;
        IF stored > 0 THEN PERFORM pg_notify('${APPENDED_CHANNEL}', ''); END IF;
        RETURN results;
      END $$;
    `,
  },
  {
    version: 3,
    name: 'personal data keys',
    sql: `
      -- Apart from the log: a deleted key (key NULL, erased_at set) is a person forgotten, and stays so.
      CREATE TABLE personal_keys (subject text COLLATE "C" PRIMARY KEY, key bytea, created_at timestamptz NOT NULL DEFAULT now(), erased_at timestamptz);
    `,
  },
  {
    version: 4,
    name: 'chorus_append_groups: the appends of one command to several streams, all or none, in one group commit',
    // A group is one command's parts (each a stream once): every part's check holds or none is written ('check').
    sql: `
      CREATE FUNCTION chorus_append_groups(batch jsonb, recorded timestamptz) RETURNS jsonb LANGUAGE plpgsql AS $$
      DECLARE
        last_position bigint;
        stored integer := 0;
        grp jsonb;
        part jsonb;
        stream text;
        expected text;
        head bigint;
        first_at bigint;
        any_stored boolean;
        holds boolean;
        ids text[];
        n integer;
        i integer;
        passed boolean;
        deleted text;
        checks jsonb;
        heads bigint[];
        outcome jsonb;
        results jsonb := '[]'::jsonb;
      BEGIN
        PERFORM pg_advisory_xact_lock(${LOG_LOCK_KEY});
        SELECT coalesce(max(position), 0) INTO last_position FROM events;
        FOR grp IN SELECT value FROM jsonb_array_elements(batch) LOOP
          passed := true;
          deleted := NULL;
          checks := '[]'::jsonb;
          heads := ARRAY[]::bigint[];
          FOR i IN 0 .. jsonb_array_length(grp) - 1 LOOP
            part := grp->i;
            stream := part->>'s';
            expected := part->>'x';
            IF EXISTS (SELECT 1 FROM deleted_streams WHERE stream_id = stream) THEN
              deleted := stream;
              EXIT;
            END IF;
            SELECT array_agg(value->>'i' ORDER BY ordinality) INTO ids FROM jsonb_array_elements(part->'e') WITH ORDINALITY;
            SELECT max(revision) INTO head FROM events WHERE stream_id = stream;
            SELECT revision INTO first_at FROM events WHERE stream_id = stream AND event_id = ids[1];
            SELECT EXISTS (SELECT 1 FROM events WHERE stream_id = stream AND event_id = ANY (ids)) INTO any_stored;
            holds := CASE expected
              WHEN 'any' THEN true
              WHEN 'no_stream' THEN head IS NULL
              WHEN 'stream_exists' THEN head IS NOT NULL
              ELSE head IS NOT NULL AND head = expected::bigint
            END;
            checks := checks || jsonb_build_array(jsonb_build_object('head', head::text, 'first', first_at::text, 'passed', holds AND NOT any_stored));
            heads := heads || coalesce(head, -1);
            IF any_stored OR NOT holds THEN passed := false; END IF;
          END LOOP;
          IF deleted IS NOT NULL THEN
            results := results || jsonb_build_array(jsonb_build_object('r', 'deleted', 's', deleted));
            CONTINUE;
          END IF;
          IF NOT passed THEN
            results := results || jsonb_build_array(jsonb_build_object('r', 'check', 'parts', checks));
            CONTINUE;
          END IF;
          outcome := '[]'::jsonb;
          FOR i IN 0 .. jsonb_array_length(grp) - 1 LOOP
            part := grp->i;
            n := jsonb_array_length(part->'e');
            INSERT INTO events (position, stream_id, revision, event_id, type, data, metadata, recorded_at)
              SELECT last_position + o, part->>'s', heads[i + 1] + o, e->>'i', e->>'t', e->>'d', e->>'m', recorded
              FROM jsonb_array_elements(part->'e') WITH ORDINALITY AS x(e, o);
            last_position := last_position + n;
            outcome := outcome || jsonb_build_array(jsonb_build_object('next', (heads[i + 1] + n)::text, 'position', last_position::text));
          END LOOP;
          stored := stored + 1;
          results := results || jsonb_build_array(jsonb_build_object('r', 'ok', 'parts', outcome));
        END LOOP;
        IF stored > 0 THEN PERFORM pg_notify('${APPENDED_CHANNEL}', ''); END IF;
        RETURN results;
      END $$;
    `,
  },
  {
    version: 5,
    name: 'the chain: each event hashed with the one before, at append, under the log lock',
    // The same encoding as event-chain.ts, in SQL (chainLinkSql): the digest of the event's fields, each
    // length-prefixed, then the link of the hash before and the digest. NULL before stays NULL (a log written before
    // the chain).
    sql: `
      ALTER TABLE events ADD COLUMN hash bytea;
      -- Deleting stays refused for the whole statement; a row may take its first hash (chorus store:chain), nothing else.
      DROP TRIGGER events_are_append_only ON events;
      CREATE TRIGGER events_are_append_only BEFORE DELETE ON events FOR EACH STATEMENT EXECUTE FUNCTION events_are_append_only();
      CREATE FUNCTION events_take_only_their_first_hash() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF OLD.hash IS NULL AND NEW.hash IS NOT NULL
            AND (NEW.position, NEW.stream_id, NEW.revision, NEW.event_id, NEW.type, NEW.data, NEW.metadata, NEW.recorded_at)
              IS NOT DISTINCT FROM (OLD.position, OLD.stream_id, OLD.revision, OLD.event_id, OLD.type, OLD.data, OLD.metadata, OLD.recorded_at)
          THEN RETURN NEW; END IF;
          RAISE EXCEPTION 'events are append-only';
        END $$;
      CREATE TRIGGER events_take_only_their_first_hash BEFORE UPDATE ON events FOR EACH ROW EXECUTE FUNCTION events_take_only_their_first_hash();
      CREATE OR REPLACE FUNCTION chorus_append(batch jsonb, recorded timestamptz) RETURNS jsonb LANGUAGE plpgsql AS $$
      DECLARE
        last_position bigint;
        last_hash bytea;
        hashes bytea[];
        -- The time as the chain hashes it, once a call: every event of a group commit has the same.
        recorded_field bytea := ${chainField(`to_char(recorded AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`)};
        e jsonb;
        o bigint;
        stored integer := 0;
        item jsonb;
        stream text;
        expected text;
        head bigint;
        first_at bigint;
        any_stored boolean;
        holds boolean;
        ids text[];
        n integer;
        results jsonb := '[]'::jsonb;
      BEGIN
        PERFORM pg_advisory_xact_lock(${LOG_LOCK_KEY});
        -- The log's end: its last position and hash (NULL: written before the chain, which chorus store:chain gives).
        SELECT position, hash INTO last_position, last_hash FROM events ORDER BY position DESC LIMIT 1;
        IF NOT FOUND THEN
          last_position := 0;
          last_hash := '\\x0000000000000000000000000000000000000000000000000000000000000000'::bytea;
        END IF;
        FOR item IN SELECT value FROM jsonb_array_elements(batch) LOOP
          stream := item->>'s';
          expected := item->>'x';
          IF EXISTS (SELECT 1 FROM deleted_streams WHERE stream_id = stream) THEN
            results := results || jsonb_build_array(jsonb_build_object('r', 'deleted'));
            CONTINUE;
          END IF;
          SELECT array_agg(value->>'i' ORDER BY ordinality) INTO ids FROM jsonb_array_elements(item->'e') WITH ORDINALITY;
          SELECT max(revision) INTO head FROM events WHERE stream_id = stream;
          SELECT revision INTO first_at FROM events WHERE stream_id = stream AND event_id = ids[1];
          SELECT EXISTS (SELECT 1 FROM events WHERE stream_id = stream AND event_id = ANY (ids)) INTO any_stored;
          holds := CASE expected
            WHEN 'any' THEN true
            WHEN 'no_stream' THEN head IS NULL
            WHEN 'stream_exists' THEN head IS NOT NULL
            ELSE head IS NOT NULL AND head = expected::bigint
          END;
          IF any_stored OR NOT holds THEN
            results := results || jsonb_build_array(jsonb_build_object('r', 'check', 'head', head::text, 'first', first_at::text));
            CONTINUE;
          END IF;
          n := jsonb_array_length(item->'e');
          -- The hashes one after another, then the rows in one INSERT: a row at a time cost 64 writers a fifth.
          hashes := ARRAY[]::bytea[];
          FOR e, o IN SELECT x.e, x.o FROM jsonb_array_elements(item->'e') WITH ORDINALITY AS x(e, o) LOOP
            last_hash := ${chainLinkSql('last_hash', 'last_position + o', 'coalesce(head, -1) + o', ['stream', "e->>'i'", "e->>'t'", "e->>'d'", "e->>'m'"])};
            hashes := hashes || last_hash;
          END LOOP;
          INSERT INTO events (position, stream_id, revision, event_id, type, data, metadata, recorded_at, hash)
            SELECT last_position + x.o, stream, coalesce(head, -1) + x.o, x.e->>'i', x.e->>'t', x.e->>'d', x.e->>'m', recorded, hashes[x.o]
            FROM jsonb_array_elements(item->'e') WITH ORDINALITY AS x(e, o);
          last_position := last_position + n;
          stored := stored + 1;
          results := results || jsonb_build_array(jsonb_build_object('r', 'ok', 'next', (coalesce(head, -1) + n)::text, 'position', last_position::text));
        END LOOP;
        IF stored > 0 THEN PERFORM pg_notify('${APPENDED_CHANNEL}', ''); END IF;
        RETURN results;
      END $$;
      CREATE OR REPLACE FUNCTION chorus_append_groups(batch jsonb, recorded timestamptz) RETURNS jsonb LANGUAGE plpgsql AS $$
      DECLARE
        last_position bigint;
        last_hash bytea;
        hashes bytea[];
        -- The time as the chain hashes it, once a call: every event of a group commit has the same.
        recorded_field bytea := ${chainField(`to_char(recorded AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`)};
        e jsonb;
        o bigint;
        stored integer := 0;
        grp jsonb;
        part jsonb;
        stream text;
        expected text;
        head bigint;
        first_at bigint;
        any_stored boolean;
        holds boolean;
        ids text[];
        n integer;
        i integer;
        passed boolean;
        deleted text;
        checks jsonb;
        heads bigint[];
        outcome jsonb;
        results jsonb := '[]'::jsonb;
      BEGIN
        PERFORM pg_advisory_xact_lock(${LOG_LOCK_KEY});
        -- The log's end: its last position and hash (NULL: written before the chain, which chorus store:chain gives).
        SELECT position, hash INTO last_position, last_hash FROM events ORDER BY position DESC LIMIT 1;
        IF NOT FOUND THEN
          last_position := 0;
          last_hash := '\\x0000000000000000000000000000000000000000000000000000000000000000'::bytea;
        END IF;
        FOR grp IN SELECT value FROM jsonb_array_elements(batch) LOOP
          passed := true;
          deleted := NULL;
          checks := '[]'::jsonb;
          heads := ARRAY[]::bigint[];
          FOR i IN 0 .. jsonb_array_length(grp) - 1 LOOP
            part := grp->i;
            stream := part->>'s';
            expected := part->>'x';
            IF EXISTS (SELECT 1 FROM deleted_streams WHERE stream_id = stream) THEN
              deleted := stream;
              EXIT;
            END IF;
            SELECT array_agg(value->>'i' ORDER BY ordinality) INTO ids FROM jsonb_array_elements(part->'e') WITH ORDINALITY;
            SELECT max(revision) INTO head FROM events WHERE stream_id = stream;
            SELECT revision INTO first_at FROM events WHERE stream_id = stream AND event_id = ids[1];
            SELECT EXISTS (SELECT 1 FROM events WHERE stream_id = stream AND event_id = ANY (ids)) INTO any_stored;
            holds := CASE expected
              WHEN 'any' THEN true
              WHEN 'no_stream' THEN head IS NULL
              WHEN 'stream_exists' THEN head IS NOT NULL
              ELSE head IS NOT NULL AND head = expected::bigint
            END;
            checks := checks || jsonb_build_array(jsonb_build_object('head', head::text, 'first', first_at::text, 'passed', holds AND NOT any_stored));
            heads := heads || coalesce(head, -1);
            IF any_stored OR NOT holds THEN passed := false; END IF;
          END LOOP;
          IF deleted IS NOT NULL THEN
            results := results || jsonb_build_array(jsonb_build_object('r', 'deleted', 's', deleted));
            CONTINUE;
          END IF;
          IF NOT passed THEN
            results := results || jsonb_build_array(jsonb_build_object('r', 'check', 'parts', checks));
            CONTINUE;
          END IF;
          outcome := '[]'::jsonb;
          FOR i IN 0 .. jsonb_array_length(grp) - 1 LOOP
            part := grp->i;
            n := jsonb_array_length(part->'e');
            hashes := ARRAY[]::bytea[];
            FOR e, o IN SELECT x.e, x.o FROM jsonb_array_elements(part->'e') WITH ORDINALITY AS x(e, o) LOOP
              last_hash := ${chainLinkSql('last_hash', 'last_position + o', 'heads[i + 1] + o', ["part->>'s'", "e->>'i'", "e->>'t'", "e->>'d'", "e->>'m'"])};
              hashes := hashes || last_hash;
            END LOOP;
            INSERT INTO events (position, stream_id, revision, event_id, type, data, metadata, recorded_at, hash)
              SELECT last_position + x.o, part->>'s', heads[i + 1] + x.o, x.e->>'i', x.e->>'t', x.e->>'d', x.e->>'m', recorded, hashes[x.o]
              FROM jsonb_array_elements(part->'e') WITH ORDINALITY AS x(e, o);
            last_position := last_position + n;
            outcome := outcome || jsonb_build_array(jsonb_build_object('next', (heads[i + 1] + n)::text, 'position', last_position::text));
          END LOOP;
          stored := stored + 1;
          results := results || jsonb_build_array(jsonb_build_object('r', 'ok', 'parts', outcome));
        END LOOP;
        IF stored > 0 THEN PERFORM pg_notify('${APPENDED_CHANNEL}', ''); END IF;
        RETURN results;
      END $$;
    `,
  },
  {
    version: 6,
    name: 'an import into an empty log builds its two unique keys once, at its end',
    sql: `
      -- One row while an import into an empty log (store:copy, store:restore) has not finished: the log's two unique
      -- keys are dropped meanwhile and built again at its end, and servers refuse to open the store.
      CREATE TABLE store_import (only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row), started_at timestamptz NOT NULL DEFAULT now());
    `,
  },
  {
    version: 7,
    name: 'a restore under way is marked in the store, which every node shares',
    sql: `
      -- One row from a restore's first write to the end of its erasures and its check of the read models: no server, on
      -- any node, starts on the store meanwhile, and the same restore run from any node takes it up (restore-mark.ts).
      CREATE TABLE store_restore (only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row), marker jsonb NOT NULL, started_at timestamptz NOT NULL DEFAULT now());
    `,
  },
];

/** Under the log lock: two nodes may open at once. */
export async function migratePostgresSchema(
  client: pg.ClientBase,
  migrations: readonly PostgresMigration[] = POSTGRES_MIGRATIONS,
): Promise<number> {
  const latest = migrations.reduce((highest, migration) => Math.max(highest, migration.version), 0);
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [LOG_LOCK_KEY.toString()]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await client.query<{ version: number | null }>(
      'SELECT max(version) AS version FROM schema_migrations',
    );
    const current = rows[0]?.version ?? 0;
    if (current > latest)
      throw new Error(
        `the event store's schema version ${current} is newer than this Chorus knows (${latest}); upgrade Chorus`,
      );
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (migration.version <= current) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
  return latest;
}
