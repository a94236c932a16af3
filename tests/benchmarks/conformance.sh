#!/bin/sh
# The full conformance run (issue 9): every registered policy survives 200 games of each
# solo scenario with and without The Lost Legion.  CI runs the same tests with a few games.
MKSIM_CONFORMANCE_GAMES=${MKSIM_CONFORMANCE_GAMES:-200} exec python -m pytest -q \
    tests/test_policies.py tests/test_policy_conformance.py -k survives_whole_games "$@"
