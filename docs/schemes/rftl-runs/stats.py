# Table 4 columns from a --timeline CSV, skipping the first `warm` requests.
import csv, sys, json
path, warm = sys.argv[1], int(sys.argv[2])
r, w = [], []
gc_r, gc_w = 0.0, 0.0
for row in csv.DictReader(open(path)):
    if int(row["request"]) <= warm: continue
    t = float(row["total_us"])
    (r if row["op"] == "r" else w).append(t)
a = r + w
f = lambda v: f"{min(v):.0f} | {sum(v)/len(v):.0f} | {max(v):.0f}"
print(f"{f(r)} | {f(w)} | {sum(a)/len(a):.0f}")
