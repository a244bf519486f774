"""What the tests and the benches share: waiting for a condition (`waiting`), a private
redis-server (`redis_server`), the real bot as a subprocess (`bot_process`), and reading
the bot's keyboards as typed presses (`buttons`).

The benches import it too (`.venv/bin/python bench/load.py` puts the repository's root on
`sys.path`), so nothing here may import pytest.
"""
