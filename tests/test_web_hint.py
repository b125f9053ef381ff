"""The web table's hint: on a table made with ``"hints": true``, the seat to act may send
``{"type": "hint"}`` and is answered with the search's analysis of its view; elsewhere
the request is refused in words and changes nothing."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (the web-test extra)")
pytest.importorskip("starlette", reason="the web table needs Starlette (the web extra)")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from cardrules import GAMES
from cardrules.search import analyse
from cardrules.web import create_app
from cardrules.web.table import TableSettings

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _table(c: TestClient, game: str, **extra: Any) -> tuple[str, str]:
    r = c.post("/tables", json={"game": game, "seats": ["human", "greedy"], **extra})
    assert r.status_code == 201, r.text
    made = r.json()
    link = next(link for link in made["links"] if link["seat"] == 0)
    return made["id"], link["url"].split("#")[1]


def _until(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(200):
        msg = ws.receive_json()
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} message")


def test_the_seat_to_act_gets_the_search_s_analysis_of_its_view(tmp_path):
    with TestClient(create_app(str(tmp_path / "t.db"))) as c:
        table_id, token = _table(c, "haggis", hints=True)
        with c.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_json({"type": "join", "token": token})
            state_msg = _until(ws, "state")
            while state_msg["to_act"] != 0 or not state_msg["legal"]:
                state_msg = _until(ws, "state")
            assert state_msg["hints"] is True
            ws.send_json({"type": "hint"})
            hint = _until(ws, "hint")
        assert hint["step"] == state_msg["step"]
        actions = hint["analysis"]["actions"]
        assert {a["text"] for a in actions} == set(state_msg["legal"])
        assert sum(a["visits"] for a in actions) == hint["analysis"]["iterations"] > 0
        # the same analysis as the library's, from the seat's view, with the table's seed
        table = c.app.state.server.table(table_id)
        st = table.state
        assert len(st.history) == hint["step"] or table.step == hint["step"]
        g = GAMES["haggis"]
        seed = f"{table.seed}:0:{len(st.history)}:hint"
        found = analyse(g, g.view(st, 0), g.legal_actions(st), config=g.search.config, seed=seed, rules=st.rules)
        assert [a["text"] for a in actions] == [str(line.action) for line in found.lines]


def test_a_table_without_hints_a_spectator_and_a_game_without_search_are_refused(tmp_path):
    with TestClient(create_app(str(tmp_path / "t.db"))) as c:
        table_id, token = _table(c, "aegis")
        with c.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_json({"type": "join", "token": token})
            assert _until(ws, "state")["hints"] is False
            ws.send_json({"type": "hint"})
            assert _until(ws, "error")["message"] == "this table gives no hints"
        table_id, token = _table(c, "aegis", hints=True)
        with c.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_json({"type": "watch"})
            assert _until(ws, "state")["hints"] is False  # a spectator is offered none
            ws.send_json({"type": "hint"})
            assert "spectator" in _until(ws, "error")["message"]
    with pytest.raises(Exception, match="hints is true or false"):
        TableSettings.read({"hints": "yes"})
    assert TableSettings.read({"hints": True}).hints and not TableSettings.read({}).hints
