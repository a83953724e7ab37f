# Trace for the Table 4 / Table 5 runs: every LPN written once (warm-up), then N random
# requests (30% reads); 'uniform' or 'hotcold' (80% of requests to 20% of the space).
import random, sys
L, n, kind, seed = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
rng = random.Random(seed)
out = [f"w{i}" for i in range(L)]
hot = max(1, L // 5)
for _ in range(n):
    if kind == "uniform":
        lpn = rng.randrange(L)
    else:
        lpn = rng.randrange(hot) if rng.random() < 0.8 else rng.randrange(hot, L)
    out.append(("r" if rng.random() < 0.3 else "w") + str(lpn))
print(" ".join(out))
