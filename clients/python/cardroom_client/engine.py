"""The engine of cardroom-bot: a child process in any language that reads one JSON request a
line on its stdin and writes one JSON answer a line on its stdout (docs/bots.md). One process
serves every game of the run; one that exits is started again for the next request."""

from __future__ import annotations

import json
import logging
import queue
import shlex
import subprocess
import threading
import uuid
from typing import Any

log = logging.getLogger("cardroom-bot")
Answers = queue.Queue[dict[str, Any] | None]


class Engine:
    def __init__(self, command: str, answer_seconds: float) -> None:
        self.command = shlex.split(command)
        self.answer_seconds = answer_seconds
        self._lock = threading.Lock()
        # Each request waiting for its answer, with the process it was sent to.
        self._waiting: dict[str, tuple[subprocess.Popen[str], Answers]] = {}
        self._process: subprocess.Popen[str] | None = None

    def ask(self, game_id: str, game_type: str, view: dict[str, Any]) -> dict[str, Any] | None:
        """The engine's action for this view, or None when it gave none in time (it died, or
        wrote only lines that are not an answer)."""
        request_id = uuid.uuid4().hex
        answers: Answers = queue.Queue(maxsize=1)
        line = json.dumps({"id": request_id, "game": game_id, "type": game_type, "view": view})
        with self._lock:
            try:
                process = self._running()
                self._waiting[request_id] = (process, answers)
                assert process.stdin is not None
                process.stdin.write(line + "\n")
                process.stdin.flush()
            except OSError as error:
                log.warning("engine: could not be sent a request (%s)", error)
                answers.put_nowait(None)
        try:
            return answers.get(timeout=self.answer_seconds)
        except queue.Empty:
            log.warning(
                "game %s: engine gave no answer within %.0f s", game_id, self.answer_seconds
            )
            return None
        finally:
            with self._lock:
                self._waiting.pop(request_id, None)

    def close(self) -> None:
        with self._lock:
            process, self._process = self._process, None
        if process is not None and process.poll() is None:
            assert process.stdin is not None
            process.stdin.close()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()

    def _running(self) -> subprocess.Popen[str]:
        if self._process is not None and self._process.poll() is None:
            return self._process
        if self._process is not None:
            log.warning("engine: exited with code %s; starting it again", self._process.returncode)
        process = subprocess.Popen(
            self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self._process = process
        threading.Thread(target=self._read, args=(process,), daemon=True).start()
        return process

    def _read(self, process: subprocess.Popen[str]) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            self._take(line.strip())
        process.wait()
        log.warning("engine: exited with code %s", process.returncode)
        with self._lock:  # what it never answered gets no answer now
            for sent_to, answers in self._waiting.values():
                if sent_to is process and answers.empty():
                    answers.put_nowait(None)

    def _take(self, line: str) -> None:
        try:
            answer = json.loads(line)
        except ValueError:
            log.info("engine said (not JSON): %s", line[:500])
            return
        if not isinstance(answer, dict) or not isinstance(answer.get("action"), dict):
            log.info("engine said (not an answer): %s", line[:500])
            return
        with self._lock:
            _sent_to, answers = self._waiting.get(str(answer.get("id")), (None, None))
        if answers is None or not answers.empty():
            log.info("engine answered a request nobody waits for: %s", line[:500])
            return
        answers.put_nowait(answer["action"])
