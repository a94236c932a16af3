import sys; sys.path.insert(0,'tests')
from mksim.content import load_content
from interaction_setup import Game
c=load_content(); t=c.compile()
g=Game(c,t,hand=["march"],hero="arythea"); g.sc.set_skills(0,["arythea_burning_power"])
g.ut.start_combat(["prowlers"])
d=g.d["combat"]; print({k:v for k,v in d.items() if k in ("attack","block","phase")})
print(g.actions())
