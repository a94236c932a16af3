import sys, time
from collections import Counter
from mksim._policies import EAGER_WEIGHTS, RandomPolicy, WeightedPolicy, play_checked
from mksim._scoring import ScoringTester
from mksim._engine import describe
from mksim.game import Game
N=int(sys.argv[1])
t0=time.time()
for hero, skills in (("tovak",["tovak_mana_overload","tovak_i_dont_give_a_damn"]),("wolfhawk",["wolfhawk_coop_skill","wolfhawk_hawk_eyes"]),
                     ("arythea",["arythea_ritual_of_pain","arythea_power_of_pain"]),("norowas",["norowas_forward_march","norowas_coop_skill"]),
                     ("goldyx",["goldyx_source_opening","goldyx_universal_power"])):
  for scen in ("first-reconnaissance","solo-conquest"):
    game=Game(scen, hero, lost_legion=True)
    for eager in (False, True):
        pol = WeightedPolicy(0,0,0,EAGER_WEIGHTS) if eager else RandomPolicy(0,0,0)
        fin=0; stops=Counter()
        for g in range(N):
            st=game.new_state(77, g); pol.reset(77, g)
            ScoringTester(st.core).set_skills(0, skills)
            steps, err, last, viol, vstep, maxima = play_checked(pol, st.engine)
            assert viol < 0, (hero, scen, eager, g, vstep, describe(last), viol)
            if err == 0: fin+=1
            else: stops[str(st.engine._error(err,last))[:120]]+=1
        print(hero, scen, 'eager' if eager else 'random', fin, '/', N, stops.most_common(3), flush=True)
print(time.time()-t0)
