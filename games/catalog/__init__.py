"""The games. Each package here is one game (or a family of editions) and
registers itself in its ``__init__.py``; ``games.engine.registry`` discovers
the packages, so no list of games is kept anywhere else."""
