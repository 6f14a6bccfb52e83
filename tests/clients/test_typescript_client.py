"""@cardroom/client's own tests (Node's test runner, clients/typescript/test/) against a live
server: a whole game, a stream cut midway that resumes, a typed problem."""

from __future__ import annotations

import os
import subprocess

from tests.clients.test_generators import TYPESCRIPT, _node_tool


def test_the_typescript_clients_tests_pass_against_a_live_server(server_url):
    _node_tool("tsc")
    run = subprocess.run(
        ["npm", "test", "--silent"], cwd=TYPESCRIPT, capture_output=True, text=True, timeout=300,
        env={**os.environ, "CARDROOM_URL": server_url},
    )  # fmt: skip
    print(run.stdout)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "# fail 0" in run.stdout and "# pass 3" in run.stdout
