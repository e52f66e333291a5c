# SPDX-License-Identifier: Apache-2.0
# The window a printed calibration table implies, recomputed from its
# numbers (awk -v comp=COMPOSITION -f window.awk TABLE; an AES-CTR/CBC
# table: comp="aes-cbc cbc(aes-eip93)", its "mode" header): the rule of
# docs/performance.md, independently of the tool's own "row" column.  A row
# wins when its slowest engine round beats the fastest software round and its
# median is at least 5% faster (however wide the rounds' spread); a size
# wins when its four rows win; the window is the longest run of winning
# sizes (the larger sizes on a tie), its top raised by 256 bytes when a
# traffic shape lies that close past it.  Prints "off", "MIN-MAX" or "incomplete".
/^composition / { cur = $2; sub(/:$/, "", cur); next }
/^mode / { cur = $2 " " $3; sub(/:$/, "", cur); next }
cur == comp && $1 ~ /^[0-9]+$/ && ($2 == 128 || $2 == 256) && ($3 == "enc" || $3 == "dec") {
  s = $1; smed = $4 + 0; smin = $5 + 0; smax = $6 + 0; emed = $7 + 0; emin = $8 + 0; emax = $9 + 0
  win = smed > 0 && emed > 0 && emin > smax && emed >= smed * 1.05
  if (!(s in all)) { order[n++] = s; all[s] = 1; rows[s] = 0 }
  rows[s]++
  if (!win) all[s] = 0
}
END {
  bl = 0; st = -1
  for (i = 0; i < n; i++) {
    if (all[order[i]] && rows[order[i]] == 4) {
      if (st < 0) st = i
      if (i - st + 1 >= bl) { bl = i - st + 1; best = st }
    } else st = -1
  }
  if (n != 8) print "incomplete"
  else if (bl == 0) print "off"
  else {
    # A window ending just before a traffic shape covers it (tools/advice.c,
    # adv_cover_shapes): TLS 1.3 records (16385) and OpenSSH packets (32784)
    # are at most 256 bytes past 16384 and 32768.
    hi = order[best + bl - 1] + 0
    if (hi == 16384 || hi == 32768) hi += 256
    print order[best] "-" hi
  }
}
