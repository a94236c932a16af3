"""Conformance of Advanced Actions to their printed text (issue 8, deviations found by the
audits).  Card texts: ../shared/data/cards.csv and mksim/data/advanced_actions.toml; rules
../shared/rules/mage-knight-base.md and lost-legion.md.  Test ids carry the content id
(``pytest -k temporal_portal``)."""
import pytest

from test_advanced_actions import day_turn
from test_advanced_handlers import BLUE, PAY_DIE, _G, play_code


@pytest.fixture
def G(content, tables):
    """A regular turn in the movement part (Day), Source dice red blue white green gold."""
    return day_turn(content, tables, _G)


# -- Temporal Portal (LL-8.1, cards.csv #291) ------------------------------------------------

def test_temporal_portal_powered_hand_limit_option_moves(G):
    """Temporal Portal powered: "As basic but move up to 2 spaces, or next hand limit +2
    instead" - the second option replaces only the +1 (Hand limit +2), the 1-space move of
    the basic effect stays: one adjacent revealed safe space is offered, then no second."""
    G.T.set_hand(["temporal_portal"])
    pos = G.player["position"]
    G.apply(play_code(0, powered=1, pay=PAY_DIE + BLUE))
    G.choose(1)                                          # Hand limit +2 instead of +1
    assert G.A.turn["hand_limit_bonus"] == 2 and G.A.turn["action_taken"] is True
    dirs = [a for a in G.acts() if a.startswith("choose(") and a != "choose(63)"]
    assert dirs and "choose(63)" in G.acts()             # may move (or stay)
    G.choose(int(dirs[0][7:-1]))
    assert G.player["position"] != pos
    assert not any(a.startswith("choose(") for a in G.acts())   # one space only
    assert G.A.turn["hand_limit_bonus"] == 2


def test_temporal_portal_powered_two_spaces_option_keeps_hand_limit_plus_1(G):
    """The first powered option: up to 2 spaces, Hand limit +1."""
    G.T.set_hand(["temporal_portal"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + BLUE))
    G.choose(0)
    assert G.A.turn["hand_limit_bonus"] == 1
    for _ in range(2):
        dirs = [a for a in G.acts() if a.startswith("choose(") and a != "choose(63)"]
        assert dirs
        G.choose(int(dirs[0][7:-1]))
    assert not any(a.startswith("choose(") for a in G.acts())
    path = G.core_.to_dict()["turn"]["path"]
    assert len(path) == 3 and path[-1] == G.player["position"]   # the start hex, then 2 spaces
