"""What a 双升 batch task plays and counts: its setting, and the layout of its int64 counts
vector.

Counts and sums only, so that tasks merge by addition (any order, any number of workers).
"""

from __future__ import annotations

LEVEL, TRUMP, BANKER = 2, 0, 0  # play-only setting: level 2, trump ♠, banker seat 0
LEVELS, START_BANKER = (2, 2), 0  # whole hands: team levels and the banker going in
SETTING = {"play_only": True, "level": LEVEL, "trump": "s", "banker": BANKER,
           "banker_team": 0, "attacker_team": 1,
           "note": "play-only: bidding and the bury are not simulated; the dealt kitty is "
                   "the kitty"}
WHOLE_SETTING = {"play_only": False, "levels": list(LEVELS), "start_banker": START_BANKER,
                 "note": "whole hands from the deal: a normal hand with seat 0 banker going "
                         "in; 造反, declaring, 下臺, random trump, bury, 扒雞窩 as the rules "
                         "allow; the banker, level and trump are outcomes"}

TOTAL_POINTS = 200
BANKER_GAINS = 6  # bins banker +1 … +6 (the last also holds more)
ATTACKER_GAINS = 11  # bins attackers +0 (turnover) … +10 (the last also holds more)
HIST_BINS = 43  # attacker points: < 0, then 0, 5, …, 200 (by 5s), then > 200
# Layout of the counts vector: the block both modes fill …
A_N = 0
A_PTS, A_PTS_SQ = 1, 2  # attacker points after 摳底
A_TRICK, A_TRICK_SQ = 3, 4  # attackers' trick points
A_BANKER_TRICK = 5  # banker side's trick points
A_KITTY, A_KITTY_SQ = 6, 7  # kitty points
A_KOU, A_KOU_PTS, A_KOU_PTS_SQ = 8, 9, 10  # 摳底 hands; points it added
A_HOLD = 11  # the banker side keeps the bank (P < turnover_at)
A_THROWS, A_FAILED = 12, 13
A_BAD_TOTAL = 14  # hands whose point cards do not add to 200 (always 0)
A_HIST = 15
A_BANKER_GAIN = A_HIST + HIST_BINS
A_ATTACKER_GAIN = A_BANKER_GAIN + BANKER_GAINS
# … and the whole-hand block (zero in play-only runs).
A_REBEL = A_ATTACKER_GAIN + ATTACKER_GAINS  # hands with a 造反
A_STEPDOWN = A_REBEL + 1  # 下臺: nobody declared in the first round
A_RANDOM_TRUMP = A_STEPDOWN + 1  # T drawn from the kitty
A_BAJIWO = A_RANDOM_TRUMP + 1  # hands with at least one 扒雞窩 swap
A_BAJIWO_SWAPS, A_BAJIWO_SWAPS_SQ = A_BAJIWO + 1, A_BAJIWO + 2
A_GRAB = A_BAJIWO + 3  # 搶莊局 (after a 造反)
A_TRUMP = A_GRAB + 1  # 5 bins: final T ♠♥♣♦ NT
A_TEAM = A_TRUMP + 5  # per team (2 blocks of TEAM_SIZE)
TM_BANKS, TM_HOLDS, TM_WINS, TM_GAIN, TM_GAIN_SQ, TM_ATTACK_PTS, TM_ATTACK_PTS_SQ = range(7)
TEAM_SIZE = 7
A_SEAT = A_TEAM + 2 * TEAM_SIZE  # per seat (4 blocks of SEAT_SIZE)
SE_BANKS, SE_HOLDS, SE_PTS, SE_PTS_SQ, SE_REBEL, SE_TAKER, SE_LAST_BURIER = range(7)
SEAT_SIZE = 7
AGG_SIZE = A_SEAT + 4 * SEAT_SIZE
