# SPDX-License-Identifier: Apache-2.0
# The instruction table of test/icount: reads "<path> <shape> <dir> <size>
# <who> <instructions> <file>" lines (one per callgrind dump) and prints the
# delegated and engine tables with each ratio's goal and held ceiling.
# Variables: n (messages per case), budget (1: exit 1 when over a held
# ceiling), margin, g16 g256 g1024 ge (goals), h16 h256 h1024 he4096 he
# (held ceilings), hs (the AES-CTR/CBC shapes' held ceilings: "shape:size=ratio"
# words; their goals are AES-GCM's), guest (1: the AF_ALG raw loop, user space only: no
# ceilings, the ratio is not the budget's).  POSIX awk (busybox's too).
BEGIN {
  ns = split(hs, hw, " ")
  for (i = 1; i <= ns; i++) { split(hw[i], kv, "="); hsk[kv[1]] = kv[2] }
}
{
  key = $1 " " $2 " " $3 " " $4
  v[key, $5] = $6 / n
  if (!(key in seen)) { seen[key] = 1; order[++k] = key }
}

function goal(path, size) {
  if (path == "engine") return ge
  return size <= 16 ? g16 : size <= 256 ? g256 : g1024
}
function held(path, size, shape) {
  if ((shape ":" size) in hsk) return hsk[shape ":" size]
  if (path == "engine") return size <= 4096 ? he4096 : he
  return size <= 16 ? h16 : size <= 256 ? h256 : h1024
}
function verdict(r, path, size, shape) {
  if (guest) return "-"
  if (r > held(path, size, shape) + margin) { over++; return "OVER" }
  return r <= goal(path, size) + margin ? "goal" : "held"
}
function lim(x) {
  return guest ? "    -" : sprintf("%5.2f", x)
}
END {
  if (!guest) delegated()
  engine()
  if (!guest)
    printf "\n(goal: the target; held: the ceiling CI enforces; a ratio may exceed it by %s)\n", margin
  if (budget && over > 0) { printf "icount: %d case(s) over budget\n", over; exit 1 }
  if (budget) printf "icount: every case within budget\n"
}
function delegated() {
  printf "\nDelegated path: eip93 / default provider\n"
  printf "  %-8s %-3s %6s | %9s %9s %8s | %6s %5s %5s %5s\n", "shape", "dir", "bytes", "default",
         "eip93", "added", "ratio", "goal", "held", ""
  for (i = 1; i <= k; i++) {
    split(order[i], a, " ")
    if (a[1] != "delegated") continue
    d = v[order[i], "default"]; e = v[order[i], "eip93"]
    if (d == 0 || e == 0) continue
    r = e / d
    printf "  %-8s %-3s %6d | %9.0f %9.0f %+8.0f | %6.3f %5.2f %5.2f %5s\n", a[2], a[3], a[4], d,
           e, e - d, r, goal(a[1], a[4]), held(a[1], a[4], a[2]), verdict(r, a[1], a[4], a[2])
  }
}
function engine() {
  if (guest)
    printf "\nEngine path (AF_ALG, user space only): eip93 without the integrity check / the raw\nAF_ALG loop (the backend alone: the same syscalls); no ceilings: the kernel's work is not counted\n"
  else
    printf "\nEngine path (fake engine): eip93 without the integrity check / the raw engine loop\n"
  printf "  %-8s %-3s %6s | %9s %9s %9s | %7s %7s | %6s %5s %5s %5s\n", "shape", "dir", "bytes",
         "raw", "eip93", "unchecked", "check", "own", "ratio", "goal", "held", ""
  for (i = 1; i <= k; i++) {
    split(order[i], a, " ")
    if (a[1] != "engine") continue
    w = v[order[i], "raw"]; e = v[order[i], "eip93"]; u = v[order[i], "eip93-unchecked"]
    if (w == 0 || e == 0 || u == 0) continue
    r = u / w
    printf "  %-8s %-3s %6d | %9.0f %9.0f %9.0f | %7.0f %7.0f | %6.3f %5s %5s %5s\n", a[2],
           a[3], a[4], w, e, u, e - u, u - w, r, lim(goal(a[1], a[4])), lim(held(a[1], a[4], a[2])),
           verdict(r, a[1], a[4], a[2])
  }
}
