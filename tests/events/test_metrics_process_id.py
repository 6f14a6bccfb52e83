"""The name under which a process writes its metric files: kept between increments, and new
in a forked child (gunicorn forks its workers after the master has imported the metrics)."""

from __future__ import annotations

import os

from events.operations.metrics import process_id


def test_a_process_is_named_by_its_host_and_pid():
    assert process_id().endswith(f"-{os.getpid()}")
    assert process_id(1234).endswith("-1234") and process_id(1234) != process_id()


def test_a_forked_child_names_itself_by_its_own_pid():
    # Given the parent's name, already asked for (and so kept)
    parent = process_id()
    read, write = os.pipe()
    # When a child forked from it asks for its own
    child = os.fork()
    if child == 0:  # the child: report its name and pid, then leave at once
        os.write(write, f"{process_id()} {os.getpid()}".encode())
        os._exit(0)
    os.close(write)
    _, status = os.waitpid(child, 0)
    name, pid = os.read(read, 200).decode().split()
    os.close(read)
    # Then the child's name is its own pid's, and the parent's is unchanged
    assert os.waitstatus_to_exitcode(status) == 0
    assert name.endswith(f"-{pid}") and int(pid) == child
    assert name != parent and process_id() == parent
