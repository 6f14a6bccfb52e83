"""What must hold of every game after a fault: it ended; its versions are dense; every event a
client was acknowledged (201) is there; no bot move or scoring was applied twice; its audit is
all green."""

from __future__ import annotations

from collections import Counter

import psycopg
import requests

from testing.chaos.players import Played

GREEN = {
    "state_matches": True,
    "chain_ok": True,
    "signature_ok": True,
    "rules_ok": True,
    "deals_verified": True,
    "stream_head_matches": True,
    "first_bad_version": None,
    "rules_first_bad_version": None,
    "bad_deal_versions": [],
    "status": "finished",
}
ONCE_PER_ROUND = ("CardsPassed", "RoundScored")  # per seat (a pass) or per round (scoring)


def problems_of_game(conn: psycopg.Connection, api: str, played: Played) -> list[str]:
    problems: list[str] = []
    stream = conn.execute(
        "SELECT version, status FROM streams WHERE game_id = %s", (played.game_id,)
    ).fetchone()
    if stream is None:
        return [f"{played.game_id}: no such game in the store"]
    version, status = stream
    if status != "finished":
        problems.append(f"{played.game_id}: {status} at version {version}, not finished")
    rows = conn.execute(
        "SELECT version, type, seat, data FROM events WHERE game_id = %s ORDER BY version",
        (played.game_id,),
    ).fetchall()
    versions = [row[0] for row in rows]
    if versions != list(range(1, version + 1)):
        problems.append(f"{played.game_id}: versions not dense 1..{version}")
    stored = {row[0]: (row[1], row[2]) for row in rows}
    for v, kind, seat in played.acknowledged:
        if stored.get(v) != (kind, seat):
            problems.append(f"{played.game_id}: acknowledged v{v} {kind} seat {seat} is missing")
    applied: Counter[tuple[int, str, int | None]] = Counter()
    round_ = 0
    for _, kind, seat, data in rows:
        if kind == "DealCommitted":
            round_ = data.get("round", round_ + 1)
        if kind in ONCE_PER_ROUND:
            applied[(round_, kind, seat)] += 1
    twice = [key for key, n in applied.items() if n > 1]
    if twice:
        problems.append(f"{played.game_id}: applied more than once: {twice}")
    if played.game_type == "st_patrick":
        scored = sorted(r for (r, kind, _), n in applied.items() if kind == "RoundScored")
        if scored != list(range(1, len(scored) + 1)) or not scored:
            problems.append(f"{played.game_id}: rounds scored {scored}")
    audit = requests.get(f"{api}/games/{played.game_id}/audit", timeout=30).json()
    red = {k: audit.get(k) for k, want in GREEN.items() if audit.get(k) != want}
    snapshot = audit.get("snapshot")
    if snapshot is not None and snapshot.get("matches") is False:
        red["snapshot"] = snapshot
    if red:
        problems.append(f"{played.game_id}: audit not green: {red}")
    return problems


def problems_of_games(
    database_url: str, api: str, games: list[Played], streamed: dict[str, list[int]]
) -> list[str]:
    """Every game's problems; `streamed`: the versions a spectator's stream got, per game."""
    problems: list[str] = []
    with psycopg.connect(database_url, autocommit=True) as conn:
        versions = {str(g): v for g, v in conn.execute("SELECT game_id, version FROM streams")}
        known = {g.game_id for g in games}
        if set(versions) - known:
            problems.append(f"games no client knows of: {sorted(set(versions) - known)}")
        for played in games:
            problems += problems_of_game(conn, api, played)
    for game_id, got in streamed.items():
        if got != list(range(1, versions.get(game_id, 0) + 1)):
            problems.append(
                f"{game_id}: its stream sent versions {got}, not 1..{versions.get(game_id)}"
            )
    return problems
