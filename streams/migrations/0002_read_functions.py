"""PostgreSQL functions that number a player's new events and read them in
one statement each (``streams.events``); SQLite keeps the Python path."""

from django.db import migrations

SETTLE = """
CREATE OR REPLACE FUNCTION smoki_stream_settle(p_user bigint, p_batch integer)
RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    v_last bigint;
    v_count integer;
BEGIN
    -- Nothing waits for a number: no lock, no write.
    IF NOT EXISTS (
        SELECT 1 FROM streams_event WHERE user_id = p_user AND seq IS NULL
    ) THEN
        SELECT last INTO v_last FROM streams_cursor WHERE user_id = p_user;
        RETURN coalesce(v_last, 0);
    END IF;
    INSERT INTO streams_cursor (user_id, last) VALUES (p_user, 0)
        ON CONFLICT (user_id) DO NOTHING;
    SELECT last INTO v_last FROM streams_cursor WHERE user_id = p_user FOR UPDATE;
    -- Each statement below sees every numbering committed before the lock
    -- was granted (READ COMMITTED: a fresh snapshot per statement).
    WITH fresh AS (
        SELECT id, row_number() OVER (ORDER BY id) AS n
        FROM streams_event
        WHERE user_id = p_user AND seq IS NULL
        ORDER BY id
        LIMIT p_batch
    )
    UPDATE streams_event AS e SET seq = v_last + fresh.n FROM fresh WHERE e.id = fresh.id;
    GET DIAGNOSTICS v_count = ROW_COUNT;
    IF v_count > 0 THEN
        v_last := v_last + v_count;
        UPDATE streams_cursor SET last = v_last WHERE user_id = p_user;
    END IF;
    RETURN v_last;
END
$$;
"""

READ = """
CREATE OR REPLACE FUNCTION smoki_stream_read(
    p_user bigint, p_since bigint, p_kinds varchar[], p_batch integer
)
RETURNS SETOF streams_event LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM smoki_stream_settle(p_user, p_batch);
    RETURN QUERY
        SELECT * FROM streams_event
        WHERE user_id = p_user AND seq > p_since AND kind = ANY(p_kinds)
        ORDER BY seq
        LIMIT p_batch;
END
$$;
"""

DROP = """
DROP FUNCTION IF EXISTS smoki_stream_read(bigint, bigint, varchar[], integer);
DROP FUNCTION IF EXISTS smoki_stream_settle(bigint, integer);
"""


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(SETTLE)
        schema_editor.execute(READ)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("streams", "0001_initial")]

    operations = [migrations.RunPython(create, drop, elidable=False)]
