"""Moving the test database to chosen migrations and back, for the tests of
a data migration: the rows are written with the historical models of the
migrations before it, then read with those of after it."""

from django.db import connection
from django.db.migrations.executor import MigrationExecutor

#: Applied all along; named so the historical models are today's.
SETTLED = [
    ("contenttypes", "0002_remove_content_type_name"),
    ("auth", "0012_alter_user_first_name_max_length"),
]


def migrate_to(targets):
    """Migrate to ``targets`` (forwards or backwards); the historical apps there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets + SETTLED)
    return executor.loader.project_state(targets + SETTLED).apps


def migrate_to_latest():
    """Every app back at its latest migration: a test that moved the database
    back must leave it as the next test on the same worker expects it."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
